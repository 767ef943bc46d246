// BillingService handlers (docs/points.md): entitlement mapping batches and subscriptions.
import { changeBy } from '../audit/actor.ts';
import { badRequest, forbidden } from '../errors.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { toTimestamp, toTimestampOrNull } from '../lib/timestamp.ts';
import { windowListView } from '../points/service.ts';
import { hasPermission } from '../rpc/context.ts';
import type { ServiceImpl } from '../rpc/types.ts';
import { carriesPointsFields, validateMappingUpdate } from './mappings.ts';
import type { EntitlementMapping, Subscription } from './model.ts';
import { createPaymentHandlers } from './payments-service.ts';
import type { BillingStore } from './store.ts';
import { mappingBatchAudit, subscriptionChanged } from './subscription-records.ts';

export interface BillingServiceDeps {
  store: BillingStore;
  clock: Clock;
  /** The App Store's root certificates (DER), null when none is configured. */
  appStoreRoots?: Buffer[] | null;
}

export function mappingView(m: EntitlementMapping) {
  return {
    mappingId: m.id,
    realmId: m.realmId,
    paymentProvider: m.paymentProvider,
    externalProductId: m.externalProductId,
    entitlementKey: m.entitlementKey,
    billingType: m.billingType,
    billingPeriod: m.billingPeriod,
    pointsPerPeriod: m.pointsPerPeriod,
    grantPeriodType: m.grantPeriodType,
    validityDays: m.validityDays,
    grantOnSubscribe: m.grantOnSubscribe,
    maxPeriods: m.maxPeriods,
    enabled: m.enabled,
    quotaWindows: windowListView(m.quotaWindows),
    activeSubscriptions: m.activeSubscriptions,
    createdAt: toTimestamp(m.createdAt),
    updatedAt: toTimestamp(m.updatedAt),
  };
}

export function subscriptionView(s: Subscription) {
  return {
    subscriptionId: s.id,
    realmId: s.realmId,
    userId: s.userId,
    mappingId: s.mappingId,
    externalSubscriptionId: s.externalSubscriptionId ?? '',
    status: s.status,
    entitlement: s.entitlement,
    startedAt: toTimestamp(s.startedAt),
    canceledAt: toTimestampOrNull(s.canceledAt),
  };
}

const required = (v: string, field: string) => {
  if (!v || !v.trim()) throw badRequest(`${field}: required`, { field });
  return v.trim();
};

export function createBillingService({ store, clock, appStoreRoots = null }: BillingServiceDeps): ServiceImpl<'gatehouse.v1.BillingService'> {
  return {
    ...createPaymentHandlers({ store, clock, appStoreRoots }),
    async batchUpdateEntitlementMappings(req, ctx) {
      const p = ctx.principal;
      // Rows that set what subscribers are granted need points.manage as well.
      if (p?.kind === 'api_key' && req.updates.some(carriesPointsFields) && !hasPermission(p, 'points.manage')) {
        throw forbidden('API key lacks the points.manage permission (a row carries points fields)');
      }
      const provider = required(req.paymentProvider, 'paymentProvider');
      const product = required(req.externalProductId, 'externalProductId');
      if (req.updates.length > 100) throw badRequest('updates: at most 100 rows', { field: 'updates' });
      const rows = req.updates.map((u, i) => validateMappingUpdate(u, i));
      const now = clock.now();
      const batch = { realmId: req.realmId, paymentProvider: provider, externalProductId: product };
      const saved = await store.applyMappingBatch(req.realmId, provider, product, rows, now, (changed) => ({
        events: [],
        audit: [mappingBatchAudit({ ...batch, rows: changed }, changeBy(ctx), now)],
        jobs: [],
      }));
      return { saved: saved.length, mappings: saved.map(mappingView) };
    },

    async listEntitlementMappings(req) {
      const list = await store.listMappings(req.realmId, {
        paymentProvider: req.paymentProvider || undefined,
        externalProductId: req.externalProductId || undefined,
      });
      return { mappings: list.map(mappingView) };
    },

    async createSubscription(req, ctx) {
      const userId = required(req.userId, 'userId');
      const mappingId = required(req.mappingId, 'mappingId');
      const ext = req.externalSubscriptionId === undefined ? null : required(req.externalSubscriptionId, 'externalSubscriptionId');
      const now = clock.now();
      const s = await store.createSubscription({ realmId: req.realmId, userId, mappingId, externalSubscriptionId: ext, id: newId('sub') }, now, (created) =>
        subscriptionChanged(created, changeBy(ctx), now),
      );
      return subscriptionView(s);
    },

    async cancelSubscription(req, ctx) {
      const now = clock.now();
      const id = required(req.subscriptionId, 'subscriptionId');
      return subscriptionView(await store.cancelSubscription(req.realmId, id, now, (canceled) => subscriptionChanged(canceled, changeBy(ctx), now)));
    },
  };
}
