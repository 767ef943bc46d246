// SQLite implementation of BillingStore. A batch is one BEGIN IMMEDIATE transaction: the
// active-subscription check and the writes see the same state, and any throw saves nothing. Each
// use case reads what the billing rules (mapping-rules.ts) and the points domain need, asks them,
// and writes what they decided.

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
import { type Db, immediate } from './open.ts';
import { type PointsSql, pointsSql } from './points-sql.ts';
import { recordWriter } from './records.ts';

const MAPPING_SELECT = `SELECT m.*, (SELECT count(*) FROM subscriptions s WHERE s.mapping_id = m.id AND s.status = 'active') AS active_subscriptions
  FROM entitlement_mappings m`;

export class SqliteBillingStore implements BillingStore, PaymentStore {
  private readonly p: PointsSql;
  private readonly s;

  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
  ) {
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
      settings: db.prepare('SELECT settings, secret FROM billing_provider_settings WHERE realm_id = ? AND provider = ?'),
      putSettings:
        db.prepare(`INSERT INTO billing_provider_settings (realm_id, provider, settings, secret, updated_at) VALUES (@realmId, @provider, @settings, @secret, @now)
        ON CONFLICT (realm_id, provider) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at,
          secret = CASE WHEN @keepSecret = 1 THEN billing_provider_settings.secret ELSE excluded.secret END`),
      notification: db.prepare('SELECT * FROM billing_notifications WHERE realm_id = ? AND id = ?'),
      notificationByExternal: db.prepare('SELECT * FROM billing_notifications WHERE realm_id = ? AND provider = ? AND external_id = ?'),
      countDuplicate: db.prepare('UPDATE billing_notifications SET duplicates = duplicates + 1 WHERE id = ?'),
      insertNotification: db.prepare(`INSERT INTO billing_notifications (id, realm_id, provider, external_id, type, status, reason, user_id,
          external_product_id, external_subscription_id, subscription_id, facts, provider_at, received_at, applied_at)
        VALUES (@id, @realmId, @provider, @externalId, @type, @status, @reason, @userId, @externalProductId, @externalSubscriptionId,
          @subscriptionId, @facts, @providerAt, @now, @appliedAt)`),
      updateNotification: db.prepare(`UPDATE billing_notifications SET status = @status, reason = @reason, user_id = @userId,
          subscription_id = @subscriptionId, applied_at = @appliedAt WHERE id = @id`),
      listNotifications: db.prepare(`SELECT * FROM billing_notifications WHERE realm_id = @realmId
          AND (@status IS NULL OR (@status = 'duplicate' AND duplicates > 0) OR status = @status)
          AND (@beforeAt IS NULL OR received_at < @beforeAt OR (received_at = @beforeAt AND id < @beforeId))
        ORDER BY received_at DESC, id DESC LIMIT @limit`),
      userByToken: db.prepare('SELECT id FROM users WHERE realm_id = ? AND app_account_token = ? AND deleted_at IS NULL').pluck(),
      userById: db.prepare('SELECT id FROM users WHERE realm_id = ? AND id = ? AND deleted_at IS NULL').pluck(),
      // Every enabled mapping of the notification's products (a JSON array), oldest first: matchedMapping picks.
      mappingsOf: db.prepare(`SELECT id, external_product_id AS productId FROM entitlement_mappings
        WHERE realm_id = ? AND payment_provider = ? AND external_product_id IN (SELECT value FROM json_each(?)) AND enabled = 1
        ORDER BY created_at, id`),
      providerState: db.prepare('SELECT * FROM billing_provider_subscriptions WHERE realm_id = ? AND provider = ? AND external_subscription_id = ?'),
      putProviderState: db.prepare(`INSERT INTO billing_provider_subscriptions (realm_id, provider, external_subscription_id, user_id, external_product_id,
          active, provider_at, subscription_id) VALUES (@realmId, @provider, @externalSubscriptionId, @userId, @productId, @active, @providerAt, @subscriptionId)
        ON CONFLICT (realm_id, provider, external_subscription_id) DO UPDATE SET user_id = excluded.user_id, external_product_id = excluded.external_product_id,
          active = excluded.active, provider_at = excluded.provider_at, subscription_id = excluded.subscription_id`),
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
      if (emitted) recordWriter(this.db, this.secrets)(emitted(saved.map((after, i) => ({ before: befores[i]!, after }))));
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
      this.start(input, d.terms, now);
      const created = toSubscription(this.s.subscription.get(realmId, input.id) as SubscriptionRow);
      if (emitted) recordWriter(this.db, this.secrets)(emitted(created));
      return created;
    });
  }

  /** Inserts the subscription and grants what its terms give at once (inside a transaction). */
  private start(input: SubscribeRequest & { id: string }, terms: SubscriptionTerms, now: number): void {
    const { realmId, userId } = input;
    this.s.insertSubscription.run(input.id, realmId, userId, input.mappingId, input.externalSubscriptionId, JSON.stringify(terms), now);
    for (const g of subscribeGrants(input.id, terms, this.p.activeSubscriptions(userId), now)) this.p.insertDue(realmId, userId, g, now);
  }

  /** Ends the subscription and its entitlement (inside a transaction). */
  private end(r: SubscriptionRow, now: number): void {
    const sources = subscriptionSources(r.id);
    this.s.cancel.run(now, r.id);
    this.s.endEntitlements.run(now, r.user_id, sources.entitlement, now);
    this.s.endBalances.run(now, r.user_id, `${likeEscaped(sources.balancePrefix)}%`);
  }

  async cancelSubscription(realmId: string, subscriptionId: string, now: number, emitted?: (canceled: Subscription) => Emitted): Promise<Subscription> {
    return immediate(this.db, () => {
      const found = this.s.subscription.get(realmId, subscriptionId) as SubscriptionRow | undefined;
      const cancel = mustCancel(found, realmId, subscriptionId);
      const r = found!; // mustCancel refused an unknown one
      if (!cancel) return toSubscription(r);
      this.end(r, now);
      const canceled = toSubscription(this.s.subscription.get(realmId, r.id) as SubscriptionRow);
      if (emitted) recordWriter(this.db, this.secrets)(emitted(canceled));
      return canceled;
    });
  }

  async providerSettings(realmId: string, provider: PaymentProvider): Promise<StoredProviderSettings | null> {
    const r = this.s.settings.get(realmId, provider) as { settings: string; secret: string | null } | undefined;
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
    return immediate(this.db, () => {
      assertRealm(this.p.realmExists(realmId), realmId);
      const keepSecret = secret === undefined ? 1 : 0;
      this.s.putSettings.run({
        realmId,
        provider,
        settings: JSON.stringify(settings),
        secret: this.secrets.sealOrNull(ENCRYPTED.paymentProviderSecret, secret ?? null),
        now,
        keepSecret,
      });
      recordWriter(this.db, this.secrets)({ events: [], audit: [audit], jobs: [] });
    });
  }

  async receiveNotification(realmId: string, facts: NotificationFacts, id: string, now: number) {
    return immediate(this.db, () => {
      const prior = this.s.notificationByExternal.get(realmId, facts.provider, facts.externalId) as NotificationRow | undefined;
      if (prior) {
        this.s.countDuplicate.run(prior.id);
        return { notification: toNotification({ ...prior, duplicates: Number(prior.duplicates) + 1 }), duplicate: true };
      }
      const done = this.applyFacts(realmId, facts, id, now);
      this.s.insertNotification.run({
        id,
        realmId,
        provider: facts.provider,
        externalId: facts.externalId,
        type: facts.type,
        externalProductId: productOf(facts),
        externalSubscriptionId: facts.externalSubscriptionId,
        facts: JSON.stringify(facts),
        providerAt: facts.providerAt,
        now,
        ...done,
      });
      return { notification: toNotification(this.s.notification.get(realmId, id) as NotificationRow), duplicate: false };
    });
  }

  async replayNotification(realmId: string, id: string, now: number): Promise<BillingNotification | null> {
    return immediate(this.db, () => {
      const r = this.s.notification.get(realmId, id) as NotificationRow | undefined;
      if (!r) return null;
      if (!mayReplay(toNotification(r))) return toNotification(r);
      this.s.updateNotification.run({ id, ...this.applyFacts(realmId, JSON.parse(r.facts) as NotificationFacts, id, now) });
      return toNotification(this.s.notification.get(realmId, id) as NotificationRow);
    });
  }

  async listNotifications(realmId: string, q: Parameters<PaymentStore['listNotifications']>[1]): Promise<BillingNotification[]> {
    assertRealm(this.p.realmExists(realmId), realmId);
    const rows = this.s.listNotifications.all({
      realmId,
      status: q.status,
      beforeAt: q.before?.receivedAt ?? null,
      beforeId: q.before?.id ?? null,
      limit: q.limit,
    }) as NotificationRow[];
    return rows.map(toNotification);
  }

  /** Reads what the notification names, asks the rules, and writes what they decided (inside a
   *  transaction); answers the notification's record fields. */
  private applyFacts(realmId: string, f: NotificationFacts, notificationId: string, now: number) {
    const stateRow = this.s.providerState.get(realmId, f.provider, f.externalSubscriptionId) as ProviderStateRow | undefined;
    const state = stateRow ? toProviderState(stateRow) : null;
    const userId = (
      f.user === null ? null : 'userId' in f.user ? this.s.userById.get(realmId, f.user.userId) : this.s.userByToken.get(realmId, f.user.appAccountToken)
    ) as string | undefined | null;
    const candidates = this.s.mappingsOf.all(realmId, f.provider, JSON.stringify(f.productIds)) as MappingCandidate[];
    const { mapping, productId } = matchedMapping(f.productIds, candidates);
    const outcome = notificationOutcome(f.effect, f.providerAt, { userId: userId ?? null, mappingId: mapping?.id ?? null, productId, state });
    if (outcome.status !== 'applied') return { status: outcome.status, reason: outcome.reason, userId: userId ?? null, subscriptionId: null, appliedAt: null };
    let subscriptionId = stateRow?.subscription_id ?? null;
    let ended: string | null = null;
    let started: { subscriptionId: string; mappingId: string } | null = null;
    if (outcome.plan.endCurrent && subscriptionId) {
      const current = this.s.subscription.get(realmId, subscriptionId) as SubscriptionRow | undefined;
      if (endsSubscription(current)) {
        this.end(current, now);
        ended = current.id;
      }
    }
    const owner = notificationOwner(userId ?? null, stateRow?.user_id ?? null);
    if (outcome.plan.start) {
      const id = newId('sub');
      const req = { realmId, userId: owner, mappingId: mapping!.id, externalSubscriptionId: `${f.provider}:${f.transactionId}` };
      const d = subscribeDecision(req, this.get(realmId, mapping!.id), null);
      if ('terms' in d) this.start({ ...req, id }, d.terms, now);
      subscriptionId = id;
      started = { subscriptionId: id, mappingId: mapping!.id };
    }
    const kept = started || ended ? null : subscriptionId;
    const { provider, type, externalSubscriptionId } = f;
    recordWriter(
      this.db,
      this.secrets,
    )(appliedRecords({ realmId, provider, notificationId, type, userId: owner, externalSubscriptionId, started, ended, kept, now }));
    this.s.putProviderState.run({
      realmId,
      provider: f.provider,
      externalSubscriptionId: f.externalSubscriptionId,
      userId: owner,
      productId,
      active: f.effect.kind === 'activate' ? 1 : 0,
      providerAt: f.providerAt,
      subscriptionId,
    });
    return { status: 'applied' as const, reason: outcome.reason, userId: owner, subscriptionId, appliedAt: now };
  }
}

/** `s` as a LIKE pattern matching itself only (ESCAPE '\\'). */
const likeEscaped = (s: string) => s.replace(/[\\%_]/g, (c) => '\\' + c);
