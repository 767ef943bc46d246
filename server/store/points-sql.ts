// The statements and synchronous steps the points and billing stores share inside their
// transactions (better-sqlite3 is synchronous; callers wrap these in immediate()). Prepared once
// per database.
import { GatehouseError, notFound } from '../errors.ts';
import { newId } from '../lib/ids.ts';
import { createCache } from '../lib/cache.ts';
import { perObject } from '../lib/memo.ts';
import type { Db } from './open.ts';
import { otherCommitsSignal } from './other-commits.ts';
import { defaultConfigFor, QUOTA_KINDS, type Balance, type DefaultPointsConfig, type PeriodType, type QuotaKind, type QuotaWindow, type WindowEntitlement, type WindowRow } from '../points/model.ts';
import { availableOf, bindingWindows, isActive, windowRows, type WindowUsageFacts } from '../points/windows.ts';
import { dueSubscriptionPeriods, freePeriodicGrantAt, type SubscriptionTerms } from '../points/periods.ts';
import type { QuotaSource } from '../points/consume.ts';
import { fittingAmount } from '../points/total-cap.ts';

interface ConfigRow {
  realm_id: string;
  registration_bonus_points: number;
  free_periodic_points_amount: number;
  free_periodic_grant_period_type: string;
  free_periodic_validity_days: number;
  free_periodic_quota_windows: string | null;
  updated_at: number;
}
interface BalanceRow {
  id: string;
  kind: string;
  amount: number;
  remaining: number;
  expires_at: number | null;
  created_at: number;
}
interface EntitlementRow {
  id: string;
  kind: string;
  windows: string;
  starts_at: number;
  ends_at: number | null;
}
export interface HeadRow {
  seq: number;
  cum: number;
  last_at: number;
  retention_ms: number;
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

/** Live state of one user at `now`: per quota kind its binding windows and availability, and the
 *  spendable balances. */
export interface UserPointsState {
  windows: WindowRow[];
  quota: QuotaSource[];
  balances: Balance[];
  /** The ledger head of each quota kind read here, for recordUsage in the same transaction. */
  heads: Map<QuotaKind, HeadRow | undefined>;
}

/** Ledger pruning: about `batch` rows (those sharing the last one's millisecond go with it), every
 *  `every` consumes of a (user, kind). History is kept for the longest window the user ever held
 *  for the kind, and never less than `minRetentionMs` (31 days), so a newly granted window of up
 *  to a month still sees everything consumed in it.
 *  Tests set `every` to 1 and `minRetentionMs` to 0 to prune as eagerly as the rules allow. */
export const ledgerPruning = { every: 16, batch: 512, minRetentionMs: 31 * 86_400_000 };

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
      insertEntitlement: db.prepare(`INSERT OR IGNORE INTO points_window_entitlements (id, realm_id, user_id, kind, windows, starts_at, ends_at, source, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      liveBalances: db.prepare(`SELECT id, kind, amount, remaining, expires_at, created_at FROM points_balances
        WHERE user_id = ? AND remaining > 0 AND ended_at IS NULL AND (expires_at IS NULL OR expires_at > ?)`),
      liveEntitlements: db.prepare(`SELECT id, kind, windows, starts_at, ends_at FROM points_window_entitlements
        WHERE user_id = ? AND starts_at <= ? AND (ends_at IS NULL OR ends_at > ?) ORDER BY starts_at, id`),
      activeSubs: db.prepare(`SELECT id, terms, started_at FROM subscriptions WHERE user_id = ? AND status = 'active'`),
      head: db.prepare('SELECT seq, cum, last_at, retention_ms FROM points_usage_heads WHERE user_id = ? AND kind = ?'),
      upsertRetention: db.prepare(`INSERT INTO points_usage_heads (user_id, kind, seq, cum, last_at, retention_ms) VALUES (?, ?, 0, 0, 0, ?)
        ON CONFLICT (user_id, kind) DO UPDATE SET retention_ms = max(retention_ms, excluded.retention_ms)`),
      updateHead: db.prepare('UPDATE points_usage_heads SET seq = ?, cum = ?, last_at = ? WHERE user_id = ? AND kind = ?'),
      cumAtOrBefore: db.prepare(`SELECT cum FROM points_usage_ledger WHERE user_id = ? AND kind = ? AND at <= ?
        ORDER BY at DESC, seq DESC LIMIT 1`).pluck(),
      firstAfter: db.prepare(`SELECT at, cum, amount FROM points_usage_ledger WHERE user_id = ? AND kind = ? AND at > ?
        ORDER BY at, seq LIMIT 1`),
      appendLedger: db.prepare('INSERT INTO points_usage_ledger (user_id, kind, at, seq, amount, cum) VALUES (?, ?, ?, ?, ?, ?)'),
      // The oldest rows up to the cutoff, about `batch` of them: up to the time of the row `batch`
      // places in (all of them when there are fewer). Rows sharing that millisecond go together.
      prune: db.prepare(`DELETE FROM points_usage_ledger WHERE user_id = @userId AND kind = @kind AND at <= min(@cutoff, coalesce(
        (SELECT at FROM points_usage_ledger WHERE user_id = @userId AND kind = @kind ORDER BY at, seq LIMIT 1 OFFSET @batch - 1), @cutoff))`),
      // The live balances of a user other than one (the grant just inserted).
      otherLiveTotal: db.prepare(`SELECT coalesce(sum(remaining), 0) FROM points_balances
        WHERE user_id = ? AND id <> ? AND remaining > 0 AND ended_at IS NULL AND (expires_at IS NULL OR expires_at > ?)`).pluck(),
      trimBalance: db.prepare('UPDATE points_balances SET amount = ?, remaining = ? WHERE id = ?'),
      spend: db.prepare('UPDATE points_balances SET remaining = remaining - ? WHERE id = ? AND remaining >= ?'),
    };
  }

  realmExists(realmId: string): boolean {
    return this.s.realm.get(realmId) !== undefined;
  }

  requireUser(realmId: string, userId: string): void {
    if (this.s.user.get(realmId, userId) === undefined) throw notFound(`User ${userId} not found in realm ${realmId}`);
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

  insertBalance(realmId: string, userId: string, kind: string, amount: number, expiresAt: number | null, source: string, now: number, id = newId('bal')): boolean {
    return this.s.insertBalance.run(id, realmId, userId, kind, amount, amount, expiresAt, source, now).changes === 1;
  }

  /** A grant the service makes by itself (registration credit, a free periodic or subscription
   *  period): inserted once per source, and cut down to what keeps the user's live balances within
   *  MAX_POINTS, since configured amounts that each fit can still add up past it. A grant with no
   *  room left is recorded as given, with nothing in it. The cut runs only when a row was inserted. */
  insertMaterialisedBalance(realmId: string, userId: string, kind: string, amount: number, expiresAt: number | null, source: string, now: number): boolean {
    const id = newId('bal');
    if (!this.insertBalance(realmId, userId, kind, amount, expiresAt, source, now, id)) return false;
    const fits = fittingAmount(this.s.otherLiveTotal.get(userId, id, now) as number, amount);
    if (fits < amount) this.s.trimBalance.run(fits, fits, id);
    return true;
  }

  /** A window entitlement with a snapshot of `windows`; widens the ledger retention to keep
   *  what its longest window needs. */
  insertWindowEntitlement(realmId: string, userId: string, kind: QuotaKind, windows: QuotaWindow[], startsAt: number, endsAt: number | null, source: string, now: number): boolean {
    const inserted = this.s.insertEntitlement.run(newId('ent'), realmId, userId, kind, JSON.stringify(windows), startsAt, endsAt, source, now).changes === 1;
    if (inserted) this.s.upsertRetention.run(userId, kind, Math.max(...windows.map((w) => w.windowSeconds)) * 1000);
    return inserted;
  }

  /** The current free periodic grant under the realm's configuration (idempotent per period). */
  materialiseFreePeriodic(realmId: string, userId: string, now: number): void {
    const cfg = this.config(realmId);
    if (cfg.updatedAt === null) return;
    const g = freePeriodicGrantAt(cfg.freePeriodicGrantPeriodType, cfg.freePeriodicValidityDays, now);
    const windows = cfg.freePeriodicQuotaWindows;
    if (windows && windows.length > 0) {
      if (g.windowEndsAt === null || g.windowEndsAt > now) this.insertWindowEntitlement(realmId, userId, 'free_periodic_credit', windows, now, g.windowEndsAt, g.source, now);
    } else if (cfg.freePeriodicPointsAmount > 0 && (g.expiresAt === null || g.expiresAt > now)) {
      this.insertMaterialisedBalance(realmId, userId, 'free_periodic_credit', cfg.freePeriodicPointsAmount, g.expiresAt, g.source, now);
    }
  }

  /** Fixed grants of the user's active subscriptions that are due by now (idempotent per period). */
  materialiseSubscriptions(realmId: string, userId: string, now: number): void {
    for (const s of this.s.activeSubs.all(userId) as Array<{ id: string; terms: string; started_at: number }>) {
      const terms = parsedJson<SubscriptionTerms>(s.terms);
      for (const p of dueSubscriptionPeriods(terms, s.started_at, now, null)) {
        this.insertMaterialisedBalance(realmId, userId, 'subscription_credit', terms.pointsPerPeriod, p.expiresAt, `sub:${s.id}:${p.n}`, now);
      }
    }
  }

  materialise(realmId: string, userId: string, now: number): void {
    this.materialiseFreePeriodic(realmId, userId, now);
    this.materialiseSubscriptions(realmId, userId, now);
  }

  /** Exact usage of one window from the ledger: two index seeks, whatever the history length. */
  usageFacts(userId: string, kind: QuotaKind, head: HeadRow | undefined, windowSeconds: number, now: number, withTimes = true): WindowUsageFacts {
    if (!head || head.seq === 0) return { used: 0, oldestAt: null, newestAt: null };
    const from = now - windowSeconds * 1000;
    const before = this.s.cumAtOrBefore.get(userId, kind, from) as number | undefined;
    // A consume needs only `used`: with a row at or before the window start, the second seek (for
    // the oldest time inside the window) is skipped; oldestAt is then unknown (null).
    if (!withTimes && before !== undefined) return { used: head.cum - before, oldestAt: null, newestAt: null };
    const first = this.s.firstAfter.get(userId, kind, from) as { at: number; cum: number; amount: number } | undefined;
    // cum_at(from): the last row at or before it, else (pruned or never) just before the first row after it.
    const cumAt = before !== undefined ? before : first ? first.cum - first.amount : head.cum;
    const used = head.cum - cumAt;
    return { used, oldestAt: used > 0 && first ? first.at : null, newestAt: used > 0 ? head.last_at : null };
  }

  /** `withTimes: false` (consume) leaves the windows' recovery times out where that saves a seek:
   *  `quota` and `balances` are exact either way, `windows[].nextRecoveryAt` may then be null. */
  state(userId: string, now: number, withTimes = true): UserPointsState {
    const ents: WindowEntitlement[] = (this.s.liveEntitlements.all(userId, now, now) as EntitlementRow[]).map((r) => ({
      id: r.id,
      kind: r.kind as QuotaKind,
      windows: parsedJson<QuotaWindow[]>(r.windows),
      startsAt: r.starts_at,
      endsAt: r.ends_at,
    }));
    const windows: WindowRow[] = [];
    const quota: QuotaSource[] = [];
    const heads = new Map<QuotaKind, HeadRow | undefined>();
    for (const kind of QUOTA_KINDS) {
      const bind = bindingWindows(ents, kind, now);
      if (bind.length === 0) continue;
      const head = this.s.head.get(userId, kind) as HeadRow | undefined;
      heads.set(kind, head);
      const rows = windowRows(kind, bind, bind.map((w) => this.usageFacts(userId, kind, head, w.windowSeconds, now, withTimes)));
      windows.push(...rows);
      const source = ents.find((e) => e.kind === kind && isActive(e, now))!;
      quota.push({ kind, sourceId: source.id, available: availableOf(rows) });
    }
    const balances: Balance[] = (this.s.liveBalances.all(userId, now) as BalanceRow[]).map((r) => ({
      id: r.id,
      kind: r.kind as Balance['kind'],
      amount: r.amount,
      remaining: r.remaining,
      expiresAt: r.expires_at,
      createdAt: r.created_at,
    }));
    return { windows, quota, balances, heads };
  }

  /** Records `amount` consumed from a quota kind at `now` in the running-total ledger. `known` is
   *  the head as state() read it in this same transaction (saves reading it again). */
  recordUsage(userId: string, kind: QuotaKind, amount: number, now: number, known?: { head: HeadRow | undefined }): void {
    let head = known ? known.head : (this.s.head.get(userId, kind) as HeadRow | undefined);
    if (!head) {
      this.s.upsertRetention.run(userId, kind, 0);
      head = { seq: 0, cum: 0, last_at: 0, retention_ms: 0 };
    }
    // Time never runs backwards in the ledger (a clock step back must not reorder it).
    const at = Math.max(now, head.last_at);
    const seq = head.seq + 1;
    const cum = head.cum + amount;
    this.s.appendLedger.run(userId, kind, at, seq, amount, cum);
    this.s.updateHead.run(seq, cum, at, userId, kind);
    // Rows every window the user ever held has left behind are no longer needed: cum is absolute,
    // and usageFacts reads cum_at(t) from the first row after t when nothing at or before t is left.
    if (seq % ledgerPruning.every === 0) this.s.prune.run({ userId, kind, cutoff: now - Math.max(head.retention_ms, ledgerPruning.minRetentionMs), batch: ledgerPruning.batch });
  }

  spend(balanceId: string, amount: number): void {
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
