// PostgreSQL implementation of BillingStore. A mapping batch locks the mappings it updates (FOR

// UPDATE) and then counts their active subscriptions, while subscribing locks its mapping FOR
// SHARE: a batch disabling a mapping and a new subscription to it are one after the other, so
// mapping_in_use (which rolls the whole batch back) counts every subscription. Subscribing and
// canceling change a user's points and hold the user's lock as the points store does.

import type { AuditRecord } from '../../audit/model.ts';
import { mustCancel, type SubscribeRequest, subscribeDecision, updatedMapping } from '../../billing/mapping-rules.ts';
import { newMapping } from '../../billing/mappings.ts';
import type { EntitlementMapping, MappingPatch, Subscription } from '../../billing/model.ts';
import {
  type BillingNotification,
  type NotificationFacts,
  type NotificationRow,
  type PaymentProvider,
  type PaymentStore,
  type ProviderStateRow,
  productOf,
  type StoredProviderSettings,
  toNotification,
  toProviderState,
} from '../../billing/notifications.ts';
import { appliedRecords } from '../../billing/provider-records.ts';
import { endsSubscription, type MappingCandidate, matchedMapping, mayReplay, notificationOutcome, notificationOwner } from '../../billing/provider-rules.ts';
import type { BillingStore, MappingBatchRecords } from '../../billing/store.ts';
import { ENCRYPTED, type SecretBox } from '../../crypto/secrets.ts';
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
  settings: 'SELECT settings, secret FROM billing_provider_settings WHERE realm_id = $1 AND provider = $2',
  putSettings: `INSERT INTO billing_provider_settings (realm_id, provider, settings, secret, updated_at) VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (realm_id, provider) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at,
      secret = CASE WHEN $6 THEN billing_provider_settings.secret ELSE excluded.secret END`,
  notification: 'SELECT * FROM billing_notifications WHERE realm_id = $1 AND id = $2',
  lockNotification: 'SELECT * FROM billing_notifications WHERE realm_id = $1 AND id = $2 FOR UPDATE',
  notificationByExternal: 'SELECT * FROM billing_notifications WHERE realm_id = $1 AND provider = $2 AND external_id = $3 FOR UPDATE',
  countDuplicate: 'UPDATE billing_notifications SET duplicates = duplicates + 1 WHERE id = $1',
  insertNotification: `INSERT INTO billing_notifications (id, realm_id, provider, external_id, type, status, reason, user_id,
      external_product_id, external_subscription_id, subscription_id, facts, provider_at, received_at, applied_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
  updateNotification: 'UPDATE billing_notifications SET status = $2, reason = $3, user_id = $4, subscription_id = $5, applied_at = $6 WHERE id = $1',
  listNotifications: `SELECT * FROM billing_notifications WHERE realm_id = $1
      AND ($2::text IS NULL OR ($2 = 'duplicate' AND duplicates > 0) OR status = $2)
      AND ($3::bigint IS NULL OR received_at < $3 OR (received_at = $3 AND id COLLATE "C" < $4))
    ORDER BY received_at DESC, id COLLATE "C" DESC LIMIT $5`,
  userByToken: 'SELECT id FROM users WHERE realm_id = $1 AND app_account_token = $2 AND deleted_at IS NULL',
  // Every enabled mapping of the notification's products, oldest first: matchedMapping picks.
  mappingsOf: `SELECT id, external_product_id AS "productId" FROM entitlement_mappings WHERE realm_id = $1 AND payment_provider = $2
    AND external_product_id = ANY($3::text[]) AND enabled ORDER BY created_at, id COLLATE "C" FOR SHARE`,
  // One provider subscription's notifications apply one after the other (hashtextextended: a
  // 64-bit key per text).
  lockProviderSubscription: 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))',
  providerState: 'SELECT * FROM billing_provider_subscriptions WHERE realm_id = $1 AND provider = $2 AND external_subscription_id = $3',
  putProviderState: `INSERT INTO billing_provider_subscriptions (realm_id, provider, external_subscription_id, user_id, external_product_id,
      active, provider_at, subscription_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
    ON CONFLICT (realm_id, provider, external_subscription_id) DO UPDATE SET user_id = excluded.user_id, external_product_id = excluded.external_product_id,
      active = excluded.active, provider_at = excluded.provider_at, subscription_id = excluded.subscription_id`,
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
  constructor(
    private readonly ctx: TxContext,
    private readonly secrets: SecretBox,
  ) {}

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
      if (emitted) writeEmitted(tx, emitted(planned), this.secrets);
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
      await this.start(tx, { ...input }, d.terms, now);
      const created = toSubscription((await tx.row<SubscriptionRow>(SQL.subscription, [realmId, input.id]))!);
      if (emitted) writeEmitted(tx, emitted(created), this.secrets);
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
      this.end(tx, r, now);
      const canceled = toSubscription((await tx.row<SubscriptionRow>(SQL.subscription, [realmId, r.id]))!);
      if (emitted) writeEmitted(tx, emitted(canceled), this.secrets);
      return canceled;
    });
  }

  /** Inserts the subscription and grants what its terms give at once (the user's row locked). */
  private async start(tx: Tx, input: SubscribeRequest & { id: string }, terms: SubscriptionTerms, now: number): Promise<void> {
    const { realmId, userId } = input;
    tx.run(SQL.insertSubscription, [input.id, realmId, userId, input.mappingId, input.externalSubscriptionId, JSON.stringify(terms), now]);
    const subs = (await tx.rows<{ id: string; terms: string; started_at: number }>(POINTS_SQL.activeSubs, [userId])).map((r) => ({
      id: r.id,
      terms: JSON.parse(r.terms) as SubscriptionTerms,
      startedAt: r.started_at,
    }));
    for (const g of subscribeGrants(input.id, terms, subs, now)) await insertDue(tx, realmId, userId, g, now);
  }

  /** Ends the subscription and its entitlement (the user's row locked). */
  private end(tx: Tx, r: SubscriptionRow, now: number): void {
    const sources = subscriptionSources(r.id);
    tx.run(SQL.cancel, [r.id, now]);
    tx.run(SQL.endEntitlements, [now, r.user_id, sources.entitlement]);
    tx.run(SQL.endBalances, [now, r.user_id, sources.balancePrefix]);
  }

  async providerSettings(realmId: string, provider: PaymentProvider): Promise<StoredProviderSettings | null> {
    const [r] = await query<{ settings: string; secret: string | null }>(this.ctx.pool, SQL.settings, [realmId, provider]);
    return r ? { settings: JSON.parse(r.settings), secret: this.secrets.openOrNull(ENCRYPTED.paymentProviderSecret, r.secret) } : null;
  }

  async putProviderSettings(
    realmId: string,
    provider: PaymentProvider,
    settings: Record<string, unknown>,
    secret: string | undefined,
    audit: AuditRecord,
    now: number,
  ): Promise<void> {
    await inTransaction(this.ctx, 'putProviderSettings', async (tx) => {
      const realm = tx.rows(POINTS_SQL.realm, [realmId]);
      assertRealm((await realm).length === 1, realmId);
      tx.run(SQL.putSettings, [
        realmId,
        provider,
        JSON.stringify(settings),
        this.secrets.sealOrNull(ENCRYPTED.paymentProviderSecret, secret ?? null),
        now,
        secret === undefined,
      ]);
      writeEmitted(tx, { events: [], audit: [audit], jobs: [] }, this.secrets);
    });
  }

  async receiveNotification(realmId: string, facts: NotificationFacts, id: string, now: number) {
    return inTransaction(this.ctx, 'receiveNotification', async (tx) => {
      // Two deliveries at once: the unique index takes one, the other runs again (tx.ts retries a
      // unique violation) and finds it.
      const prior = await tx.row<NotificationRow>(SQL.notificationByExternal, [realmId, facts.provider, facts.externalId]);
      if (prior) {
        tx.run(SQL.countDuplicate, [prior.id]);
        return { notification: toNotification({ ...prior, duplicates: Number(prior.duplicates) + 1 }), duplicate: true };
      }
      const done = await this.applyFacts(tx, realmId, facts, id, now);
      tx.run(SQL.insertNotification, [
        id,
        realmId,
        facts.provider,
        facts.externalId,
        facts.type,
        done.status,
        done.reason,
        done.userId,
        productOf(facts),
        facts.externalSubscriptionId,
        done.subscriptionId,
        JSON.stringify(facts),
        facts.providerAt,
        now,
        done.appliedAt,
      ]);
      const row = await tx.row<NotificationRow>(SQL.notification, [realmId, id]);
      return { notification: toNotification(row!), duplicate: false };
    });
  }

  async replayNotification(realmId: string, id: string, now: number): Promise<BillingNotification | null> {
    return inTransaction(this.ctx, 'replayNotification', async (tx) => {
      const r = await tx.row<NotificationRow>(SQL.lockNotification, [realmId, id]);
      if (!r) return null;
      if (!mayReplay(toNotification(r))) return toNotification(r);
      const done = await this.applyFacts(tx, realmId, JSON.parse(r.facts) as NotificationFacts, id, now);
      tx.run(SQL.updateNotification, [id, done.status, done.reason, done.userId, done.subscriptionId, done.appliedAt]);
      return toNotification((await tx.row<NotificationRow>(SQL.notification, [realmId, id]))!);
    });
  }

  async listNotifications(realmId: string, q: Parameters<PaymentStore['listNotifications']>[1]): Promise<BillingNotification[]> {
    const realm = await query(this.ctx.pool, POINTS_SQL.realm, [realmId]);
    assertRealm(realm.length === 1, realmId);
    if (q.limit === 0) return [];
    const rows = await query<NotificationRow>(this.ctx.pool, SQL.listNotifications, [
      realmId,
      q.status,
      q.before?.receivedAt ?? null,
      q.before?.id ?? null,
      q.limit,
    ]);
    return rows.map(toNotification);
  }

  /** Reads what the notification names, asks the rules, and writes what they decided; answers the
   *  notification's record fields. */
  private async applyFacts(tx: Tx, realmId: string, f: NotificationFacts, notificationId: string, now: number) {
    tx.run(SQL.lockProviderSubscription, [`billing:${realmId}:${f.provider}:${f.externalSubscriptionId}`]);
    const stateRow = tx.row<ProviderStateRow>(SQL.providerState, [realmId, f.provider, f.externalSubscriptionId]);
    const u = f.user;
    const named =
      u === null
        ? Promise.resolve(undefined)
        : 'userId' in u
          ? tx.row(POINTS_SQL.user, [realmId, u.userId]).then((r) => (r ? u.userId : undefined))
          : tx.row<{ id: string }>(SQL.userByToken, [realmId, u.appAccountToken]).then((r) => r?.id);
    const candidates = tx.rows<MappingCandidate>(SQL.mappingsOf, [realmId, f.provider, f.productIds]);
    const st = await stateRow;
    const state = st ? toProviderState(st) : null;
    const userId = (await quiet(named)) || null;
    const { mapping: m, productId } = matchedMapping(f.productIds, await candidates);
    const outcome = notificationOutcome(f.effect, f.providerAt, { userId, mappingId: m?.id ?? null, productId, state });
    if (outcome.status !== 'applied') return { status: outcome.status, reason: outcome.reason, userId, subscriptionId: null, appliedAt: null };
    const owner = notificationOwner(userId, st?.user_id ?? null);
    // The user's row first, as the points store locks it, then what changes its points.
    await tx.rows(POINTS_SQL.lockUser, [realmId, owner]);
    let subscriptionId = st?.subscription_id ?? null;
    let ended: string | null = null;
    let started: { subscriptionId: string; mappingId: string } | null = null;
    if (outcome.plan.endCurrent && subscriptionId) {
      const current = await tx.row<SubscriptionRow>(SQL.lockSubscription, [realmId, subscriptionId]);
      if (endsSubscription(current)) {
        this.end(tx, current, now);
        ended = current.id;
      }
    }
    if (outcome.plan.start) {
      const id = newId('sub');
      const req = { realmId, userId: owner, mappingId: m!.id, externalSubscriptionId: `${f.provider}:${f.transactionId}` };
      const d = subscribeDecision(req, (await this.mappingsOf(tx, realmId, [m!.id])).get(m!.id) ?? null, null);
      if ('terms' in d) await this.start(tx, { ...req, id }, d.terms, now);
      subscriptionId = id;
      started = { subscriptionId: id, mappingId: m!.id };
    }
    const kept = started || ended ? null : subscriptionId;
    const { provider, type, externalSubscriptionId } = f;
    writeEmitted(
      tx,
      appliedRecords({ realmId, provider, notificationId, type, userId: owner, externalSubscriptionId, started, ended, kept, now }),
      this.secrets,
    );
    tx.run(SQL.putProviderState, [realmId, f.provider, f.externalSubscriptionId, owner, productId, f.effect.kind === 'activate', f.providerAt, subscriptionId]);
    return { status: 'applied' as const, reason: outcome.reason, userId: owner, subscriptionId, appliedAt: now };
  }
}
