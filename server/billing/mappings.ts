// Batch rows of entitlement mappings: validation and merge, pure (docs/points.md). Every error names the row and field: updates[1].limit…
import { badRequest } from '../errors.ts';
import { PERIOD_TYPES, type PeriodType } from '../points/model.ts';
import { validateWindows } from '../points/windows.ts';
import type { EntitlementMappingUpdate__Output } from '../rpc/generated/gatehouse/v1/EntitlementMappingUpdate.ts';
import { BILLING_PERIODS, BILLING_TYPES, type EntitlementMapping, MAPPING_DEFAULTS, type MappingPatch } from './model.ts';

/** Fields that set what a subscriber is granted: a row carrying any needs points.manage too. */
export const POINTS_FIELDS = ['pointsPerPeriod', 'grantPeriodType', 'validityDays', 'grantOnSubscribe', 'maxPeriods', 'quotaWindows'] as const;

export function carriesPointsFields(row: EntitlementMappingUpdate__Output): boolean {
  return POINTS_FIELDS.some((f) => (f === 'quotaWindows' ? row.quotaWindows != null : row[f] !== undefined));
}

function oneOf<T extends string>(values: readonly T[], v: string, field: string): T {
  if (!(values as readonly string[]).includes(v)) throw badRequest(`${field}: must be one of ${values.join(', ')}`, { field });
  return v as T;
}

export function validateMappingUpdate(row: EntitlementMappingUpdate__Output, i: number): MappingPatch {
  const at = (f: string) => `updates[${i}].${f}`;
  const p: MappingPatch = {};
  if (row.mappingId !== undefined) {
    if (!row.mappingId.trim()) throw badRequest(`${at('mappingId')}: must not be empty`, { field: at('mappingId') });
    p.mappingId = row.mappingId.trim();
  }
  if (row.entitlementKey !== undefined) {
    const k = row.entitlementKey.trim();
    if (!k || k.length > 200) throw badRequest(`${at('entitlementKey')}: 1–200 characters`, { field: at('entitlementKey') });
    p.entitlementKey = k;
  }
  if (row.billingType !== undefined) p.billingType = oneOf(BILLING_TYPES, row.billingType, at('billingType'));
  if (row.billingPeriod !== undefined) p.billingPeriod = oneOf(BILLING_PERIODS, row.billingPeriod, at('billingPeriod'));
  if (row.pointsPerPeriod !== undefined) p.pointsPerPeriod = row.pointsPerPeriod; // ≥ 0: billing.proto's limits
  if (row.grantPeriodType !== undefined) p.grantPeriodType = oneOf<PeriodType>(PERIOD_TYPES, row.grantPeriodType, at('grantPeriodType'));
  if (row.validityDays !== undefined) p.validityDays = row.validityDays;
  if (row.grantOnSubscribe !== undefined) p.grantOnSubscribe = row.grantOnSubscribe;
  if (row.maxPeriods !== undefined) p.maxPeriods = row.maxPeriods;
  if (row.enabled !== undefined) p.enabled = row.enabled;
  if (row.quotaWindows != null) {
    const list = validateWindows(row.quotaWindows.windows ?? [], at('quotaWindows'));
    p.quotaWindows = list.length === 0 ? null : list;
  }
  if (p.mappingId === undefined && p.entitlementKey === undefined) {
    throw badRequest(`${at('entitlementKey')}: required when creating a mapping (a row without mappingId)`, { field: at('entitlementKey') });
  }
  return p;
}

/** A new mapping from a create row. */
export function newMapping(id: string, realmId: string, paymentProvider: string, externalProductId: string, p: MappingPatch, now: number): EntitlementMapping {
  const { mappingId: _ignored, ...fields } = p;
  return {
    id,
    realmId,
    paymentProvider,
    externalProductId,
    entitlementKey: p.entitlementKey!,
    ...MAPPING_DEFAULTS,
    ...definedOnly(fields),
    activeSubscriptions: 0,
    createdAt: now,
    updatedAt: now,
  };
}

/** An existing mapping with the given fields changed. */
export function mergeMapping(m: EntitlementMapping, p: MappingPatch, now: number): EntitlementMapping {
  const { mappingId: _ignored, ...fields } = p;
  return { ...m, ...definedOnly(fields), updatedAt: now };
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
