// SQLite implementation of BillingStore. A batch is one BEGIN IMMEDIATE transaction: the
// active-subscription check and the writes see the same state, and any throw saves nothing. Each
// use case reads what the billing rules (mapping-rules.ts) and the points domain need, asks them,
// and writes what they decided.

import { mustCancel, subscribeDecision, updatedMapping } from '../billing/mapping-rules.ts';
import { newMapping } from '../billing/mappings.ts';
import type { EntitlementMapping, MappingPatch, Subscription } from '../billing/model.ts';
import type { BillingStore, MappingBatchRecords } from '../billing/store.ts';
import type { Emitted } from '../events/plan.ts';
import { newId } from '../lib/ids.ts';
import { subscribeGrants, subscriptionSources } from '../points/materialise.ts';
import { assertRealm, assertUser } from '../points/not-found.ts';
import { type MappingRow, type SubscriptionRow, toMapping, toSubscription } from './billing-rows.ts';
import { type Db, immediate } from './open.ts';
import { type PointsSql, pointsSql } from './points-sql.ts';
import { recordWriter } from './records.ts';

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

  async applyMappingBatch(
    realmId: string,
    paymentProvider: string,
    externalProductId: string,
    rows: MappingPatch[],
    now: number,
    emitted?: MappingBatchRecords,
  ): Promise<EntitlementMapping[]> {
    return immediate(this.db, () => {
      assertRealm(this.p.realmExists(realmId), realmId);
      const ids: string[] = [];
      const befores: Array<EntitlementMapping | null> = [];
      rows.forEach((p, i) => {
        if (p.mappingId === undefined) {
          const m = newMapping(newId('map'), realmId, paymentProvider, externalProductId, p, now);
          this.s.insertMapping.run(this.row(m));
          ids.push(m.id);
          befores.push(null);
        } else {
          const before = this.get(realmId, p.mappingId);
          const m = updatedMapping(i, p, before, paymentProvider, externalProductId, now);
          this.s.updateMapping.run(this.row(m));
          ids.push(m.id);
          befores.push(before);
        }
      });
      const saved = ids.map((id) => this.get(realmId, id)!);
      if (emitted) recordWriter(this.db)(emitted(saved.map((after, i) => ({ before: befores[i]!, after }))));
      return saved;
    });
  }

  async listMappings(realmId: string, filter: { paymentProvider?: string; externalProductId?: string }): Promise<EntitlementMapping[]> {
    assertRealm(this.p.realmExists(realmId), realmId);
    return (this.s.list.all({ realmId, provider: filter.paymentProvider ?? null, product: filter.externalProductId ?? null }) as MappingRow[]).map(toMapping);
  }

  async createSubscription(
    input: { realmId: string; userId: string; mappingId: string; externalSubscriptionId: string | null; id: string },
    now: number,
    emitted?: (created: Subscription) => Emitted,
  ): Promise<Subscription> {
    return immediate(this.db, () => {
      const { realmId, userId } = input;
      assertUser(this.p.userExists(realmId, userId), realmId, userId);
      const prior =
        input.externalSubscriptionId === null ? undefined : (this.s.byExternal.get(realmId, input.externalSubscriptionId) as SubscriptionRow | undefined);
      const d = subscribeDecision(input, this.get(realmId, input.mappingId), prior ? toSubscription(prior) : null);
      if ('existing' in d) return d.existing;
      this.s.insertSubscription.run(input.id, realmId, userId, input.mappingId, input.externalSubscriptionId, JSON.stringify(d.terms), now);
      for (const g of subscribeGrants(input.id, d.terms, this.p.activeSubscriptions(userId), now)) this.p.insertDue(realmId, userId, g, now);
      const created = toSubscription(this.s.subscription.get(realmId, input.id) as SubscriptionRow);
      if (emitted) recordWriter(this.db)(emitted(created));
      return created;
    });
  }

  async cancelSubscription(realmId: string, subscriptionId: string, now: number, emitted?: (canceled: Subscription) => Emitted): Promise<Subscription> {
    return immediate(this.db, () => {
      const found = this.s.subscription.get(realmId, subscriptionId) as SubscriptionRow | undefined;
      const cancel = mustCancel(found, realmId, subscriptionId);
      const r = found!; // mustCancel refused an unknown one
      if (!cancel) return toSubscription(r);
      const sources = subscriptionSources(r.id);
      this.s.cancel.run(now, r.id);
      this.s.endEntitlements.run(now, r.user_id, sources.entitlement, now);
      this.s.endBalances.run(now, r.user_id, `${likeEscaped(sources.balancePrefix)}%`);
      const canceled = toSubscription(this.s.subscription.get(realmId, r.id) as SubscriptionRow);
      if (emitted) recordWriter(this.db)(emitted(canceled));
      return canceled;
    });
  }
}

/** `s` as a LIKE pattern matching itself only (ESCAPE '\\'). */
const likeEscaped = (s: string) => s.replace(/[\\%_]/g, (c) => '\\' + c);
