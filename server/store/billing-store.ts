// SQLite implementation of BillingStore. A batch is one BEGIN IMMEDIATE transaction: the
// active-subscription check and the writes see the same state, and any throw saves nothing.
import { conflict, GatehouseError, notFound } from '../errors.ts';
import { newId } from '../lib/ids.ts';
import { immediate, type Db } from './open.ts';
import { pointsSql, type PointsSql } from './points-sql.ts';
import { entitlementOf, termsOf, type EntitlementMapping, type MappingPatch, type Subscription } from '../billing/model.ts';
import { mergeMapping, newMapping } from '../billing/mappings.ts';
import type { BillingStore } from '../billing/store.ts';
import type { SubscriptionTerms } from '../points/periods.ts';
import type { PeriodType, QuotaWindow } from '../points/model.ts';

interface MappingRow {
  id: string;
  realm_id: string;
  payment_provider: string;
  external_product_id: string;
  entitlement_key: string;
  billing_type: string;
  billing_period: string;
  points_per_period: number;
  grant_period_type: string;
  validity_days: number;
  grant_on_subscribe: number;
  max_periods: number;
  enabled: number;
  quota_windows: string | null;
  created_at: number;
  updated_at: number;
  active_subscriptions: number;
}

interface SubscriptionRow {
  id: string;
  realm_id: string;
  user_id: string;
  mapping_id: string;
  external_subscription_id: string | null;
  status: 'active' | 'canceled';
  terms: string;
  started_at: number;
  canceled_at: number | null;
}

const toMapping = (r: MappingRow): EntitlementMapping => ({
  id: r.id,
  realmId: r.realm_id,
  paymentProvider: r.payment_provider,
  externalProductId: r.external_product_id,
  entitlementKey: r.entitlement_key,
  billingType: r.billing_type,
  billingPeriod: r.billing_period,
  pointsPerPeriod: r.points_per_period,
  grantPeriodType: r.grant_period_type as PeriodType,
  validityDays: r.validity_days,
  grantOnSubscribe: r.grant_on_subscribe === 1,
  maxPeriods: r.max_periods,
  enabled: r.enabled === 1,
  quotaWindows: r.quota_windows === null ? null : (JSON.parse(r.quota_windows) as QuotaWindow[]),
  activeSubscriptions: r.active_subscriptions,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toSubscription = (r: SubscriptionRow): Subscription => ({
  id: r.id,
  realmId: r.realm_id,
  userId: r.user_id,
  mappingId: r.mapping_id,
  externalSubscriptionId: r.external_subscription_id,
  status: r.status,
  entitlement: entitlementOf(JSON.parse(r.terms) as SubscriptionTerms),
  startedAt: r.started_at,
  canceledAt: r.canceled_at,
});

const MAPPING_SELECT = `SELECT m.*, (SELECT count(*) FROM subscriptions s WHERE s.mapping_id = m.id AND s.status = 'active') AS active_subscriptions
  FROM entitlement_mappings m`;

export class SqliteBillingStore implements BillingStore {
  private readonly p: PointsSql;
  private readonly s;

  constructor(private readonly db: Db) {
    this.p = pointsSql(db);
    this.s = {
      mapping: db.prepare(`${MAPPING_SELECT} WHERE m.realm_id = ? AND m.id = ?`),
      list: db.prepare(`${MAPPING_SELECT} WHERE m.realm_id = @realmId
        AND (@provider IS NULL OR m.payment_provider = @provider) AND (@product IS NULL OR m.external_product_id = @product)
        ORDER BY m.payment_provider, m.external_product_id, m.created_at, m.id`),
      insertMapping: db.prepare(`INSERT INTO entitlement_mappings (id, realm_id, payment_provider, external_product_id, entitlement_key, billing_type,
          billing_period, points_per_period, grant_period_type, validity_days, grant_on_subscribe, max_periods, enabled, quota_windows, created_at, updated_at)
        VALUES (@id, @realmId, @paymentProvider, @externalProductId, @entitlementKey, @billingType, @billingPeriod, @pointsPerPeriod, @grantPeriodType,
          @validityDays, @grantOnSubscribe, @maxPeriods, @enabled, @quotaWindows, @createdAt, @updatedAt)`),
      updateMapping: db.prepare(`UPDATE entitlement_mappings SET entitlement_key = @entitlementKey, billing_type = @billingType,
          billing_period = @billingPeriod, points_per_period = @pointsPerPeriod, grant_period_type = @grantPeriodType, validity_days = @validityDays,
          grant_on_subscribe = @grantOnSubscribe, max_periods = @maxPeriods, enabled = @enabled, quota_windows = @quotaWindows, updated_at = @updatedAt
        WHERE id = @id`),
      subscription: db.prepare('SELECT * FROM subscriptions WHERE realm_id = ? AND id = ?'),
      byExternal: db.prepare('SELECT * FROM subscriptions WHERE realm_id = ? AND external_subscription_id = ?'),
      insertSubscription: db.prepare(`INSERT INTO subscriptions (id, realm_id, user_id, mapping_id, external_subscription_id, status, terms, started_at)
        VALUES (?, ?, ?, ?, ?, 'active', ?, ?)`),
      cancel: db.prepare(`UPDATE subscriptions SET status = 'canceled', canceled_at = ? WHERE id = ?`),
      endEntitlements: db.prepare('UPDATE points_window_entitlements SET ends_at = ? WHERE user_id = ? AND source = ? AND (ends_at IS NULL OR ends_at > ?)'),
      endBalances: db.prepare(`UPDATE points_balances SET ended_at = ? WHERE user_id = ? AND source LIKE ? ESCAPE '\\' AND ended_at IS NULL`),
    };
  }

  private row(m: EntitlementMapping) {
    return {
      ...m,
      grantOnSubscribe: m.grantOnSubscribe ? 1 : 0,
      enabled: m.enabled ? 1 : 0,
      quotaWindows: m.quotaWindows && m.quotaWindows.length > 0 ? JSON.stringify(m.quotaWindows) : null,
    };
  }

  private get(realmId: string, id: string): EntitlementMapping | null {
    const r = this.s.mapping.get(realmId, id) as MappingRow | undefined;
    return r ? toMapping(r) : null;
  }

  async applyMappingBatch(realmId: string, paymentProvider: string, externalProductId: string, rows: MappingPatch[], now: number): Promise<EntitlementMapping[]> {
    return immediate(this.db, () => {
      if (!this.p.realmExists(realmId)) throw notFound(`Realm ${realmId} not found`);
      const ids: string[] = [];
      rows.forEach((p, i) => {
        if (p.mappingId === undefined) {
          const m = newMapping(newId('map'), realmId, paymentProvider, externalProductId, p, now);
          this.s.insertMapping.run(this.row(m));
          ids.push(m.id);
          return;
        }
        const cur = this.get(realmId, p.mappingId);
        if (!cur || cur.paymentProvider !== paymentProvider || cur.externalProductId !== externalProductId) {
          throw notFound(`updates[${i}].mappingId: mapping ${p.mappingId} not found for ${paymentProvider}/${externalProductId}`, { field: `updates[${i}].mappingId` });
        }
        // points-quota-windows.md "States and transitions": never disable a mapping that still has
        // active subscriptions; the throw rolls back every row of the batch.
        if (cur.enabled && p.enabled === false && cur.activeSubscriptions > 0) {
          throw new GatehouseError('mapping_in_use', `updates[${i}].enabled: mapping ${cur.id} has ${cur.activeSubscriptions} active subscription(s)`, {
            extra: { mappingId: cur.id, activeSubscriptions: cur.activeSubscriptions },
          });
        }
        this.s.updateMapping.run(this.row(mergeMapping(cur, p, now)));
        ids.push(cur.id);
      });
      return ids.map((id) => this.get(realmId, id)!);
    });
  }

  async listMappings(realmId: string, filter: { paymentProvider?: string; externalProductId?: string }): Promise<EntitlementMapping[]> {
    if (!this.p.realmExists(realmId)) throw notFound(`Realm ${realmId} not found`);
    return (this.s.list.all({ realmId, provider: filter.paymentProvider ?? null, product: filter.externalProductId ?? null }) as MappingRow[]).map(toMapping);
  }

  async createSubscription(input: { realmId: string; userId: string; mappingId: string; externalSubscriptionId: string | null; id: string }, now: number): Promise<Subscription> {
    return immediate(this.db, () => {
      const { realmId, userId } = input;
      this.p.requireUser(realmId, userId);
      const m = this.get(realmId, input.mappingId);
      if (!m) throw notFound(`Mapping ${input.mappingId} not found in realm ${realmId}`, { field: 'mappingId' });
      if (input.externalSubscriptionId !== null) {
        const prior = this.s.byExternal.get(realmId, input.externalSubscriptionId) as SubscriptionRow | undefined;
        if (prior) {
          // A webhook delivered twice: the same subscription again, nothing granted twice.
          if (prior.user_id === userId && prior.mapping_id === m.id) return toSubscription(prior);
          throw conflict(`externalSubscriptionId ${input.externalSubscriptionId} belongs to another subscription`, { field: 'externalSubscriptionId' });
        }
      }
      if (!m.enabled) throw conflict(`Mapping ${m.id} is disabled`, { mappingId: m.id });
      const terms = termsOf(m);
      this.s.insertSubscription.run(input.id, realmId, userId, m.id, input.externalSubscriptionId, JSON.stringify(terms), now);
      if (terms.quotaWindows) {
        this.p.insertWindowEntitlement(realmId, userId, 'subscription_credit', terms.quotaWindows, now, null, `sub:${input.id}`, now);
      } else {
        this.p.materialiseSubscriptions(realmId, userId, now);
      }
      return toSubscription(this.s.subscription.get(realmId, input.id) as SubscriptionRow);
    });
  }

  async cancelSubscription(realmId: string, subscriptionId: string, now: number): Promise<Subscription> {
    return immediate(this.db, () => {
      const r = this.s.subscription.get(realmId, subscriptionId) as SubscriptionRow | undefined;
      if (!r) throw notFound(`Subscription ${subscriptionId} not found in realm ${realmId}`);
      if (r.status === 'canceled') return toSubscription(r);
      this.s.cancel.run(now, r.id);
      this.s.endEntitlements.run(now, r.user_id, `sub:${r.id}`, now);
      this.s.endBalances.run(now, r.user_id, `sub:${r.id.replace(/[\\%_]/g, (c) => '\\' + c)}:%`);
      return toSubscription(this.s.subscription.get(realmId, r.id) as SubscriptionRow);
    });
  }
}
