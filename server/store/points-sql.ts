// The statements and synchronous steps the points and billing stores share inside their
// transactions (better-sqlite3 is synchronous; callers wrap these in immediate()). Prepared once
// per database. What to read, insert and write is decided by the points domain (materialise.ts,
// state.ts, ledger.ts, apply-plan.ts); this file reads rows and runs the writes it is handed.
import { GatehouseError } from '../errors.ts';
import { createCache } from '../lib/cache.ts';
import { newId } from '../lib/ids.ts';
import { perObject } from '../lib/memo.ts';
import type { ConsumeWrites } from '../points/apply-plan.ts';
import { type LedgerHead, type LedgerRow, ledgerIsEmpty, windowUsage } from '../points/ledger.ts';
import { type ActiveSubscription, type BalanceGrant, type DueGrant, dueGrants, type WindowGrant } from '../points/materialise.ts';
import {
  type Balance,
  type DefaultPointsConfig,
  defaultConfigFor,
  type PeriodType,
  type QuotaKind,
  type QuotaWindow,
  type WindowEntitlement,
} from '../points/model.ts';
import type { SubscriptionTerms } from '../points/periods.ts';
import { quotaBindings, type UserPointsState, userState } from '../points/state.ts';
import { materialisedCut } from '../points/total-cap.ts';
import { type WindowUsageFacts, windowStart } from '../points/windows.ts';
import type { Db } from './open.ts';
import { otherCommitsSignal } from './other-commits.ts';

interface ConfigRow {
  realm_id: string;
  registration_bonus_points: number;
  free_periodic_points_amount: number;
  free_periodic_grant_period_type: string;
  free_periodic_validity_days: number;
  free_periodic_quota_windows: string | null;
  updated_at: number;
}
interface EntitlementRow {
  id: string;
  kind: string;
  windows: string;
  starts_at: number;
  ends_at: number | null;
}

export function toConfig(r: ConfigRow | undefined, realmId: string): DefaultPointsConfig {
  if (!r) return defaultConfigFor(realmId);
  return {
    realmId: r.realm_id,
    registrationBonusPoints: r.registration_bonus_points,
    freePeriodicPointsAmount: r.free_periodic_points_amount,
    freePeriodicGrantPeriodType: r.free_periodic_grant_period_type as PeriodType,
    freePeriodicValidityDays: r.free_periodic_validity_days,
    freePeriodicQuotaWindows: r.free_periodic_quota_windows === null ? null : (JSON.parse(r.free_periodic_quota_windows) as QuotaWindow[]),
    updatedAt: r.updated_at,
  };
}

export class PointsSql {
  private readonly s;
  // Every consume reads its realm's points configuration, which operators change rarely: cached per
  // connection, dropped by the store around its own writes (forgetConfigs) and when another
  // connection has committed (other-commits.ts).
  private readonly configs;

  constructor(readonly db: Db) {
    this.configs = createCache<DefaultPointsConfig>({ max: 1024, invalidation: otherCommitsSignal(db) });
    this.s = {
      realm: db.prepare('SELECT 1 FROM realms WHERE id = ?').pluck(),
      user: db.prepare('SELECT 1 FROM users WHERE realm_id = ? AND id = ?').pluck(),
      config: db.prepare('SELECT * FROM points_default_config WHERE realm_id = ?'),
      insertBalance: db.prepare(`INSERT OR IGNORE INTO points_balances (id, realm_id, user_id, kind, amount, remaining, expires_at, source, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      insertEntitlement:
        db.prepare(`INSERT OR IGNORE INTO points_window_entitlements (id, realm_id, user_id, kind, windows, starts_at, ends_at, source, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      liveBalances: db.prepare(`SELECT id, kind, amount, remaining, expires_at AS expiresAt, created_at AS createdAt FROM points_balances
        WHERE user_id = ? AND remaining > 0 AND ended_at IS NULL AND (expires_at IS NULL OR expires_at > ?)`),
      liveEntitlements: db.prepare(`SELECT id, kind, windows, starts_at, ends_at FROM points_window_entitlements
        WHERE user_id = ? AND starts_at <= ? AND (ends_at IS NULL OR ends_at > ?) ORDER BY starts_at, id`),
      activeSubs: db.prepare(`SELECT id, terms, started_at FROM subscriptions WHERE user_id = ? AND status = 'active'`),
      head: db.prepare('SELECT seq, cum, last_at AS lastAt, retention_ms AS retentionMs FROM points_usage_heads WHERE user_id = ? AND kind = ?'),
      upsertRetention: db.prepare(`INSERT INTO points_usage_heads (user_id, kind, seq, cum, last_at, retention_ms) VALUES (?, ?, 0, 0, 0, ?)
        ON CONFLICT (user_id, kind) DO UPDATE SET retention_ms = max(retention_ms, excluded.retention_ms)`),
      updateHead: db.prepare('UPDATE points_usage_heads SET seq = ?, cum = ?, last_at = ? WHERE user_id = ? AND kind = ?'),
      cumAtOrBefore: db
        .prepare(`SELECT cum FROM points_usage_ledger WHERE user_id = ? AND kind = ? AND at <= ?
        ORDER BY at DESC, seq DESC LIMIT 1`)
        .pluck(),
      firstAfter: db.prepare(`SELECT at, cum, amount FROM points_usage_ledger WHERE user_id = ? AND kind = ? AND at > ?
        ORDER BY at, seq LIMIT 1`),
      appendLedger: db.prepare('INSERT INTO points_usage_ledger (user_id, kind, at, seq, amount, cum) VALUES (?, ?, ?, ?, ?, ?)'),
      // The oldest rows up to the cutoff, about `batch` of them: up to the time of the row `batch`
      // places in (all of them when there are fewer). Rows sharing that millisecond go together.
      prune: db.prepare(`DELETE FROM points_usage_ledger WHERE user_id = @userId AND kind = @kind AND at <= min(@cutoff, coalesce(
        (SELECT at FROM points_usage_ledger WHERE user_id = @userId AND kind = @kind ORDER BY at, seq LIMIT 1 OFFSET @batch - 1), @cutoff))`),
      // The live balances of a user other than one (the grant just inserted).
      otherLiveTotal: db
        .prepare(`SELECT coalesce(sum(remaining), 0) FROM points_balances
        WHERE user_id = ? AND id <> ? AND remaining > 0 AND ended_at IS NULL AND (expires_at IS NULL OR expires_at > ?)`)
        .pluck(),
      trimBalance: db.prepare('UPDATE points_balances SET amount = ?, remaining = ? WHERE id = ?'),
      spend: db.prepare('UPDATE points_balances SET remaining = remaining - ? WHERE id = ? AND remaining >= ?'),
    };
  }

  realmExists(realmId: string): boolean {
    return this.s.realm.get(realmId) !== undefined;
  }

  userExists(realmId: string, userId: string): boolean {
    return this.s.user.get(realmId, userId) !== undefined;
  }

  config(realmId: string): DefaultPointsConfig {
    let c = this.configs.get(realmId);
    if (!c) {
      c = toConfig(this.s.config.get(realmId) as ConfigRow | undefined, realmId);
      if (c.freePeriodicQuotaWindows) Object.freeze(c.freePeriodicQuotaWindows);
      this.configs.set(realmId, Object.freeze(c));
    }
    return c;
  }

  /** Drops cached configurations: after a write of them, and once that write has settled. */
  forgetConfigs(): void {
    this.configs.clear();
  }

  activeSubscriptions(userId: string): ActiveSubscription[] {
    return (this.s.activeSubs.all(userId) as Array<{ id: string; terms: string; started_at: number }>).map((r) => ({
      id: r.id,
      terms: parsedJson<SubscriptionTerms>(r.terms),
      startedAt: r.started_at,
    }));
  }

  /** Inserts a balance unless its source was granted already; true when inserted. */
  insertBalance(realmId: string, userId: string, g: BalanceGrant, now: number, id: string): boolean {
    return this.s.insertBalance.run(id, realmId, userId, g.kind, g.amount, g.amount, g.expiresAt, g.source, now).changes === 1;
  }

  /** A grant the service makes by itself, once per source: a balance is then cut to what keeps the
   *  user's live balances within MAX_POINTS (materialisedCut); a window entitlement widens the
   *  kind's ledger retention to what its longest window needs. */
  insertDue(realmId: string, userId: string, g: DueGrant, now: number): void {
    if (g.form === 'window') {
      this.insertWindowEntitlement(realmId, userId, g, now);
      return;
    }
    const id = newId('bal');
    if (!this.insertBalance(realmId, userId, g, now, id)) return;
    const cut = materialisedCut(this.s.otherLiveTotal.get(userId, id, now) as number, g.amount);
    if (cut !== null) this.s.trimBalance.run(cut, cut, id);
  }

  private insertWindowEntitlement(realmId: string, userId: string, g: WindowGrant, now: number): void {
    const inserted =
      this.s.insertEntitlement.run(newId('ent'), realmId, userId, g.kind, JSON.stringify(g.windows), g.startsAt, g.endsAt, g.source, now).changes === 1;
    if (inserted) this.s.upsertRetention.run(userId, g.kind, g.retentionMs);
  }

  /** Everything due to the user by `now` (materialise.ts), each source at most once. */
  materialise(realmId: string, userId: string, now: number): void {
    for (const g of dueGrants(this.config(realmId), this.activeSubscriptions(userId), now)) this.insertDue(realmId, userId, g, now);
  }

  /** The user's live state (state.ts). `withTimes: false` (consume, grant) skips the seek that only
   *  the windows' recovery times need: `quota` and `balances` are exact either way. */
  state(userId: string, now: number, withTimes = true): UserPointsState {
    const ents: WindowEntitlement[] = (this.s.liveEntitlements.all(userId, now, now) as EntitlementRow[]).map((r) => ({
      id: r.id,
      kind: r.kind as QuotaKind,
      windows: parsedJson<QuotaWindow[]>(r.windows),
      startsAt: r.starts_at,
      endsAt: r.ends_at,
    }));
    const bindings = quotaBindings(ents, now);
    const heads = bindings.map((b) => this.s.head.get(userId, b.kind) as LedgerHead | undefined);
    const usage = bindings.map((b, i) => b.windows.map((w) => this.usage(userId, b.kind, heads[i], w.windowSeconds, now, withTimes)));
    return userState(bindings, heads, usage, this.s.liveBalances.all(userId, now) as Balance[]);
  }

  /** One window's usage from the ledger (ledger.ts windowUsage): two index seeks at most, whatever
   *  the history length; none when nothing was ever consumed from the kind, and the second skipped
   *  when a row at or before the window's start answers `used` and the times are not needed. */
  private usage(userId: string, kind: QuotaKind, head: LedgerHead | undefined, windowSeconds: number, now: number, withTimes: boolean): WindowUsageFacts {
    if (ledgerIsEmpty(head)) return windowUsage(head, undefined, undefined);
    const from = windowStart(now, windowSeconds);
    const before = this.s.cumAtOrBefore.get(userId, kind, from) as number | undefined;
    const first = withTimes || before === undefined ? (this.s.firstAfter.get(userId, kind, from) as LedgerRow | undefined) : undefined;
    return windowUsage(head, before, first);
  }

  /** Runs a consume's ledger appends and balance spends (apply-plan.ts). */
  applyConsume(userId: string, w: ConsumeWrites): void {
    for (const l of w.ledger) {
      if (l.createsHead) this.s.upsertRetention.run(userId, l.kind, 0);
      this.s.appendLedger.run(userId, l.kind, l.at, l.seq, l.amount, l.cum);
      this.s.updateHead.run(l.seq, l.cum, l.at, userId, l.kind);
      if (l.prune) this.s.prune.run({ userId, kind: l.kind, cutoff: l.prune.cutoff, batch: l.prune.batch });
    }
    for (const s of w.spends) this.spend(s.sourceId, s.amount);
  }

  private spend(balanceId: string, amount: number): void {
    // The plan was made from balances read under this transaction's write lock: a draw that no
    // longer fits means the storage broke that guarantee, not a rule of the user's points.
    if (this.s.spend.run(amount, balanceId, amount).changes !== 1) {
      throw new GatehouseError('internal_error', 'Internal error', { cause: new Error(`balance ${balanceId} changed under a write lock`) });
    }
  }
}

// Entitlement window snapshots and subscription terms are immutable JSON read on every consume; the
// same few texts recur, so each is parsed once. Keyed by the text itself (never stale); bounded.
const parsed = new Map<string, unknown>();
const PARSED_MAX = 1024;
function parsedJson<T>(text: string): T {
  let v = parsed.get(text);
  if (v === undefined) {
    v = Object.freeze(deepFreeze(JSON.parse(text)));
    if (parsed.size >= PARSED_MAX) parsed.clear();
    parsed.set(text, v);
  }
  return v as T;
}
function deepFreeze(v: unknown): unknown {
  if (v && typeof v === 'object') for (const x of Object.values(v)) deepFreeze(Object.freeze(x));
  return v;
}

/** The statements of `db`, prepared once per connection. */
export const pointsSql = perObject((db: Db) => new PointsSql(db));
