// The statements and synchronous steps the points and billing stores share inside their
// transactions (better-sqlite3 is synchronous; callers wrap these in immediate()). Prepared once
// per database. What to read, insert and write is decided by the points domain (materialise.ts,
// state.ts, ledger.ts, apply-plan.ts); this file reads rows and runs the writes it is handed.

import { GatehouseError } from '../../errors.ts';
import { createCache } from '../../lib/cache.ts';
import { newId } from '../../lib/ids.ts';
import { perObject } from '../../lib/memo.ts';
import type { ConsumeWrites } from '../../points/apply-plan.ts';
import type { BalanceLife } from '../../points/balance-life.ts';
import { type LineReturn, returnTargets } from '../../points/charges.ts';
import { dueGrantEmitted, holdExpiredEmitted } from '../../points/events.ts';
import { grantDescription, historyCutoff, historyRetention, keptInHistory, type Movement, prunesHistory, storedLines } from '../../points/history.ts';
import { HOLD_LIMITS, isDue, releaseAll } from '../../points/holds.ts';
import {
  type LedgerHead,
  type LedgerRow,
  prunableReturnBlocks,
  RETURN_LEVELS,
  returnBlocks,
  returnRanges,
  type WindowReads,
  windowFacts,
} from '../../points/ledger.ts';
import { type ActiveSubscription, type BalanceGrant, type DueGrant, dueGrants, type WindowGrant } from '../../points/materialise.ts';
import type { Balance, DefaultPointsConfig, HoldStatus, OpenHold, OpenHolds, QuotaKind, QuotaWindow, WindowEntitlement } from '../../points/model.ts';
import type { SubscriptionTerms } from '../../points/periods.ts';
import { quotaBindings, type UserPointsState, userState } from '../../points/state.ts';
import { materialisedGrant } from '../../points/total-cap.ts';
import { type WindowUsageFacts, windowStart } from '../../points/windows.ts';
import { type ConfigRow, type HoldRow, toConfig, toHold } from '../points-rows.ts';
import type { Db } from './open.ts';
import { otherCommitsSignal } from './other-commits.ts';
import { recordWriter } from './records.ts';
import { objectRows, type RowStatement } from './rows.ts';

interface EntitlementRow {
  id: string;
  kind: string;
  windows: string;
  starts_at: number;
  ends_at: number | null;
  /** The ledger head of its kind (liveEntitlements' join), null when the kind has none. */
  seq: number | null;
  cum: number;
  lastAt: number;
  returned: number;
}

/** One window of one user's ledger, as windowFacts' reads take it. */
interface WindowQuery {
  userId: string;
  kind: QuotaKind;
  headSeq: number;
  /** The kind's windows, whose first rows after their starts are sought together. */
  binding: BindingSeeks;
  /** This window's place among them. */
  index: number;
}

/** The starts of one kind's windows and, once windowFacts first asks for one, the first row after
 *  each: one statement for every window of the kind instead of one each. */
interface BindingSeeks {
  starts: number[];
  first: Array<LedgerRow | undefined> | null;
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
      user: db.prepare('SELECT 1 FROM users WHERE realm_id = ? AND id = ? AND deleted_at IS NULL').pluck(),
      config: objectRows(db.prepare('SELECT * FROM points_default_config WHERE realm_id = ?')),
      insertBalance: db.prepare(`INSERT OR IGNORE INTO points_balances (id, realm_id, user_id, kind, amount, remaining, expires_at, source, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      insertEntitlement:
        db.prepare(`INSERT OR IGNORE INTO points_window_entitlements (id, realm_id, user_id, kind, windows, starts_at, ends_at, source, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      // Live balances (balance-life.ts balanceIsLive) and active entitlements (windows.ts isActive), in SQL;
      // unordered: quotaBindings picks from them by their times whatever their order (no sort per consume).
      liveBalances: objectRows(
        db.prepare(`SELECT id, kind, amount, remaining, expires_at AS expiresAt, created_at AS createdAt FROM points_balances
        WHERE user_id = ? AND remaining > 0 AND ended_at IS NULL AND (expires_at IS NULL OR expires_at > ?)`),
      ),
      // Each with its kind's ledger head, which a kind bound by windows needs (one read, not one more per kind).
      liveEntitlements: objectRows(
        db.prepare(`SELECT e.id, e.kind, e.windows, e.starts_at, e.ends_at, h.seq, h.cum, h.last_at AS lastAt, h.returned
        FROM points_window_entitlements e LEFT JOIN points_usage_heads h ON h.user_id = e.user_id AND h.kind = e.kind
        WHERE e.user_id = ? AND e.starts_at <= ? AND (e.ends_at IS NULL OR e.ends_at > ?)`),
      ),
      activeSubs: objectRows(db.prepare(`SELECT id, terms, started_at FROM subscriptions WHERE user_id = ? AND status = 'active'`)),
      // The user (not deleted) with its active subscriptions: no row when there is no such user, one
      // with a null id when it has none.
      userSubs: objectRows(
        db.prepare(`SELECT s.id, s.terms, s.started_at FROM users u LEFT JOIN subscriptions s ON s.user_id = u.id AND s.status = 'active'
        WHERE u.realm_id = ? AND u.id = ? AND u.deleted_at IS NULL`),
      ),
      createHead: db.prepare('INSERT OR IGNORE INTO points_usage_heads (user_id, kind, seq, cum, last_at, returned) VALUES (?, ?, 0, 0, 0, 0)'),
      updateHead: db.prepare('UPDATE points_usage_heads SET seq = ?, cum = ?, last_at = ? WHERE user_id = ? AND kind = ?'),
      firstAfter: objectRows(db.prepare(FIRST_AFTER_SQL)),
      // Every row left has something left after returns (a row given back whole is deleted).
      lastRow: db.prepare('SELECT at FROM points_usage_ledger WHERE user_id = ? AND kind = ? ORDER BY at DESC, seq DESC LIMIT 1').pluck(),
      // One primary-key range per level (an OR of them would walk every block of the user).
      returnedIn: db.prepare(`SELECT coalesce(sum(amount), 0) FROM (${levelRanges()})`).pluck(),
      returnToRow: db.prepare(`UPDATE points_usage_ledger SET returned = returned + @amount
        WHERE user_id = @userId AND kind = @kind AND at = @at AND seq = @seq AND returned + @amount < amount`),
      returnWholeRow: db.prepare(`DELETE FROM points_usage_ledger
        WHERE user_id = @userId AND kind = @kind AND at = @at AND seq = @seq AND returned + @amount = amount`),
      addToBlock: db.prepare(`INSERT INTO points_usage_returns (user_id, kind, level, idx, amount) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (user_id, kind, level, idx) DO UPDATE SET amount = amount + excluded.amount`),
      headReturned: db.prepare('UPDATE points_usage_heads SET returned = returned + ? WHERE user_id = ? AND kind = ?'),
      firstSeq: db.prepare('SELECT seq FROM points_usage_ledger WHERE user_id = ? AND kind = ? ORDER BY at, seq LIMIT 1').pluck(),
      pruneBlocks: db.prepare(`DELETE FROM points_usage_returns WHERE user_id = @userId AND kind = @kind AND level = @level AND idx < @idx`),
      appendLedger: db.prepare('INSERT INTO points_usage_ledger (user_id, kind, at, seq, amount, cum) VALUES (?, ?, ?, ?, ?, ?)'),
      // The oldest rows up to the cutoff, about `batch` of them: up to the time of the row `batch`
      // places in (all of them when there are fewer). Rows sharing that millisecond go together.
      // The cutoff bounds the key range on its own, so the row `batch` places in is sought only
      // once a row is at or before it: a user with nothing to prune costs one seek, not a walk of
      // `batch` rows (most prunes).
      prune: db.prepare(`DELETE FROM points_usage_ledger WHERE user_id = @userId AND kind = @kind AND at <= @cutoff AND at <= coalesce(
        (SELECT at FROM points_usage_ledger WHERE user_id = @userId AND kind = @kind ORDER BY at, seq LIMIT 1 OFFSET @batch - 1), @cutoff)`),
      given: db.prepare('INSERT OR IGNORE INTO points_grants_given (user_id, source) VALUES (?, ?)'),
      // The live balances of a user other than one (the grant just inserted).
      // The user's other live balances (balanceIsLive), which a materialised grant is cut against.
      otherLiveTotal: db
        .prepare(`SELECT coalesce(sum(remaining), 0) FROM points_balances
        WHERE user_id = ? AND id <> ? AND remaining > 0 AND ended_at IS NULL AND (expires_at IS NULL OR expires_at > ?)`)
        .pluck(),
      trimBalance: db.prepare('UPDATE points_balances SET amount = ?, remaining = ? WHERE id = ?'),
      giveBack: db.prepare('UPDATE points_balances SET remaining = remaining + ? WHERE id = ? AND remaining + ? <= amount'),
      balanceLife: objectRows(db.prepare('SELECT expires_at AS expiresAt, ended_at AS endedAt FROM points_balances WHERE id = ?')),
      insertHistory:
        db.prepare(`INSERT INTO points_transactions (id, realm_id, user_id, kind, amount, description, allocations, related_id, created_at, event_pending)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      oldestHistory: db.prepare('SELECT created_at FROM points_transactions WHERE user_id = ? ORDER BY created_at, id LIMIT 1').pluck(),
      pruneHistory: db.prepare(`DELETE FROM points_transactions WHERE rowid IN (SELECT rowid FROM points_transactions
        WHERE user_id = ? AND created_at < ? AND event_pending IS NULL ORDER BY created_at, id LIMIT ?)`),
      pruneHolds: db.prepare(`DELETE FROM points_holds WHERE rowid IN (SELECT rowid FROM points_holds
        WHERE user_id = ? AND status <> 'open' AND closed_at < ? ORDER BY closed_at LIMIT ?)`),
      // In points_holds_open's order (expires_at); the few that share a millisecond are put in id
      // order by dueHoldsOf, so the statement sorts nothing (it ran a sorter on every consume, for none).
      dueHolds: objectRows(db.prepare(`SELECT * FROM points_holds WHERE user_id = ? AND status = 'open' AND expires_at <= ? ORDER BY expires_at`)),
      // The user's open holds (points_holds_open): counted up to a bound, all counted and added
      // up, the soonest to expire listed.
      openHoldCount: db.prepare(`SELECT count(*) FROM (SELECT 1 FROM points_holds WHERE user_id = ? AND status = 'open' AND expires_at > ? LIMIT ?)`).pluck(),
      openHoldTotals: objectRows(
        db.prepare(`SELECT count(*) AS count, coalesce(sum(amount), 0) AS held FROM points_holds
        WHERE user_id = ? AND status = 'open' AND expires_at > ?`),
      ),
      soonestHolds: objectRows(
        db.prepare(`SELECT id AS holdId, amount, expires_at AS expiresAt FROM points_holds
        WHERE user_id = ? AND status = 'open' AND expires_at > ? ORDER BY expires_at, id LIMIT ?`),
      ),
      closeHold: db.prepare(`UPDATE points_holds SET status = ?, settled_amount = ?, closed_at = ? WHERE id = ? AND status = 'open'`),
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

  /** The user's active subscriptions, read with userExists' check in one statement: null when the
   *  user does not exist (or is deleted). */
  liveUserSubscriptions(realmId: string, userId: string): ActiveSubscription[] | null {
    const rows = this.s.userSubs.all(realmId, userId) as Array<SubscriptionRow | { id: null }>;
    if (rows.length === 0) return null;
    const subscriptions: ActiveSubscription[] = [];
    for (const r of rows) if (r.id !== null) subscriptions.push(toSubscription(r));
    return subscriptions;
  }

  activeSubscriptions(userId: string): ActiveSubscription[] {
    return (this.s.activeSubs.all(userId) as SubscriptionRow[]).map(toSubscription);
  }

  /** Inserts a balance unless its source was granted already; true when inserted. */
  insertBalance(realmId: string, userId: string, g: BalanceGrant, now: number, id: string): boolean {
    return this.s.insertBalance.run(id, realmId, userId, g.kind, g.amount, g.amount, g.expiresAt, g.source, now).changes === 1;
  }

  /** A grant the service makes by itself, once per source whatever its form (materialise.ts): a
   *  balance is then cut to what keeps the user's live balances within MAX_POINTS (materialisedGrant)
   *  and written in the history. */
  insertDue(realmId: string, userId: string, g: DueGrant, now: number): void {
    if (this.s.given.run(userId, g.source).changes !== 1) return;
    if (g.form === 'nothing') return;
    if (g.form === 'window') {
      const id = this.insertWindowEntitlement(realmId, userId, g, now);
      const grant = { userId, grantId: id, creditKind: g.kind, source: g.source, amount: null, expiresAt: g.endsAt, windows: g.windows };
      recordWriter(this.db)(dueGrantEmitted(realmId, grant, now));
      return;
    }
    const id = newId('bal');
    if (!this.insertBalance(realmId, userId, g, now, id)) return;
    const { cutTo, given: amount } = materialisedGrant(this.s.otherLiveTotal.get(userId, id, now) as number, g.amount);
    if (cutTo !== null) this.s.trimBalance.run(cutTo, cutTo, id);
    if (amount !== null) {
      const lines = [{ creditKind: g.kind, sourceId: id, amount }];
      this.recordMovement(realmId, userId, { id, kind: 'grant', amount, description: grantDescription(g.source), lines, relatedId: null }, now);
      const grant = { userId, grantId: id, creditKind: g.kind, source: g.source, amount, expiresAt: g.expiresAt, windows: null };
      recordWriter(this.db)(dueGrantEmitted(realmId, grant, now));
    }
  }

  private insertWindowEntitlement(realmId: string, userId: string, g: WindowGrant, now: number): string {
    const id = newId('ent');
    this.s.insertEntitlement.run(id, realmId, userId, g.kind, JSON.stringify(g.windows), g.startsAt, g.endsAt, g.source, now);
    return id;
  }

  /** Everything due to the user by `now`: the grants (materialise.ts), each source at most once,
   *  and the release of every hold whose expiresAt has come (holds.ts), recorded at that time. */
  materialise(realmId: string, userId: string, now: number, subscriptions: ActiveSubscription[] = this.activeSubscriptions(userId)): void {
    for (const g of dueGrants(this.config(realmId), subscriptions, now)) this.insertDue(realmId, userId, g, now);
    for (const row of dueHoldsOf(this.s.dueHolds.all(userId, now) as HoldRow[])) {
      const h = toHold(row);
      if (!isDue(h, now)) continue;
      this.giveBack(userId, releaseAll(h));
      this.closeHold(h.holdId, 'expired', null, h.expiresAt);
      this.recordMovement(
        realmId,
        userId,
        { id: newId('ptx'), kind: 'expire', amount: h.amount, description: null, lines: h.lines, relatedId: h.holdId },
        h.expiresAt,
      );
      recordWriter(this.db)(holdExpiredEmitted(realmId, h, now));
    }
  }

  closeHold(holdId: string, status: HoldStatus, settledAmount: number | null, at: number): void {
    if (this.s.closeHold.run(status, settledAmount, at, holdId).changes !== 1) {
      throw new GatehouseError('internal_error', 'Internal error', { cause: new Error(`hold ${holdId} changed under a write lock`) });
    }
  }

  /** The user's open holds at `now` (due ones are expired by materialise first): counted, added
   *  up, and the soonest to expire. */
  openHolds(userId: string, now: number): OpenHolds {
    const totals = this.s.openHoldTotals.get(userId, now) as { count: number; held: number };
    return { ...totals, soonest: this.s.soonestHolds.all(userId, now, HOLD_LIMITS.listed) as OpenHold[] };
  }

  /** How many holds the user has open at `now`, counted up to HOLD_LIMITS.openPerUser. */
  openHoldCount(userId: string, now: number): number {
    return this.s.openHoldCount.get(userId, now, HOLD_LIMITS.openPerUser) as number;
  }

  /** Writes one movement to the history, marked when its points.consumed event is owed (the
   *  outbox keeps it so: migration 021); one in `historyRetention.every` (by the random end of its
   *  id) also drops movements older than the history keeps, more of them than come in, but none
   *  whose event is still to be handed out. */
  recordMovement(realmId: string, userId: string, m: Movement, now: number, eventPending = false): void {
    this.s.insertHistory.run(m.id, realmId, userId, m.kind, m.amount, m.description, JSON.stringify(storedLines(m)), m.relatedId, now, eventPending ? 1 : null);
    if (!prunesHistory(m.id)) return;
    const cutoff = historyCutoff(now);
    const oldest = this.s.oldestHistory.get(userId) as number | undefined;
    if (oldest !== undefined && !keptInHistory(oldest, now)) {
      this.s.pruneHistory.run(userId, cutoff, historyRetention.batch);
      this.s.pruneHolds.run(userId, cutoff, historyRetention.batch);
    }
  }

  /** Points going back to their sources: quota to the ledger row it was drawn at (and the block
   *  sums holding it), a balance's to the balance. */
  giveBack(userId: string, returns: readonly LineReturn[]): void {
    const { rows, balances } = returnTargets(returns);
    for (const r of balances) this.s.giveBack.run(r.amount, r.line.sourceId, r.amount);
    for (const r of rows) {
      const l = r.line;
      const row = { userId, kind: l.creditKind, at: l.at, seq: l.seq, amount: r.amount };
      // A row given back whole goes: every row a window reads then still counts (its times too);
      // its amount stays in the running totals and, returned, in the block sums, which cancel.
      if (this.s.returnToRow.run(row).changes !== 1 && this.s.returnWholeRow.run(row).changes !== 1) continue; // pruned: outside every window
      for (const b of returnBlocks(l.seq)) this.s.addToBlock.run(userId, l.creditKind, b.level, b.idx, r.amount);
      this.s.headReturned.run(r.amount, userId, l.creditKind);
    }
  }

  /** Whether a balance can take points back now: it has neither expired nor ended. */
  /** When a balance ends taking points (refund.ts `returnable` decides with it); undefined when gone. */
  balanceLife(balanceId: string): BalanceLife | undefined {
    return this.s.balanceLife.get(balanceId) as BalanceLife | undefined;
  }

  /** The user's live state (state.ts). `withTimes: false` (consume, grant) skips the seek that only
   *  the windows' recovery times need: `quota` and `balances` are exact either way. */
  state(userId: string, now: number, withTimes = true): UserPointsState {
    const rows = this.s.liveEntitlements.all(userId, now, now) as EntitlementRow[];
    const ents: WindowEntitlement[] = rows.map((r) => ({
      id: r.id,
      kind: r.kind as QuotaKind,
      windows: parsedJson<QuotaWindow[]>(r.windows),
      startsAt: r.starts_at,
      endsAt: r.ends_at,
    }));
    const bindings = quotaBindings(ents, now);
    const heads = bindings.map((b) => headOf(rows, b.kind));
    const usage = bindings.map((b, i) => {
      const binding: BindingSeeks = { starts: b.windows.map((w) => windowStart(now, w.windowSeconds)), first: null };
      return b.windows.map((_, index) => this.usage(userId, b.kind, heads[i], binding, index, withTimes));
    });
    return userState(bindings, heads, usage, this.s.liveBalances.all(userId, now) as Balance[]);
  }

  /** One window's usage from the ledger (ledger.ts windowFacts says which reads it takes): one index
   *  seek (made for every window of the kind at once), whatever the history length, plus, once quota
   *  has gone back to the kind, one sum over a few block ranges and, with the times, the newest row. */
  private usage(userId: string, kind: QuotaKind, head: LedgerHead | undefined, binding: BindingSeeks, index: number, withTimes: boolean): WindowUsageFacts {
    const q = { userId, kind, headSeq: head?.seq ?? 0, binding, index };
    return windowFacts(head, withTimes, this.windowReads, q);
  }

  /** The first row after the start of each of a kind's windows, in one statement (a UNION ALL of
   *  the one-window seek, one per window, each numbered). */
  private seekFirst(q: WindowQuery): Array<LedgerRow | undefined> {
    const starts = q.binding.starts;
    if (starts.length === 1) return [this.s.firstAfter.get(q.userId, q.kind, starts[0]) as LedgerRow | undefined];
    let statement = this.firstSeeks.get(starts.length);
    if (statement === undefined) this.firstSeeks.set(starts.length, (statement = objectRows(this.db.prepare(firstSeeksSql(starts.length)))));
    const args: Array<string | number> = [];
    for (const start of starts) args.push(q.userId, q.kind, start);
    const rows: Array<LedgerRow | undefined> = new Array(starts.length).fill(undefined);
    for (const r of statement.all(...args) as Array<LedgerRow & { place: number }>) rows[r.place] = r;
    return rows;
  }

  /** firstSeeksSql's statements, by number of windows. */
  private readonly firstSeeks = new Map<number, RowStatement>();

  /** The ledger reads windowFacts asks for, made once (a window's are its query's). */
  private readonly windowReads: WindowReads<WindowQuery> = {
    first: (q) => (q.binding.first ??= this.seekFirst(q))[q.index],
    returnedAfter: (q, seq) => this.returnedAfter(q.userId, q.kind, seq, q.headSeq),
    newestAt: (q) => (this.s.lastRow.get(q.userId, q.kind) as number | undefined) ?? null,
  };

  /** Everything returned to the kind's rows after seq `s` (ledger.ts returnRanges), in one statement. */
  private returnedAfter(userId: string, kind: QuotaKind, s: number, headSeq: number): number {
    const args: Array<string | number> = [];
    const ranges = returnRanges(s, headSeq);
    for (let level = 0; level <= RETURN_LEVELS; level++) {
      const r = ranges.find((x) => x.level === level);
      args.push(userId, kind, r ? r.from : 1, r ? r.to : 0);
    }
    return this.s.returnedIn.get(...args) as number;
  }

  /** Runs a consume's ledger appends and balance spends (apply-plan.ts). */
  applyConsume(userId: string, w: ConsumeWrites): void {
    for (const l of w.ledger) {
      if (l.createsHead) this.s.createHead.run(userId, l.kind);
      this.s.appendLedger.run(userId, l.kind, l.at, l.seq, l.amount, l.cum);
      this.s.updateHead.run(l.seq, l.cum, l.at, userId, l.kind);
      if (l.prune && this.s.prune.run({ userId, kind: l.kind, cutoff: l.prune.cutoff, batch: l.prune.batch }).changes > 0) this.pruneReturns(userId, l.kind);
    }
    for (const s of w.spends) this.spend(s.sourceId, s.amount);
  }

  /** Block sums wholly before the oldest row kept can no longer be asked for. */
  private pruneReturns(userId: string, kind: QuotaKind): void {
    const first = this.s.firstSeq.get(userId, kind) as number | undefined;
    if (first === undefined) return;
    const keep = prunableReturnBlocks(first);
    for (let level = 0; level < keep.length; level++) this.s.pruneBlocks.run({ userId, kind, level, idx: keep[level] });
  }

  private spend(balanceId: string, amount: number): void {
    // The plan was made from balances read under this transaction's write lock: a draw that no
    // longer fits means the storage broke that guarantee, not a rule of the user's points.
    if (this.s.spend.run(amount, balanceId, amount).changes !== 1) brokenLock(`balance ${balanceId}`);
  }
}

/** A row of activeSubs or userSubs. */
interface SubscriptionRow {
  id: string;
  terms: string;
  started_at: number;
}

const toSubscription = (r: SubscriptionRow): ActiveSubscription => ({ id: r.id, terms: parsedJson<SubscriptionTerms>(r.terms), startedAt: r.started_at });

/** The ledger head of `kind` as liveEntitlements joined it to the kind's rows (a bound kind has one). */
function headOf(rows: EntitlementRow[], kind: QuotaKind): LedgerHead | undefined {
  const r = rows.find((x) => x.kind === kind);
  return r === undefined || r.seq === null ? undefined : { seq: r.seq, cum: r.cum, lastAt: r.lastAt, returned: r.returned };
}

/** Due holds by expiry, then id (rows come by expiry alone). */
function dueHoldsOf(rows: HoldRow[]): HoldRow[] {
  if (rows.length > 1) rows.sort((a, b) => a.expires_at - b.expires_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return rows;
}

function brokenLock(what: string): never {
  throw new GatehouseError('internal_error', 'Internal error', { cause: new Error(`${what} changed under a write lock`) });
}

/** The first row of a kind's ledger after a time (parameters: user, kind, time). */
const FIRST_AFTER_SQL = `SELECT at, seq, cum, amount FROM points_usage_ledger WHERE user_id = ? AND kind = ? AND at > ?
  ORDER BY at, seq LIMIT 1`;

/** The first row after each of `windows` starts (FIRST_AFTER_SQL), UNION ALL-ed and numbered from 0
 *  (parameters: user, kind, start per window). */
function firstSeeksSql(windows: number): string {
  const parts: string[] = [];
  for (let place = 0; place < windows; place++) parts.push(`SELECT ${place} AS place, at, seq, cum, amount FROM (${FIRST_AFTER_SQL})`);
  return parts.join(' UNION ALL ');
}

/** The blocks of one idx range per level, UNION ALL-ed (parameters: user, kind, from, to per level). */
function levelRanges(): string {
  const parts: string[] = [];
  for (let level = 0; level <= RETURN_LEVELS; level++)
    parts.push(`SELECT amount FROM points_usage_returns WHERE user_id = ? AND kind = ? AND level = ${level} AND idx BETWEEN ? AND ?`);
  return parts.join(' UNION ALL ');
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
