// PostgreSQL implementation of BillingStore. A mapping batch locks the mappings it updates (FOR

// UPDATE) and then counts their active subscriptions, while subscribing locks its mapping FOR
// SHARE: a batch disabling a mapping and a new subscription to it are one after the other, so
// mapping_in_use (which rolls the whole batch back) counts every subscription. Subscribing and
// canceling change a user's points and hold the user's lock as the points store does.
import { mustCancel, subscribeDecision, updatedMapping } from '../../billing/mapping-rules.ts';
import { newMapping } from '../../billing/mappings.ts';
import type { EntitlementMapping, MappingPatch, Subscription } from '../../billing/model.ts';
import type { BillingStore, MappingBatchRecords } from '../../billing/store.ts';
import type { Emitted } from '../../events/plan.ts';
import { newId } from '../../lib/ids.ts';
import { subscribeGrants, subscriptionSources } from '../../points/materialise.ts';
import { assertRealm, assertUser } from '../../points/not-found.ts';
import type { SubscriptionTerms } from '../../points/periods.ts';
import { type MappingRow, type SubscriptionRow, toMapping, toSubscription } from '../billing-rows.ts';
import { insertDue, POINTS_SQL } from './points-sql.ts';
import { writeEmitted } from './records.ts';
import { inTransaction, query, quiet, type Tx, type TxContext } from './tx.ts';

const MAPPING_SELECT = `SELECT m.*, (SELECT count(*) FROM subscriptions s WHERE s.mapping_id = m.id AND s.status = 'active') AS active_subscriptions
  FROM entitlement_mappings m`;

const SQL = {
  mappings: `${MAPPING_SELECT} WHERE m.realm_id = $1 AND m.id = ANY($2::text[])`,
  lockMappings: 'SELECT id FROM entitlement_mappings WHERE realm_id = $1 AND id = ANY($2::text[]) ORDER BY id COLLATE "C" FOR UPDATE',
  shareMapping: 'SELECT id FROM entitlement_mappings WHERE realm_id = $1 AND id = $2 FOR SHARE',
  list: `${MAPPING_SELECT} WHERE m.realm_id = $1 AND ($2::text IS NULL OR m.payment_provider = $2) AND ($3::text IS NULL OR m.external_product_id = $3)
    ORDER BY m.payment_provider COLLATE "C", m.external_product_id COLLATE "C", m.created_at, m.id COLLATE "C"`,
  insertMapping: `INSERT INTO entitlement_mappings (id, realm_id, payment_provider, external_product_id, entitlement_key, billing_type,
      billing_period, points_per_period, grant_period_type, validity_days, grant_on_subscribe, max_periods, enabled, quota_windows, created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
  updateMapping: `UPDATE entitlement_mappings SET entitlement_key = $2, billing_type = $3, billing_period = $4, points_per_period = $5,
      grant_period_type = $6, validity_days = $7, grant_on_subscribe = $8, max_periods = $9, enabled = $10, quota_windows = $11, updated_at = $12
    WHERE id = $1`,
  subscription: 'SELECT * FROM subscriptions WHERE realm_id = $1 AND id = $2',
  lockSubscription: 'SELECT * FROM subscriptions WHERE realm_id = $1 AND id = $2 FOR UPDATE',
  // A subscription's user never changes: its row is locked before the subscription's.
  lockSubscriber: `SELECT 1 FROM users WHERE id = (SELECT user_id FROM subscriptions WHERE realm_id = $1 AND id = $2) FOR NO KEY UPDATE`,
  byExternal: 'SELECT * FROM subscriptions WHERE realm_id = $1 AND external_subscription_id = $2',
  insertSubscription: `INSERT INTO subscriptions (id, realm_id, user_id, mapping_id, external_subscription_id, status, terms, started_at)
    VALUES ($1, $2, $3, $4, $5, 'active', $6, $7)`,
  cancel: `UPDATE subscriptions SET status = 'canceled', canceled_at = $2 WHERE id = $1`,
  endEntitlements: 'UPDATE points_window_entitlements SET ends_at = $1 WHERE user_id = $2 AND source = $3 AND (ends_at IS NULL OR ends_at > $1)',
  endBalances: `UPDATE points_balances SET ended_at = $1 WHERE user_id = $2 AND starts_with(source, $3) AND ended_at IS NULL`,
};

const windowsText = (m: EntitlementMapping) => (m.quotaWindows && m.quotaWindows.length > 0 ? JSON.stringify(m.quotaWindows) : null);

/** A new mapping's row, in the order of insertMapping. */
const insertValues = (m: EntitlementMapping): unknown[] => [
  m.id,
  m.realmId,
  m.paymentProvider,
  m.externalProductId,
  m.entitlementKey,
  m.billingType,
  m.billingPeriod,
  m.pointsPerPeriod,
  m.grantPeriodType,
  m.validityDays,
  m.grantOnSubscribe,
  m.maxPeriods,
  m.enabled,
  windowsText(m),
  m.createdAt,
  m.updatedAt,
];

/** What an update writes, in the order of updateMapping. */
const updateValues = (m: EntitlementMapping): unknown[] => [
  m.id,
  m.entitlementKey,
  m.billingType,
  m.billingPeriod,
  m.pointsPerPeriod,
  m.grantPeriodType,
  m.validityDays,
  m.grantOnSubscribe,
  m.maxPeriods,
  m.enabled,
  windowsText(m),
  m.updatedAt,
];

export class PostgresBillingStore implements BillingStore {
  constructor(private readonly ctx: TxContext) {}

  private mappingsOf(tx: Tx, realmId: string, ids: string[]): Promise<Map<string, EntitlementMapping>> {
    return quiet(tx.rows<MappingRow>(SQL.mappings, [realmId, ids]).then((rows) => new Map(rows.map((r) => [r.id, toMapping(r)]))));
  }

  async applyMappingBatch(
    realmId: string,
    paymentProvider: string,
    externalProductId: string,
    rows: MappingPatch[],
    now: number,
    emitted?: MappingBatchRecords,
  ): Promise<EntitlementMapping[]> {
    return inTransaction(this.ctx, 'applyMappingBatch', async (tx) => {
      const named = [...new Set(rows.flatMap((p) => (p.mappingId === undefined ? [] : [p.mappingId])))];
      const realm = tx.rows(POINTS_SQL.realm, [realmId]);
      // Locked first; counted by the next statement, whose snapshot starts once the locks are held.
      if (named.length > 0) tx.run(SQL.lockMappings, [realmId, named]);
      const current = this.mappingsOf(tx, realmId, named);
      assertRealm((await realm).length === 1, realmId);
      const known = await current;
      const ids: string[] = [];
      const planned: Array<{ before: EntitlementMapping | null; after: EntitlementMapping }> = [];
      rows.forEach((p, i) => {
        if (p.mappingId === undefined) {
          const m = newMapping(newId('map'), realmId, paymentProvider, externalProductId, p, now);
          tx.run(SQL.insertMapping, insertValues(m));
          ids.push(m.id);
          planned.push({ before: null, after: m });
        } else {
          // A row sees the rows before it: a mapping named twice merges onto its first update.
          const before = known.get(p.mappingId) ?? null;
          const m = updatedMapping(i, p, before, paymentProvider, externalProductId, now);
          tx.run(SQL.updateMapping, updateValues(m));
          known.set(m.id, m);
          ids.push(m.id);
          planned.push({ before, after: m });
        }
      });
      // The rows as written (the read-back comes with COMMIT); activeSubscriptions is not recorded.
      if (emitted) writeEmitted(tx, emitted(planned));
      // Read back behind the writes, in the same round trip as COMMIT.
      const saved = this.mappingsOf(tx, realmId, ids);
      return { ids, saved };
    }).then(async ({ ids, saved }) => {
      const byId = await saved;
      return ids.map((id) => byId.get(id)!);
    });
  }

  async listMappings(realmId: string, filter: { paymentProvider?: string; externalProductId?: string }): Promise<EntitlementMapping[]> {
    const realm = await query(this.ctx.pool, POINTS_SQL.realm, [realmId]);
    assertRealm(realm.length === 1, realmId);
    const rows = await query<MappingRow>(this.ctx.pool, SQL.list, [realmId, filter.paymentProvider ?? null, filter.externalProductId ?? null]);
    return rows.map(toMapping);
  }

  async createSubscription(
    input: { realmId: string; userId: string; mappingId: string; externalSubscriptionId: string | null; id: string },
    now: number,
    emitted?: (created: Subscription) => Emitted,
  ): Promise<Subscription> {
    return inTransaction(this.ctx, 'createSubscription', async (tx) => {
      const { realmId, userId } = input;
      const found = tx.rows(POINTS_SQL.lockUser, [realmId, userId]);
      tx.run(SQL.shareMapping, [realmId, input.mappingId]);
      const prior = input.externalSubscriptionId === null ? undefined : tx.row<SubscriptionRow>(SQL.byExternal, [realmId, input.externalSubscriptionId]);
      const mapping = this.mappingsOf(tx, realmId, [input.mappingId]);
      assertUser((await found).length === 1, realmId, userId);
      const p = prior && (await prior);
      const d = subscribeDecision(input, (await mapping).get(input.mappingId) ?? null, p ? toSubscription(p) : null);
      if ('existing' in d) return d.existing;
      // Two webhooks with one externalSubscriptionId for two users: the unique index takes one,
      // the other runs again and finds it (tx.ts retries a unique violation).
      tx.run(SQL.insertSubscription, [input.id, realmId, userId, input.mappingId, input.externalSubscriptionId, JSON.stringify(d.terms), now]);
      const subs = (await tx.rows<{ id: string; terms: string; started_at: number }>(POINTS_SQL.activeSubs, [userId])).map((r) => ({
        id: r.id,
        terms: JSON.parse(r.terms) as SubscriptionTerms,
        startedAt: r.started_at,
      }));
      for (const g of subscribeGrants(input.id, d.terms, subs, now)) await insertDue(tx, realmId, userId, g, now);
      const created = toSubscription((await tx.row<SubscriptionRow>(SQL.subscription, [realmId, input.id]))!);
      if (emitted) writeEmitted(tx, emitted(created));
      return created;
    });
  }

  async cancelSubscription(realmId: string, subscriptionId: string, now: number, emitted?: (canceled: Subscription) => Emitted): Promise<Subscription> {
    return inTransaction(this.ctx, 'cancelSubscription', async (tx) => {
      tx.run(SQL.lockSubscriber, [realmId, subscriptionId]);
      const found = await tx.row<SubscriptionRow>(SQL.lockSubscription, [realmId, subscriptionId]);
      const cancel = mustCancel(found, realmId, subscriptionId);
      const r = found!; // mustCancel refused an unknown one
      if (!cancel) return toSubscription(r);
      const sources = subscriptionSources(r.id);
      tx.run(SQL.cancel, [r.id, now]);
      tx.run(SQL.endEntitlements, [now, r.user_id, sources.entitlement]);
      tx.run(SQL.endBalances, [now, r.user_id, sources.balancePrefix]);
      const canceled = toSubscription((await tx.row<SubscriptionRow>(SQL.subscription, [realmId, r.id]))!);
      if (emitted) writeEmitted(tx, emitted(canceled));
      return canceled;
    });
  }
}
