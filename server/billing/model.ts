// Billing records: entitlement mappings and subscriptions (docs/points.md).
import type { PeriodType, QuotaWindow } from '../points/model.ts';
import type { SubscriptionTerms } from '../points/periods.ts';

export const BILLING_TYPES = ['recurring', 'one_time'] as const;
export const BILLING_PERIODS = ['daily', 'weekly', 'monthly', 'yearly'] as const;

export interface EntitlementMapping {
  id: string;
  realmId: string;
  paymentProvider: string;
  externalProductId: string;
  entitlementKey: string;
  billingType: string;
  billingPeriod: string;
  pointsPerPeriod: number;
  grantPeriodType: PeriodType;
  validityDays: number;
  grantOnSubscribe: boolean;
  maxPeriods: number;
  enabled: boolean;
  /** null = no windows: subscribing grants fixed balances of pointsPerPeriod. */
  quotaWindows: QuotaWindow[] | null;
  activeSubscriptions: number;
  createdAt: number;
  updatedAt: number;
}

/** The fields a batch row may set; absent = untouched (or the default on create). */
export interface MappingPatch {
  mappingId?: string;
  entitlementKey?: string;
  billingType?: string;
  billingPeriod?: string;
  pointsPerPeriod?: number;
  grantPeriodType?: PeriodType;
  validityDays?: number;
  grantOnSubscribe?: boolean;
  maxPeriods?: number;
  enabled?: boolean;
  /** undefined = untouched, null = cleared (from []), a list replaces. */
  quotaWindows?: QuotaWindow[] | null;
}

export const MAPPING_DEFAULTS = {
  billingType: 'recurring',
  billingPeriod: 'monthly',
  pointsPerPeriod: 0,
  grantPeriodType: 'monthly' as PeriodType,
  validityDays: 0,
  grantOnSubscribe: true,
  maxPeriods: 0,
  enabled: true,
  quotaWindows: null as QuotaWindow[] | null,
};

export interface Subscription {
  id: string;
  realmId: string;
  userId: string;
  mappingId: string;
  externalSubscriptionId: string | null;
  status: 'active' | 'canceled';
  entitlement: 'window' | 'fixed' | 'none';
  startedAt: number;
  canceledAt: number | null;
}

export function termsOf(m: EntitlementMapping): SubscriptionTerms {
  return {
    pointsPerPeriod: m.pointsPerPeriod,
    grantPeriodType: m.grantPeriodType,
    validityDays: m.validityDays,
    grantOnSubscribe: m.grantOnSubscribe,
    maxPeriods: m.maxPeriods,
    quotaWindows: m.quotaWindows && m.quotaWindows.length > 0 ? m.quotaWindows : null,
  };
}

export function entitlementOf(t: SubscriptionTerms): Subscription['entitlement'] {
  return t.quotaWindows ? 'window' : t.pointsPerPeriod > 0 ? 'fixed' : 'none';
}
