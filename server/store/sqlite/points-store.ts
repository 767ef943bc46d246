// SQLite implementation of PointsStore: each use case is one all-or-nothing unit of a BEGIN
// IMMEDIATE transaction (immediate(), open.ts; the units of one turn share it, group-commit.ts), so a
// read-plan-write never interleaves with another writer (no double spend, docs/points.md). Each reads
// what the points domain needs, asks it, and writes what it decided; a throw rolls the use case
// back, materialised grants included.

import { type Cache, createCache } from '../../lib/cache.ts';
import {
  type AlertConfig,
  type AlertState,
  type AlertsAfter,
  alertEmitted,
  alertsOn,
  decideAlerts,
  type PointsView,
  pointsView,
  type StoredAlertConfig,
  stateChanged,
  viewAfter,
} from '../../points/alerts.ts';
import { consumeWrites } from '../../points/apply-plan.ts';
import { type ChargeLine, publicLines } from '../../points/charges.ts';
import { planConsume } from '../../points/consume.ts';
import { mergeDefaultConfig } from '../../points/default-config.ts';
import { alertsUpdatedEmitted, apiGrantEmitted, type Caller, CONSUMED_EVENT, configUpdatedEmitted, refundedEmitted } from '../../points/events.ts';
import { grantWrites } from '../../points/grant.ts';
import { historyCutoff } from '../../points/history.ts';
import { assertHoldRoom, assertOpen, holdResult, openHold, releaseAll, type StoredHold, settleDecision } from '../../points/holds.ts';
import { replayOf } from '../../points/idempotency.ts';
import { registrationGrants } from '../../points/materialise.ts';
import type {
  ConsumeResult,
  DefaultPointsConfig,
  GrantResult,
  HistoryPage,
  HoldResult,
  PointsSummary,
  RefundResult,
  SettleResult,
} from '../../points/model.ts';
import { assertHold, assertTransaction, assertUser } from '../../points/not-found.ts';
import { longestWindows, planRefund, returnable } from '../../points/refund.ts';
import type { UserPointsState } from '../../points/state.ts';
import type {
  ConsumeCommand,
  DefaultConfigPatch,
  GrantCommand,
  HistoryQuery,
  HoldCommand,
  PointsStore,
  RefundCommand,
  ReleaseCommand,
  SettleCommand,
  StoredBalance,
  StoredConsume,
} from '../../points/store.ts';
import { remainingOf, summarise } from '../../points/summary.ts';
import {
  ALERT_SQL,
  type AlertRow,
  alertStateValues,
  type BalanceRow,
  type HistoryRow,
  type HoldRow,
  historyPage,
  POINTS_IDEM_SQL,
  pageStart,
  type TransactionRow,
  toAlertConfig,
  toAlertState,
  toHold,
  toStoredBalance,
  toTransaction,
} from '../points-rows.ts';
import { positional } from '../row-values.ts';
import { type Db, immediate, immediateForgetting } from './open.ts';
import { otherCommitsSignal } from './other-commits.ts';
import { type PointsSql, pointsSql } from './points-sql.ts';
import { eventsOwed, type RecordWriter, recordWriter } from './records.ts';
import { objectRows } from './rows.ts';

/** A page of the history starts strictly after its cursor: one index range (row values), of every
 *  kind (points_transactions_user) or of one (points_transactions_user_kind). */
const pageSql = (byKind: boolean) => `SELECT id, kind, amount, description, allocations, related_id AS relatedId, created_at AS createdAt
  FROM points_transactions WHERE user_id = @userId${byKind ? ' AND kind = @kind' : ''} AND (created_at, id) < (@at, @id) AND created_at >= @cutoff
  ORDER BY created_at DESC, id DESC LIMIT @limit`;
export const HISTORY_PAGE_SQL = { page: pageSql(false), pageOfKind: pageSql(true) };

interface StoredAnswer {
  requestHash: string;
  response: string;
}

/** What a transaction's alerts are decided from, read before its writes (alerts.ts). */
interface AlertWatch {
  config: StoredAlertConfig;
  state: AlertState;
  /** The user's points before the writes. */
  points: UserPointsState;
  before: PointsView;
}

export class SqlitePointsStore implements PointsStore {
  private readonly p: PointsSql;
  private readonly s;
  private readonly records: RecordWriter;
  /** Realms whose alerts were all off when last read (PRAGMA data_version drops it when another
   *  process writes, putAlerts around its own write: lib/cache.ts). */
  private readonly alertsOff: Cache<true>;
  /** Per user of a realm with alerts on, what watch() last read or alert() last wrote: the realm's
   *  configuration and the user's alert state. Exact inside a transaction (other-commits.ts: other
   *  writers' commits are noticed at each BEGIN, and a rollback drops it); putAlerts drops it
   *  around its own write. */
  private readonly alertsOf: Cache<{ realmId: string; config: StoredAlertConfig; state: AlertState }>;

  constructor(private readonly db: Db) {
    this.p = pointsSql(db);
    this.records = recordWriter(db);
    this.alertsOff = createCache<true>({ max: 1024, invalidation: otherCommitsSignal(db) });
    this.alertsOf = createCache({ max: 4096, invalidation: otherCommitsSignal(db) });
    this.s = {
      alerts: objectRows(db.prepare(positional(ALERT_SQL.read))),
      pruneIdempotency: db.prepare(`DELETE FROM points_idempotency WHERE (realm_id, scope, key) IN
        (SELECT realm_id, scope, key FROM points_idempotency WHERE created_at < ? LIMIT ?)`),
      saveAlertState: db.prepare(positional(ALERT_SQL.saveState)),
      saveAlertConfig: db.prepare(positional(ALERT_SQL.saveConfig)),
      upsertConfig: db.prepare(`INSERT INTO points_default_config (realm_id, registration_bonus_points, free_periodic_points_amount,
          free_periodic_grant_period_type, free_periodic_validity_days, free_periodic_quota_windows, updated_at)
        VALUES (@realmId, @registrationBonusPoints, @freePeriodicPointsAmount, @freePeriodicGrantPeriodType, @freePeriodicValidityDays, @windows, @updatedAt)
        ON CONFLICT (realm_id) DO UPDATE SET registration_bonus_points = excluded.registration_bonus_points,
          free_periodic_points_amount = excluded.free_periodic_points_amount, free_periodic_grant_period_type = excluded.free_periodic_grant_period_type,
          free_periodic_validity_days = excluded.free_periodic_validity_days, free_periodic_quota_windows = excluded.free_periodic_quota_windows,
          updated_at = excluded.updated_at`),
      idem: objectRows(db.prepare(positional(POINTS_IDEM_SQL))),
      saveIdem: db.prepare('INSERT INTO points_idempotency (realm_id, scope, key, request_hash, response, created_at, user_id) VALUES (?, ?, ?, ?, ?, ?, ?)'),
      insertHold: db.prepare(`INSERT INTO points_holds (id, realm_id, user_id, amount, lines, status, description, created_at, expires_at)
        VALUES (?, ?, ?, ?, ?, 'open', ?, ?, ?)`),
      hold: objectRows(db.prepare('SELECT * FROM points_holds WHERE realm_id = ? AND id = ?')),
      refundable: objectRows(
        db.prepare(`SELECT id, user_id AS userId, amount, refunded, allocations FROM points_transactions
        WHERE realm_id = ? AND id = ? AND kind IN ('consume', 'settle') AND created_at >= ?`),
      ),
      markRefunded: db.prepare('UPDATE points_transactions SET refunded = ?, allocations = ? WHERE id = ?'),
      page: objectRows(db.prepare(HISTORY_PAGE_SQL.page)),
      pageOfKind: objectRows(db.prepare(HISTORY_PAGE_SQL.pageOfKind)),
      balances: objectRows(
        db.prepare(`SELECT id, kind, amount, remaining, expires_at, ended_at, created_at FROM points_balances
        WHERE realm_id = ? AND user_id = ? ORDER BY created_at, id`),
      ),
      transactions: objectRows(
        db.prepare(`SELECT id, user_id, amount, description, allocations, created_at FROM points_transactions
        WHERE realm_id = ? AND user_id = ? AND kind = 'consume' ORDER BY created_at, id`),
      ),
    };
  }

  async realmExists(realmId: string): Promise<boolean> {
    return this.p.realmExists(realmId);
  }

  async getDefaultConfig(realmId: string): Promise<DefaultPointsConfig> {
    return this.p.config(realmId);
  }

  async putDefaultConfig(realmId: string, patch: DefaultConfigPatch, now: number, caller: Caller | null = null): Promise<DefaultPointsConfig> {
    return immediateForgetting(
      this.db,
      () => this.p.forgetConfigs(),
      () => {
        const before = this.p.config(realmId);
        const next = mergeDefaultConfig(before, patch, now);
        this.s.upsertConfig.run({ ...next, windows: next.freePeriodicQuotaWindows === null ? null : JSON.stringify(next.freePeriodicQuotaWindows) });
        this.records(configUpdatedEmitted(before, next, caller, now));
        return next;
      },
    );
  }

  async grantRegistration(realmId: string, userId: string, now: number): Promise<void> {
    await immediate(this.db, () => {
      for (const g of registrationGrants(this.p.config(realmId), now)) this.p.insertDue(realmId, userId, g, now);
    });
  }

  /** The first answer stored under the key, or null (idempotency.ts decides; throws on conflict). */
  private replay<T>(realmId: string, scope: string, key: string | null, requestHash: string): T | null {
    const stored = key === null ? undefined : (this.s.idem.get(realmId, scope, key) as StoredAnswer | undefined);
    const prior = replayOf(key, stored, requestHash);
    return prior && (JSON.parse(prior.response) as T);
  }

  /** Kept under the user it answered for: the user's deletion deletes it. */
  private saveAnswer(realmId: string, scope: string, key: string | null, requestHash: string, answer: { userId: string }, now: number): void {
    if (key !== null) this.s.saveIdem.run(realmId, scope, key, requestHash, JSON.stringify(answer), now, answer.userId);
  }

  /** The alerts to decide after this transaction's writes, from the state `st` it started from;
   *  null (nothing read afterwards) when the realm has none on. */
  private watch(realmId: string, userId: string, st: UserPointsState): AlertWatch | null {
    // A realm known to have every alert off reads nothing (most realms, on every consume).
    if (this.alertsOff.get(realmId)) return null;
    let known = this.alertsOf.get(userId);
    if (known?.realmId !== realmId) {
      const row = this.s.alerts.get(realmId, userId) as AlertRow | undefined;
      known = { realmId, config: toAlertConfig(row, realmId), state: toAlertState(row) };
      if (!alertsOn(known.config)) {
        this.alertsOff.set(realmId, true);
        return null;
      }
      this.alertsOf.set(userId, known);
    }
    return { config: known.config, state: known.state, points: st, before: pointsView(st) };
  }

  /** Decides the watched alerts from the state after the writes (none for a recovery check), and
   *  writes what was decided. A consume's is computed, read only when it lacks a time the alerts
   *  need (a window it exhausted). */
  private alert(realmId: string, userId: string, watch: AlertWatch | null, now: number, after: AlertsAfter = 'read'): void {
    if (watch === null) return;
    const v = viewAfter(watch.points, watch.before, after);
    const view = v === 'read' ? pointsView(this.p.state(userId, now)) : v;
    const d = decideAlerts(watch.config, watch.state, userId, watch.before, view, now);
    if (stateChanged(watch.state, d)) {
      this.s.saveAlertState.run(...alertStateValues(userId, realmId, d.state));
      this.alertsOf.set(userId, { realmId, config: watch.config, state: d.state });
    }
    this.records(alertEmitted(realmId, userId, d, now));
  }

  async pruneIdempotency(before: number, limit: number): Promise<number> {
    return immediate(this.db, () => this.s.pruneIdempotency.run(before, limit).changes);
  }

  async getAlerts(realmId: string): Promise<StoredAlertConfig> {
    return toAlertConfig(this.s.alerts.get(realmId, '') as AlertRow | undefined, realmId);
  }

  async putAlerts(realmId: string, config: AlertConfig, now: number, caller: Caller | null = null): Promise<StoredAlertConfig> {
    return immediateForgetting(
      this.db,
      () => {
        this.alertsOff.clear();
        this.alertsOf.clear();
      },
      () => {
        const before = toAlertConfig(this.s.alerts.get(realmId, '') as AlertRow | undefined, realmId);
        this.s.saveAlertConfig.run(realmId, JSON.stringify(config.lowBalanceThresholds), config.quotaExhausted ? 1 : 0, config.quotaRecovered ? 1 : 0, now);
        const after = { realmId, ...config, updatedAt: now };
        this.records(alertsUpdatedEmitted(before, after, caller, now));
        return after;
      },
    );
  }

  async checkAlerts(realmId: string, userId: string, now: number): Promise<void> {
    await immediate(this.db, () => {
      if (!this.p.userExists(realmId, userId)) return;
      this.p.materialise(realmId, userId, now);
      const st = this.p.state(userId, now);
      this.alert(realmId, userId, this.watch(realmId, userId, st), now, 'check');
    });
  }

  /** Throws not_found unless the user exists (not deleted), then materialises what is due to it:
   *  the check and its subscriptions in one read. */
  private liveUser(realmId: string, userId: string, now: number): void {
    const subscriptions = this.p.liveUserSubscriptions(realmId, userId);
    assertUser(subscriptions !== null, realmId, userId);
    this.p.materialise(realmId, userId, now, subscriptions!);
  }

  async consume(cmd: ConsumeCommand, now: number): Promise<ConsumeResult> {
    return immediate(this.db, () => this.consumeIn(cmd, now));
  }

  private consumeIn(cmd: ConsumeCommand, now: number): ConsumeResult {
    const prior = this.replay<ConsumeResult>(cmd.realmId, 'consume', cmd.idempotencyKey, cmd.requestHash);
    if (prior) return prior;
    this.liveUser(cmd.realmId, cmd.userId, now);
    const st = this.p.state(cmd.userId, now, false);
    const watch = this.watch(cmd.realmId, cmd.userId, st);
    const w = consumeWrites(cmd, st, planConsume(cmd.amount, st.quota, st.balances, now), now);
    this.p.applyConsume(cmd.userId, w);
    this.alert(cmd.realmId, cmd.userId, watch, now, w);
    const r = w.result;
    this.p.recordMovement(
      cmd.realmId,
      r.userId,
      { id: r.transactionId, kind: 'consume', amount: r.amount, description: cmd.description, lines: w.lines, relatedId: null },
      now,
      // Its event (consumedEmitted) kept as a mark on the movement, where an endpoint is owed it.
      eventsOwed(this.db, cmd.realmId, CONSUMED_EVENT),
    );
    this.saveAnswer(cmd.realmId, 'consume', cmd.idempotencyKey, cmd.requestHash, r, now);
    return r;
  }

  async grant(cmd: GrantCommand, now: number): Promise<GrantResult> {
    return immediate(this.db, () => {
      const prior = this.replay<GrantResult>(cmd.realmId, 'grant', cmd.idempotencyKey, cmd.requestHash);
      if (prior) return prior;
      // Read and written in this one transaction: two concurrent grants cannot both fit.
      this.liveUser(cmd.realmId, cmd.userId, now);
      const st = this.p.state(cmd.userId, now, false);
      const watch = this.watch(cmd.realmId, cmd.userId, st);
      const w = grantWrites(cmd, st, now);
      this.p.insertBalance(cmd.realmId, cmd.userId, w.balance, now, cmd.grantId);
      this.alert(cmd.realmId, cmd.userId, watch, now);
      const lines = [{ creditKind: cmd.kind, sourceId: cmd.grantId, amount: cmd.amount }];
      this.p.recordMovement(cmd.realmId, cmd.userId, { id: cmd.grantId, kind: 'grant', amount: cmd.amount, description: null, lines, relatedId: null }, now);
      this.records(apiGrantEmitted(cmd.realmId, w.result, cmd.caller ?? null, now));
      this.saveAnswer(cmd.realmId, 'grant', cmd.idempotencyKey, cmd.requestHash, w.result, now);
      return w.result;
    });
  }

  async summary(realmId: string, userId: string, now: number): Promise<PointsSummary> {
    return immediate(this.db, () => {
      this.liveUser(realmId, userId, now);
      return summarise(userId, this.p.state(userId, now), this.p.openHolds(userId, now));
    });
  }

  async hold(cmd: HoldCommand, now: number): Promise<HoldResult> {
    return immediate(this.db, () => {
      const prior = this.replay<HoldResult>(cmd.realmId, 'hold', cmd.idempotencyKey, cmd.requestHash);
      if (prior) return prior;
      this.liveUser(cmd.realmId, cmd.userId, now);
      assertHoldRoom(this.p.openHoldCount(cmd.userId, now));
      const st = this.p.state(cmd.userId, now, false);
      const watch = this.watch(cmd.realmId, cmd.userId, st);
      const w = consumeWrites({ ...cmd, transactionId: cmd.holdId }, st, planConsume(cmd.amount, st.quota, st.balances, now), now);
      this.p.applyConsume(cmd.userId, w);
      this.alert(cmd.realmId, cmd.userId, watch, now, w);
      const h = openHold(cmd, w.lines, now);
      this.s.insertHold.run(h.holdId, h.realmId, h.userId, h.amount, JSON.stringify(h.lines), h.description, h.createdAt, h.expiresAt);
      this.p.recordMovement(
        cmd.realmId,
        cmd.userId,
        { id: h.holdId, kind: 'hold', amount: h.amount, description: h.description, lines: h.lines, relatedId: null },
        now,
      );
      const r = holdResult(h, w.result.remaining, now);
      this.saveAnswer(cmd.realmId, 'hold', cmd.idempotencyKey, cmd.requestHash, r, now);
      return r;
    });
  }

  /** The hold, after the user's due holds have expired; throws not_found. */
  private loadHold(realmId: string, holdId: string, now: number): StoredHold {
    const found = this.s.hold.get(realmId, holdId) as HoldRow | undefined;
    // A deleted account's closed holds stay until its purge reaches them: not found all the same.
    assertHold(found !== undefined && this.p.userExists(realmId, found.user_id), realmId, holdId);
    this.p.materialise(realmId, found!.user_id, now);
    return toHold(this.s.hold.get(realmId, holdId) as HoldRow);
  }

  async settle(cmd: SettleCommand, now: number): Promise<SettleResult> {
    return immediate(this.db, () => {
      const prior = this.replay<SettleResult>(cmd.realmId, 'settle', cmd.idempotencyKey, cmd.requestHash);
      if (prior) return prior;
      const h = this.loadHold(cmd.realmId, cmd.holdId, now);
      assertOpen(h, now);
      const d = settleDecision(h, cmd.amount, cmd.description);
      let lines: ChargeLine[] = d.kept;
      const st = this.p.state(h.userId, now, false);
      const watch = this.watch(cmd.realmId, h.userId, st);
      if (d.extra > 0) {
        const w = consumeWrites(
          { transactionId: cmd.transactionId, userId: h.userId, amount: d.extra, description: cmd.description },
          st,
          planConsume(d.extra, st.quota, st.balances, now),
          now,
        );
        this.p.applyConsume(h.userId, w);
        lines = [...lines, ...w.lines];
      }
      this.p.giveBack(h.userId, d.returns);
      this.p.closeHold(h.holdId, 'settled', cmd.amount, now);
      this.alert(cmd.realmId, h.userId, watch, now);
      this.p.recordMovement(
        cmd.realmId,
        h.userId,
        { id: cmd.transactionId, kind: 'settle', amount: cmd.amount, description: d.description, lines, relatedId: h.holdId },
        now,
        eventsOwed(this.db, cmd.realmId, CONSUMED_EVENT),
      );
      const r: SettleResult = {
        transactionId: cmd.transactionId,
        holdId: h.holdId,
        userId: h.userId,
        amount: cmd.amount,
        allocations: publicLines(lines),
        remaining: remainingOf(this.p.state(h.userId, now, false)),
        createdAt: now,
      };
      this.saveAnswer(cmd.realmId, 'settle', cmd.idempotencyKey, cmd.requestHash, r, now);
      return r;
    });
  }

  async release(cmd: ReleaseCommand, now: number): Promise<HoldResult> {
    return immediate(this.db, () => {
      const prior = this.replay<HoldResult>(cmd.realmId, 'release', cmd.idempotencyKey, cmd.requestHash);
      if (prior) return prior;
      const h = this.loadHold(cmd.realmId, cmd.holdId, now);
      assertOpen(h, now);
      const watch = this.watch(cmd.realmId, h.userId, this.p.state(h.userId, now, false));
      this.p.giveBack(h.userId, releaseAll(h));
      this.p.closeHold(h.holdId, 'released', null, now);
      this.alert(cmd.realmId, h.userId, watch, now);
      this.p.recordMovement(
        cmd.realmId,
        h.userId,
        { id: cmd.transactionId, kind: 'release', amount: h.amount, description: null, lines: h.lines, relatedId: h.holdId },
        now,
      );
      const r = holdResult({ ...h, status: 'released', closedAt: now }, remainingOf(this.p.state(h.userId, now, false)), now);
      this.saveAnswer(cmd.realmId, 'release', cmd.idempotencyKey, cmd.requestHash, r, now);
      return r;
    });
  }

  async getHold(realmId: string, holdId: string, now: number): Promise<HoldResult> {
    return immediate(this.db, () => {
      const h = this.loadHold(realmId, holdId, now);
      return holdResult(h, remainingOf(this.p.state(h.userId, now, false)), now);
    });
  }

  async refund(cmd: RefundCommand, now: number): Promise<RefundResult> {
    return immediate(this.db, () => {
      const prior = this.replay<RefundResult>(cmd.realmId, 'refund', cmd.idempotencyKey, cmd.requestHash);
      if (prior) return prior;
      type Row = { id: string; userId: string; amount: number; refunded: number; allocations: string };
      const row = this.s.refundable.get(cmd.realmId, cmd.transactionId, historyCutoff(now)) as Row | undefined;
      // A deleted account's history stays until its purge reaches it: not found all the same.
      assertTransaction(row !== undefined && this.p.userExists(cmd.realmId, row.userId), cmd.realmId, cmd.transactionId);
      const tx = {
        transactionId: row!.id,
        userId: row!.userId,
        amount: row!.amount,
        refunded: row!.refunded,
        lines: JSON.parse(row!.allocations) as ChargeLine[],
      };
      this.p.materialise(cmd.realmId, tx.userId, now);
      const before = this.p.state(tx.userId, now, false);
      const watch = this.watch(cmd.realmId, tx.userId, before);
      const longest = longestWindows(before);
      const d = planRefund(
        tx,
        cmd.amount,
        returnable(longest, (id) => this.p.balanceLife(id), now),
      );
      this.p.giveBack(tx.userId, d.returns);
      this.s.markRefunded.run(tx.refunded + d.amount, JSON.stringify(d.lines), tx.transactionId);
      this.alert(cmd.realmId, tx.userId, watch, now);
      const back = d.shares.filter((l) => l.returned > 0).map((l) => ({ creditKind: l.creditKind, sourceId: l.sourceId, amount: l.returned }));
      this.p.recordMovement(
        cmd.realmId,
        tx.userId,
        { id: cmd.refundId, kind: 'refund', amount: d.refunded, description: cmd.reason, lines: back, relatedId: tx.transactionId },
        now,
      );
      const r: RefundResult = {
        refundId: cmd.refundId,
        transactionId: tx.transactionId,
        userId: tx.userId,
        amount: d.amount,
        refunded: d.refunded,
        allocations: d.shares,
        remaining: remainingOf(this.p.state(tx.userId, now, false)),
        createdAt: now,
      };
      this.records(refundedEmitted(cmd.realmId, r, cmd.caller ?? null, now));
      this.saveAnswer(cmd.realmId, 'refund', cmd.idempotencyKey, cmd.requestHash, r, now);
      return r;
    });
  }

  async history(q: HistoryQuery, now: number): Promise<HistoryPage> {
    return immediate(this.db, () => {
      this.liveUser(q.realmId, q.userId, now);
      // Movements past the history's keeping read as gone whether or not a prune has run yet.
      const params = { userId: q.userId, ...pageStart(q), cutoff: historyCutoff(now) };
      const rows = (q.kind === null ? this.s.page.all(params) : this.s.pageOfKind.all({ ...params, kind: q.kind })) as HistoryRow[];
      return historyPage(rows, q.pageSize);
    });
  }

  async listBalances(realmId: string, userId: string): Promise<StoredBalance[]> {
    return (this.s.balances.all(realmId, userId) as BalanceRow[]).map(toStoredBalance);
  }

  async listTransactions(realmId: string, userId: string): Promise<StoredConsume[]> {
    return (this.s.transactions.all(realmId, userId) as TransactionRow[]).map(toTransaction);
  }
}
