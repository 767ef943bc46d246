// PostgreSQL implementation of PointsStore. Each use case on a user's points is one transaction
// holding the user's row lock (points-sql.ts), so the consumes, holds, settlements, refunds and
// grants of one user are serial on every replica: no double spend. A consume or a hold costs two
// round trips once the user's grants of the period are materialised: BEGIN, the lock and the reads
// together; the writes (one statement; a hold adds its row) and COMMIT together. A settlement,
// release or refund locks the user of its hold or transaction (known to the process that made it,
// else read first, one more round trip) and reads the hold or transaction with the rest; its answer
// says what the user has once its writes are done, read behind them in COMMIT's round trip (when
// the answer is kept under an idempotency key, it is read before COMMIT: one more). Replays,
// refusals and conflicts follow the points domain as in the SQLite store.
import { NOTHING_EMITTED } from '../../events/plan.ts';
import {
  type AlertConfig,
  type AlertsAfter,
  alertEmitted,
  alertsOn,
  decideAlerts,
  pointsView,
  type StoredAlertConfig,
  stateChanged,
  viewAfter,
} from '../../points/alerts.ts';
import { consumeWrites } from '../../points/apply-plan.ts';
import { type ChargeLine, publicLines } from '../../points/charges.ts';
import { planConsume } from '../../points/consume.ts';
import { mergeDefaultConfig } from '../../points/default-config.ts';
import {
  alertsUpdatedEmitted,
  apiGrantEmitted,
  type Caller,
  CONSUMED_EVENT,
  configUpdatedEmitted,
  consumedEmitted,
  refundedEmitted,
} from '../../points/events.ts';
import { grantWrites } from '../../points/grant.ts';
import { historyCutoff } from '../../points/history.ts';
import { assertHoldRoom, assertOpen, HOLD_LIMITS, holdResult, openHold, releaseAll, type StoredHold, settleDecision } from '../../points/holds.ts';
import { replayOf } from '../../points/idempotency.ts';
import { registrationGrants } from '../../points/materialise.ts';
import type {
  ConsumeResult,
  DefaultPointsConfig,
  GrantResult,
  HistoryPage,
  HoldResult,
  OpenHolds,
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
  pageStart,
  type TransactionRow,
  toAlertConfig,
  toAlertState,
  toConfig,
  toHold,
  toStoredBalance,
  toTransaction,
} from '../points-rows.ts';
import { giveBack, insertDue, POINTS_SQL, type PointsContext, PointsSql, recordMovement, type StoredAnswer } from './points-sql.ts';
import { writeEmitted } from './records.ts';
import { inTransaction, query, quiet, type Tx, type TxContext } from './tx.ts';
import { UserGate } from './user-gate.ts';

const SQL = {
  lockRealm: 'SELECT 1 FROM realms WHERE id = $1 FOR NO KEY UPDATE',
  upsertConfig: `INSERT INTO points_default_config (realm_id, registration_bonus_points, free_periodic_points_amount,
      free_periodic_grant_period_type, free_periodic_validity_days, free_periodic_quota_windows, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7)
    ON CONFLICT (realm_id) DO UPDATE SET registration_bonus_points = excluded.registration_bonus_points,
      free_periodic_points_amount = excluded.free_periodic_points_amount, free_periodic_grant_period_type = excluded.free_periodic_grant_period_type,
      free_periodic_validity_days = excluded.free_periodic_validity_days, free_periodic_quota_windows = excluded.free_periodic_quota_windows,
      updated_at = excluded.updated_at`,
  pruneIdempotency: `DELETE FROM points_idempotency WHERE (realm_id, scope, key) IN
    (SELECT realm_id, scope, key FROM points_idempotency WHERE created_at < $1 LIMIT $2)`,
  balances: `SELECT id, kind, amount, remaining, expires_at, ended_at, created_at FROM points_balances
    WHERE realm_id = $1 AND user_id = $2 ORDER BY created_at, id COLLATE "C"`,
  transactions: `SELECT id, user_id, amount, description, allocations, created_at FROM points_transactions
    WHERE realm_id = $1 AND user_id = $2 AND kind = 'consume' ORDER BY created_at, id COLLATE "C"`,
};

/** The realm's alert configuration and the user's alert state, read with a use case's context. */
// Marked handled (tx.ts quiet): a use case refused before it reads the alerts (a lock timeout, a
// refusal) never awaits this, and its failure is reported where the context is awaited.
const readAlerts = (o: { context: Promise<PointsContext> }) => quiet(o.context.then((c) => c.alerts));

/** Decides a transaction's alerts (alerts.ts) from the state `before` its writes and the state after
 *  them (a consume's or a hold's computed from its writes; else, or when that lacks a time the
 *  alerts need, read behind the writes: one more round trip, only when the realm has alerts on;
 *  none for a recovery check), and sends what was decided. */
async function sendAlerts(
  tx: Tx,
  p: PointsSql,
  realmId: string,
  userId: string,
  read: Promise<AlertRow>,
  before: UserPointsState,
  now: number,
  after: AlertsAfter = 'read',
): Promise<void> {
  const row = await read;
  const config = toAlertConfig(row, realmId);
  if (!alertsOn(config)) return;
  const state = toAlertState(row);
  const beforeView = pointsView(before);
  const v = viewAfter(before, beforeView, after);
  const view = v === 'read' ? pointsView(await p.stateAfter(tx, userId, now, before, true)) : v;
  const d = decideAlerts(config, state, userId, beforeView, view, now);
  if (stateChanged(state, d)) tx.run(ALERT_SQL.saveState, alertStateValues(userId, realmId, d.state));
  writeEmitted(tx, alertEmitted(realmId, userId, d, now));
}

/** An answer completed by reads sent behind a use case's writes: they answer with its COMMIT. */
interface Later<T> {
  later: Promise<T>;
}
const ready = <T>(v: T): Later<T> => ({ later: Promise.resolve(v) });

export class PostgresPointsStore implements PointsStore {
  constructor(
    private readonly ctx: TxContext,
    /** Bounds the pooled connections one user's calls hold while they wait for its lock. */
    private readonly gate: UserGate = UserGate.unbounded(),
    private readonly p: PointsSql = new PointsSql(),
  ) {}

  /** A use case on the user's points: one transaction, once the user has a turn at the gate. */
  private onUser<T>(userId: string, useCase: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.gate.run(userId, () => inTransaction(this.ctx, useCase, fn));
  }

  /** A use case on a hold or a movement of the history: through its user's turn at the gate (read
   *  first, outside the transaction, when this process has not seen it); one that names none goes
   *  straight on to answer its replay or not_found. */
  private async onOwner<T>(of: 'hold' | 'transaction', realmId: string, id: string, useCase: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    const userId = await this.p.owner(this.ctx.pool, of, realmId, id);
    return userId === null ? inTransaction(this.ctx, useCase, fn) : this.onUser(userId, useCase, fn);
  }

  async realmExists(realmId: string): Promise<boolean> {
    return (await query(this.ctx.pool, POINTS_SQL.realm, [realmId])).length === 1;
  }

  async getDefaultConfig(realmId: string): Promise<DefaultPointsConfig> {
    const [r] = await query<Parameters<typeof toConfig>[0]>(this.ctx.pool, POINTS_SQL.config, [realmId]);
    return toConfig(r, realmId);
  }

  async putDefaultConfig(realmId: string, patch: DefaultConfigPatch, now: number, caller: Caller | null = null): Promise<DefaultPointsConfig> {
    return inTransaction(this.ctx, 'putDefaultConfig', async (tx) => {
      // Puts of one realm's configuration are serial: each merges onto the last.
      tx.run(SQL.lockRealm, [realmId]);
      const before = toConfig(await tx.row(POINTS_SQL.config, [realmId]), realmId);
      const next = mergeDefaultConfig(before, patch, now);
      const windows = next.freePeriodicQuotaWindows === null ? null : JSON.stringify(next.freePeriodicQuotaWindows);
      tx.run(SQL.upsertConfig, [
        realmId,
        next.registrationBonusPoints,
        next.freePeriodicPointsAmount,
        next.freePeriodicGrantPeriodType,
        next.freePeriodicValidityDays,
        windows,
        next.updatedAt,
      ]);
      writeEmitted(tx, configUpdatedEmitted(before, next, caller, now));
      return next;
    });
  }

  async grantRegistration(realmId: string, userId: string, now: number): Promise<void> {
    await this.onUser(userId, 'grantRegistration', async (tx) => {
      tx.run(POINTS_SQL.lockUser, [realmId, userId]);
      const cfg = toConfig(await tx.row(POINTS_SQL.config, [realmId]), realmId);
      for (const g of registrationGrants(cfg, now)) await insertDue(tx, realmId, userId, g, now);
    });
  }

  async consume(cmd: ConsumeCommand, now: number): Promise<ConsumeResult> {
    return this.onUser(cmd.userId, 'consume', async (tx) => {
      const o = this.p.open(tx, cmd.realmId, cmd.userId, now, { scope: 'consume', key: cmd.idempotencyKey }, false, CONSUMED_EVENT);
      const alerts = readAlerts(o);
      const found = await o.found;
      const c = await o.context;
      const prior = replay<ConsumeResult>(cmd.idempotencyKey, c.idem, cmd.requestHash);
      if (prior) return prior;
      assertUser(found, cmd.realmId, cmd.userId);
      const st = await this.p.materialisedState(tx, cmd.realmId, cmd.userId, now, c, o.state, false);
      const w = consumeWrites(cmd, st, planConsume(cmd.amount, st.quota, st.balances, now), now);
      const r = w.result;
      this.p.charge(
        tx,
        cmd.realmId,
        cmd.userId,
        w,
        { id: r.transactionId, kind: 'consume', amount: r.amount, description: cmd.description, lines: w.lines, relatedId: null },
        now,
        { scope: 'consume', key: cmd.idempotencyKey, requestHash: cmd.requestHash, response: r },
        NOTHING_EMITTED,
        // Its event (consumedEmitted) kept as a mark on the movement, where an endpoint is owed it.
        c.eventWanted,
      );
      await sendAlerts(tx, this.p, cmd.realmId, cmd.userId, alerts, st, now, w);
      this.p.rememberOwner(r.transactionId, cmd.userId);
      return r;
    });
  }

  async grant(cmd: GrantCommand, now: number): Promise<GrantResult> {
    return this.onUser(cmd.userId, 'grant', async (tx) => {
      const o = this.p.open(tx, cmd.realmId, cmd.userId, now, { scope: 'grant', key: cmd.idempotencyKey }, false);
      const alerts = readAlerts(o);
      const found = await o.found;
      const c = await o.context;
      const prior = replay<GrantResult>(cmd.idempotencyKey, c.idem, cmd.requestHash);
      if (prior) return prior;
      assertUser(found, cmd.realmId, cmd.userId);
      // Read and written under the user's lock: two concurrent grants cannot both fit.
      const st = await this.p.materialisedState(tx, cmd.realmId, cmd.userId, now, c, o.state, false);
      const w = grantWrites(cmd, st, now);
      const b = w.balance;
      tx.run(POINTS_SQL.insertBalance, [cmd.grantId, cmd.realmId, cmd.userId, b.kind, b.amount, b.expiresAt, b.source, now]);
      const lines = [{ creditKind: cmd.kind, sourceId: cmd.grantId, amount: cmd.amount }];
      recordMovement(tx, cmd.realmId, cmd.userId, { id: cmd.grantId, kind: 'grant', amount: cmd.amount, description: null, lines, relatedId: null }, now);
      writeEmitted(tx, apiGrantEmitted(cmd.realmId, w.result, cmd.caller ?? null, now));
      await sendAlerts(tx, this.p, cmd.realmId, cmd.userId, alerts, st, now);
      if (cmd.idempotencyKey !== null)
        tx.run(POINTS_SQL.saveAnswer, [cmd.realmId, 'grant', cmd.idempotencyKey, cmd.requestHash, JSON.stringify(w.result), now, w.result.userId]);
      return w.result;
    });
  }

  async summary(realmId: string, userId: string, now: number): Promise<PointsSummary> {
    return this.onUser(userId, 'summary', async (tx) => {
      const o = this.p.open(tx, realmId, userId, now, null, true);
      // Holds open at `now`: expiring the due ones (materialise) leaves these as they are.
      const holds = tx.row<OpenHolds>(POINTS_SQL.openHolds, [userId, now, HOLD_LIMITS.listed]);
      assertUser(await o.found, realmId, userId);
      const st = await this.p.materialisedState(tx, realmId, userId, now, await o.context, o.state, true);
      return summarise(userId, st, (await holds)!);
    });
  }

  async hold(cmd: HoldCommand, now: number): Promise<HoldResult> {
    return this.onUser(cmd.userId, 'hold', async (tx) => {
      const o = this.p.open(tx, cmd.realmId, cmd.userId, now, { scope: 'hold', key: cmd.idempotencyKey }, false);
      const alerts = readAlerts(o);
      // Holds open at `now`, read under the user's lock: the due ones, expired by materialise, are not among them.
      const open = tx.row<{ count: number }>(POINTS_SQL.openHoldCount, [cmd.userId, now, HOLD_LIMITS.openPerUser]);
      const found = await o.found;
      const c = await o.context;
      const prior = replay<HoldResult>(cmd.idempotencyKey, c.idem, cmd.requestHash);
      if (prior) return prior;
      assertUser(found, cmd.realmId, cmd.userId);
      assertHoldRoom((await open)!.count);
      const st = await this.p.materialisedState(tx, cmd.realmId, cmd.userId, now, c, o.state, false);
      const w = consumeWrites({ ...cmd, transactionId: cmd.holdId }, st, planConsume(cmd.amount, st.quota, st.balances, now), now);
      const h = openHold(cmd, w.lines, now);
      const r = holdResult(h, w.result.remaining, now);
      this.p.charge(
        tx,
        cmd.realmId,
        cmd.userId,
        w,
        { id: h.holdId, kind: 'hold', amount: h.amount, description: h.description, lines: h.lines, relatedId: null },
        now,
        { scope: 'hold', key: cmd.idempotencyKey, requestHash: cmd.requestHash, response: r },
      );
      tx.run(POINTS_SQL.insertHold, [h.holdId, h.realmId, h.userId, h.amount, JSON.stringify(h.lines), h.description, h.createdAt, h.expiresAt]);
      await sendAlerts(tx, this.p, cmd.realmId, cmd.userId, alerts, st, now, w);
      this.p.rememberOwner(h.holdId, h.userId);
      return r;
    });
  }

  /** The answer stored under the key, read when the hold or transaction named is not there. */
  private async storedReplay<T>(tx: Tx, realmId: string, scope: string, key: string | null, requestHash: string): Promise<T | null> {
    const stored = key === null ? undefined : await tx.row<StoredAnswer>(POINTS_SQL.idem, [realmId, scope, key]);
    return replay<T>(key, stored, requestHash);
  }

  /** The answer once the reads behind the writes are in; kept under the key (before COMMIT, so
   *  waited for) when there is one. */
  private async answered<T extends { userId: string }>(
    tx: Tx,
    realmId: string,
    scope: string,
    key: string | null,
    requestHash: string,
    answer: Promise<T>,
    now: number,
  ): Promise<Later<T>> {
    if (key === null) return { later: answer };
    const r = await answer;
    tx.run(POINTS_SQL.saveAnswer, [realmId, scope, key, requestHash, JSON.stringify(r), now, r.userId]);
    return ready(r);
  }

  /** A use case on one hold: its user locked, the reads of open() and the hold, a replay answered
   *  first; then the due grants and holds materialised (the hold's own expiry included) and the
   *  user's state. Null with the replay when there is one. Throws not_found. */
  private async onHold<T>(
    tx: Tx,
    realmId: string,
    holdId: string,
    now: number,
    idem: { scope: string; key: string | null; requestHash: string } | null,
  ): Promise<{ prior: T } | { h: StoredHold; st: UserPointsState; alerts: Promise<AlertRow> }> {
    const userId = await this.p.lockOwner(tx, 'hold', realmId, holdId);
    if (userId === null && idem) {
      const prior = await this.storedReplay<T>(tx, realmId, idem.scope, idem.key, idem.requestHash);
      if (prior) return { prior };
    }
    assertHold(userId !== null, realmId, holdId);
    const o = this.p.open(tx, realmId, userId!, now, idem, false);
    const row = tx.row<HoldRow>(POINTS_SQL.hold, [realmId, holdId]);
    const alerts = readAlerts(o);
    const c = await o.context;
    if (idem) {
      const prior = replay<T>(idem.key, c.idem, idem.requestHash);
      if (prior) return { prior };
    }
    const found = await row;
    // The owner as this process remembers it may be deleted since: its closed holds stay until its
    // purge reaches them, not found all the same.
    assertHold(found !== undefined && (await o.found), realmId, holdId);
    if (found!.user_id !== userId) this.p.wrongOwner(holdId);
    const st = await this.p.materialisedState(tx, realmId, userId!, now, c, o.state, false);
    return { h: toHold(found!), st, alerts };
  }

  async settle(cmd: SettleCommand, now: number): Promise<SettleResult> {
    const idem = { scope: 'settle', key: cmd.idempotencyKey, requestHash: cmd.requestHash };
    const done = await this.onOwner('hold', cmd.realmId, cmd.holdId, 'settle', async (tx): Promise<Later<SettleResult>> => {
      const on = await this.onHold<SettleResult>(tx, cmd.realmId, cmd.holdId, now, idem);
      if ('prior' in on) return ready(on.prior);
      const { h, st, alerts } = on;
      assertOpen(h, now);
      const d = settleDecision(h, cmd.amount, cmd.description);
      let lines: ChargeLine[] = d.kept;
      let w = null;
      if (d.extra > 0) {
        w = consumeWrites(
          { transactionId: cmd.transactionId, userId: h.userId, amount: d.extra, description: cmd.description },
          st,
          planConsume(d.extra, st.quota, st.balances, now),
          now,
        );
        lines = [...lines, ...w.lines];
      }
      giveBack(tx, h.userId, d.returns);
      tx.run(POINTS_SQL.closeHold, [h.holdId, 'settled', cmd.amount, now]);
      this.p.charge(
        tx,
        cmd.realmId,
        h.userId,
        w,
        { id: cmd.transactionId, kind: 'settle', amount: cmd.amount, description: d.description, lines, relatedId: h.holdId },
        now,
        {
          scope: 'settle',
          key: null,
          requestHash: '',
          response: null,
        },
        consumedEmitted(
          cmd.realmId,
          { userId: h.userId, transactionId: cmd.transactionId, amount: cmd.amount, allocations: publicLines(lines), holdId: h.holdId },
          now,
        ),
      );
      await sendAlerts(tx, this.p, cmd.realmId, h.userId, alerts, st, now);
      this.p.rememberOwner(cmd.transactionId, h.userId);
      const answer = this.p.stateAfter(tx, h.userId, now, st).then(
        (after): SettleResult => ({
          transactionId: cmd.transactionId,
          holdId: h.holdId,
          userId: h.userId,
          amount: cmd.amount,
          allocations: publicLines(lines),
          remaining: remainingOf(after),
          createdAt: now,
        }),
      );
      return this.answered(tx, cmd.realmId, idem.scope, idem.key, idem.requestHash, answer, now);
    });
    return done.later;
  }

  async release(cmd: ReleaseCommand, now: number): Promise<HoldResult> {
    const idem = { scope: 'release', key: cmd.idempotencyKey, requestHash: cmd.requestHash };
    const done = await this.onOwner('hold', cmd.realmId, cmd.holdId, 'release', async (tx): Promise<Later<HoldResult>> => {
      const on = await this.onHold<HoldResult>(tx, cmd.realmId, cmd.holdId, now, idem);
      if ('prior' in on) return ready(on.prior);
      const { h, st, alerts } = on;
      assertOpen(h, now);
      giveBack(tx, h.userId, releaseAll(h));
      tx.run(POINTS_SQL.closeHold, [h.holdId, 'released', null, now]);
      recordMovement(
        tx,
        cmd.realmId,
        h.userId,
        { id: cmd.transactionId, kind: 'release', amount: h.amount, description: null, lines: h.lines, relatedId: h.holdId },
        now,
      );
      await sendAlerts(tx, this.p, cmd.realmId, h.userId, alerts, st, now);
      const answer = this.p.stateAfter(tx, h.userId, now, st).then((after) => holdResult({ ...h, status: 'released', closedAt: now }, remainingOf(after), now));
      return this.answered(tx, cmd.realmId, idem.scope, idem.key, idem.requestHash, answer, now);
    });
    return done.later;
  }

  async getHold(realmId: string, holdId: string, now: number): Promise<HoldResult> {
    return this.onOwner('hold', realmId, holdId, 'getHold', async (tx) => {
      const on = await this.onHold<never>(tx, realmId, holdId, now, null);
      if ('prior' in on) return on.prior;
      // Read before any expiry materialise wrote: holdAt shows a due hold expired all the same.
      return holdResult(on.h, remainingOf(on.st), now);
    });
  }

  async refund(cmd: RefundCommand, now: number): Promise<RefundResult> {
    const done = await this.onOwner('transaction', cmd.realmId, cmd.transactionId, 'refund', async (tx): Promise<Later<RefundResult>> => {
      const userId = await this.p.lockOwner(tx, 'transaction', cmd.realmId, cmd.transactionId);
      if (userId === null) {
        const prior = await this.storedReplay<RefundResult>(tx, cmd.realmId, 'refund', cmd.idempotencyKey, cmd.requestHash);
        if (prior) return ready(prior);
      }
      assertTransaction(userId !== null, cmd.realmId, cmd.transactionId);
      const o = this.p.open(tx, cmd.realmId, userId!, now, { scope: 'refund', key: cmd.idempotencyKey }, false);
      const alerts = readAlerts(o);
      type Row = {
        id: string;
        userId: string;
        amount: number;
        refunded: number;
        allocations: string;
        balances: Array<{ id: string; expiresAt: number | null; endedAt: number | null }>;
      };
      const read = tx.row<Row>(POINTS_SQL.refundable, [cmd.realmId, cmd.transactionId, historyCutoff(now)]);
      const c = await o.context;
      const prior = replay<RefundResult>(cmd.idempotencyKey, c.idem, cmd.requestHash);
      if (prior) return ready(prior);
      const row = await read;
      // As for a hold (onHold): a deleted account's history stays until its purge reaches it.
      assertTransaction(row !== undefined && (await o.found), cmd.realmId, cmd.transactionId);
      if (row!.userId !== userId) this.p.wrongOwner(cmd.transactionId);
      const t = {
        transactionId: row!.id,
        userId: row!.userId,
        amount: row!.amount,
        refunded: row!.refunded,
        lines: JSON.parse(row!.allocations) as ChargeLine[],
      };
      const st = await this.p.materialisedState(tx, cmd.realmId, t.userId, now, c, o.state, false);
      const longest = longestWindows(st);
      const life = new Map(row!.balances.map((b) => [b.id, b]));
      const d = planRefund(
        t,
        cmd.amount,
        returnable(longest, (id) => life.get(id), now),
      );
      giveBack(tx, t.userId, d.returns);
      tx.run(POINTS_SQL.markRefunded, [t.transactionId, t.refunded + d.amount, JSON.stringify(d.lines)]);
      const back = d.shares.filter((l) => l.returned > 0).map((l) => ({ creditKind: l.creditKind, sourceId: l.sourceId, amount: l.returned }));
      recordMovement(
        tx,
        cmd.realmId,
        t.userId,
        { id: cmd.refundId, kind: 'refund', amount: d.refunded, description: cmd.reason, lines: back, relatedId: t.transactionId },
        now,
      );
      const refunded = { userId: t.userId, refundId: cmd.refundId, transactionId: t.transactionId, amount: d.amount, refunded: d.refunded };
      writeEmitted(tx, refundedEmitted(cmd.realmId, refunded, cmd.caller ?? null, now));
      await sendAlerts(tx, this.p, cmd.realmId, t.userId, alerts, st, now);
      const answer = this.p.stateAfter(tx, t.userId, now, st).then(
        (after): RefundResult => ({
          refundId: cmd.refundId,
          transactionId: t.transactionId,
          userId: t.userId,
          amount: d.amount,
          refunded: d.refunded,
          allocations: d.shares,
          remaining: remainingOf(after),
          createdAt: now,
        }),
      );
      return this.answered(tx, cmd.realmId, 'refund', cmd.idempotencyKey, cmd.requestHash, answer, now);
    });
    return done.later;
  }

  async pruneIdempotency(before: number, limit: number): Promise<number> {
    return inTransaction(this.ctx, 'pruneIdempotency', (tx) => tx.run(SQL.pruneIdempotency, [before, limit]));
  }

  async getAlerts(realmId: string): Promise<StoredAlertConfig> {
    const [r] = await query<AlertRow>(this.ctx.pool, ALERT_SQL.read, [realmId, '']);
    return toAlertConfig(r, realmId);
  }

  async putAlerts(realmId: string, config: AlertConfig, now: number, caller: Caller | null = null): Promise<StoredAlertConfig> {
    return inTransaction(this.ctx, 'putAlerts', async (tx) => {
      // Puts of one realm's alerts are serial, so each record's `before` is what the last one left.
      tx.run(SQL.lockRealm, [realmId]);
      const before = toAlertConfig(await tx.row<AlertRow>(ALERT_SQL.read, [realmId, '']), realmId);
      tx.run(ALERT_SQL.saveConfig, [realmId, JSON.stringify(config.lowBalanceThresholds), config.quotaExhausted, config.quotaRecovered, now]);
      const after = { realmId, ...config, updatedAt: now };
      writeEmitted(tx, alertsUpdatedEmitted(before, after, caller, now));
      return after;
    });
  }

  async checkAlerts(realmId: string, userId: string, now: number): Promise<void> {
    await this.onUser(userId, 'checkAlerts', async (tx) => {
      const o = this.p.open(tx, realmId, userId, now, null, true);
      const alerts = readAlerts(o);
      if (!(await o.found)) return;
      const st = await this.p.materialisedState(tx, realmId, userId, now, await o.context, o.state, true);
      await sendAlerts(tx, this.p, realmId, userId, alerts, st, now, 'check');
    });
  }

  async history(q: HistoryQuery, now: number): Promise<HistoryPage> {
    return this.onUser(q.userId, 'history', async (tx) => {
      const o = this.p.openContext(tx, q.realmId, q.userId, now, null);
      // Movements past the history's keeping read as gone whether or not a prune has run yet.
      const start = pageStart(q);
      const params = [q.userId, start.at, start.id, historyCutoff(now), start.limit];
      const read = () => (q.kind === null ? tx.rows<HistoryRow>(POINTS_SQL.page, params) : tx.rows<HistoryRow>(POINTS_SQL.pageOfKind, [...params, q.kind]));
      const first = read();
      assertUser(await o.found, q.realmId, q.userId);
      // The page is read again when something due was just written (a grant, an expiry).
      const rows = (await this.p.materialise(tx, q.realmId, q.userId, now, await o.context)) ? await read() : await first;
      return historyPage(rows, q.pageSize);
    });
  }

  async listBalances(realmId: string, userId: string): Promise<StoredBalance[]> {
    return (await query<BalanceRow>(this.ctx.pool, SQL.balances, [realmId, userId])).map(toStoredBalance);
  }

  async listTransactions(realmId: string, userId: string): Promise<StoredConsume[]> {
    return (await query<TransactionRow>(this.ctx.pool, SQL.transactions, [realmId, userId])).map(toTransaction);
  }
}

/** The first answer stored under the key, or null (idempotency.ts decides; throws on conflict). */
function replay<T>(key: string | null, stored: StoredAnswer | undefined, requestHash: string): T | null {
  const prior = replayOf(key, stored, requestHash);
  return prior && (JSON.parse(prior.response) as T);
}
