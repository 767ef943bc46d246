// Points alerts (docs/events.md), pure: which of `points.balance_low`,
// `points.quota_exhausted` and `points.quota_recovered` a transaction causes, from the user's points
// before and after it and what the user's earlier alerts left (AlertState). The store reads both
// states in the transaction's own unit, asks decideAlerts, and writes the events, the new state and
// the recovery jobs it decided.
import { badRequest } from '../errors.ts';
import { type Emitted, newEvent } from '../events/plan.ts';
import type { JobPolicy } from '../jobs/model.ts';
import { newJob } from '../jobs/retry.ts';
import type { ConsumeWrites } from './apply-plan.ts';
import type { QuotaKind, WindowRow } from './model.ts';
import type { UserPointsState } from './state.ts';
import { stateAfterConsume } from './state-after.ts';
import { remainingOf } from './summary.ts';

export const MAX_LOW_BALANCE_THRESHOLDS = 8;

export interface AlertConfig {
  /** Distinct positive integers, ascending. */
  lowBalanceThresholds: number[];
  quotaExhausted: boolean;
  quotaRecovered: boolean;
}

export const NO_ALERTS: AlertConfig = { lowBalanceThresholds: [], quotaExhausted: false, quotaRecovered: false };

/** Whether a transaction needs to read the state after it at all (the cost of alerts is paid only
 *  by realms that asked for some). */
export const alertsOn = (c: AlertConfig) => c.lowBalanceThresholds.length > 0 || c.quotaExhausted || c.quotaRecovered;

/** The configuration a PUT asks for; throws bad_request naming the field. */
export function validateAlertConfig(input: { lowBalanceThresholds?: readonly unknown[]; quotaExhausted?: boolean; quotaRecovered?: boolean }): AlertConfig {
  const thresholds = input.lowBalanceThresholds ?? [];
  if (thresholds.length > MAX_LOW_BALANCE_THRESHOLDS) {
    throw badRequest(`lowBalanceThresholds: at most ${MAX_LOW_BALANCE_THRESHOLDS}`, { field: 'lowBalanceThresholds' });
  }
  for (const t of thresholds) {
    if (typeof t !== 'number' || !Number.isSafeInteger(t) || t <= 0) {
      throw badRequest('lowBalanceThresholds: each must be a positive integer', { field: 'lowBalanceThresholds' });
    }
  }
  const distinct = [...new Set(thresholds as number[])].sort((a, b) => a - b);
  return { lowBalanceThresholds: distinct, quotaExhausted: input.quotaExhausted ?? false, quotaRecovered: input.quotaRecovered ?? false };
}

/** A window left at 0 remaining whose recovery is still to be reported. */
export interface Exhaustion {
  creditKind: QuotaKind;
  windowSeconds: number;
  /** The window's nextRecoveryAt when it was exhausted: the recovery is reported at this instant
   *  unless a transaction gives quota back first. */
  recoversAt: number;
}

/** What a user's earlier alerts left: thresholds already reported (disarmed until a transaction
 *  leaves the total at or above them) and exhaustions awaiting their recovery. */
export interface AlertState {
  firedThresholds: number[];
  exhaustions: Exhaustion[];
}

export const QUIET: AlertState = { firedThresholds: [], exhaustions: [] };

/** The figures decideAlerts compares: the spendable total and the window rows (with their times). */
export interface PointsView {
  total: number;
  windows: WindowRow[];
}

export interface AlertEvent {
  type: 'points.balance_low' | 'points.quota_exhausted' | 'points.quota_recovered';
  data: Record<string, unknown>;
}

export interface AlertDecision {
  state: AlertState;
  /** In the order they happened. */
  events: AlertEvent[];
  /** Recovery checks to queue, each due at its recoversAt. */
  schedule: Exhaustion[];
}

const sameWindow = (a: { creditKind: QuotaKind; windowSeconds: number }, b: { creditKind: QuotaKind; windowSeconds: number }) =>
  a.creditKind === b.creditKind && a.windowSeconds === b.windowSeconds;

const rowOf = (rows: WindowRow[], e: { creditKind: QuotaKind; windowSeconds: number }) => rows.find((r) => sameWindow(r, e));

/** The alerts of one transaction at `now` that took the user from `before` to `after`; `after`
 *  null: a recovery check, no transaction (it reports recoveries due and re-arms nothing). */
export function decideAlerts(
  config: AlertConfig,
  state: AlertState,
  userId: string,
  before: PointsView,
  afterOrNull: PointsView | null,
  now: number,
): AlertDecision {
  const after = afterOrNull ?? before;
  const events: AlertEvent[] = [];
  const exhaustions: Exhaustion[] = [];
  const schedule: Exhaustion[] = [];
  const recovered = (e: Exhaustion, row: WindowRow | undefined, remaining: number, at: number) => {
    if (config.quotaRecovered) {
      events.push({ type: 'points.quota_recovered', data: { userId, creditKind: e.creditKind, windowKey: row?.key ?? null, remaining, at } });
    }
  };
  // Recoveries first: one that came due before this transaction happened before it.
  for (const due of state.exhaustions) {
    let e = due;
    const was = rowOf(before.windows, e);
    const is = rowOf(after.windows, e);
    if (e.recoversAt <= now) {
      const row = was ?? is;
      if (row === undefined) continue; // the window is gone: nothing left to recover
      if (row.remaining > 0) {
        recovered(e, row, row.remaining, e.recoversAt);
        continue;
      }
      // Still at 0 at its instant (a billing or configuration change lowered the limit since): no
      // quota came back, so nothing recovered; the exhaustion waits for the window's next return,
      // and a window that has none (limit 0) never recovers.
      if (row.nextRecoveryAt === null) {
        // A state read without the windows' times (a consume's, state-after.ts) leaves a window with
        // usage without its next return: unknown, not never. The exhaustion stays as it is, for the
        // recovery check queued at its instant, which reads the times, to decide.
        if (row.used > 0 && afterOrNull !== null) exhaustions.push(e);
        continue;
      }
      e = { ...e, recoversAt: row.nextRecoveryAt };
      if (afterOrNull === null || !((is?.remaining ?? 0) > 0)) {
        exhaustions.push(e);
        schedule.push(e);
        continue;
      }
    }
    // A recovery check decides only what is due: a window that went away (a cancelled subscription)
    // may be back by the due instant, so only a transaction forgets it.
    if (afterOrNull === null) exhaustions.push(e);
    // The window is gone: nothing left to recover.
    else if (is === undefined && was === undefined) continue;
    // Given back by this transaction, or since the last one by a hold that expired (no transaction:
    // its first transaction reports it; a recovery check waits for the due instant).
    else if ((was?.remaining ?? 0) > 0 || (is?.remaining ?? 0) > 0) recovered(e, is ?? was, (is ?? was)!.remaining, now);
    else exhaustions.push(e);
  }
  for (const row of after.windows) {
    if (row.remaining > 0) continue;
    const was = rowOf(before.windows, row);
    if (was === undefined || was.remaining === 0) continue;
    if (config.quotaExhausted) {
      events.push({
        type: 'points.quota_exhausted',
        data: {
          userId,
          creditKind: row.creditKind,
          windowKey: row.key,
          windowSeconds: row.windowSeconds,
          limit: row.limit,
          nextRecoveryAt: row.nextRecoveryAt,
          resetsAt: row.resetsAt,
        },
      });
    }
    if (config.quotaRecovered && row.nextRecoveryAt !== null) {
      const e = { creditKind: row.creditKind, windowSeconds: row.windowSeconds, recoversAt: row.nextRecoveryAt };
      const i = exhaustions.findIndex((x) => sameWindow(x, e));
      if (i >= 0) exhaustions.splice(i, 1);
      exhaustions.push(e);
      schedule.push(e);
    }
  }
  const fired = new Set(state.firedThresholds);
  for (const threshold of afterOrNull === null ? [] : config.lowBalanceThresholds) {
    if (after.total >= threshold) fired.delete(threshold);
    else if (before.total >= threshold && !fired.has(threshold)) {
      fired.add(threshold);
      events.push({ type: 'points.balance_low', data: { userId, threshold, total: after.total } });
    }
  }
  // A threshold no longer configured is forgotten: configured again, it starts armed.
  const firedThresholds = [...fired].filter((t) => config.lowBalanceThresholds.includes(t)).sort((a, b) => a - b);
  return { state: { firedThresholds, exhaustions }, events, schedule };
}

/** The figures of a state decideAlerts compares. */
export const pointsView = (st: UserPointsState): PointsView => ({ total: remainingOf(st).total, windows: st.windows });

/** What a transaction's alerts compare the state before it with: after a consume's or a hold's
 *  writes, the state computed from them (viewAfter); 'read', the state read after the writes;
 *  'check', none (a recovery check: no transaction). */
export type AlertsAfter = Pick<ConsumeWrites, 'ledger' | 'spends'> | 'read' | 'check';

/** The figures decideAlerts compares the state `before` (its figures `beforeView`) with: none for a
 *  check; after a consume's or a hold's writes, computed from them (state-after.ts); 'read' when the
 *  store must read the state after its writes (no writes given, or the computed figures lack a time
 *  decideAlerts reads). */
export function viewAfter(before: UserPointsState, beforeView: PointsView, after: AlertsAfter): PointsView | null | 'read' {
  if (after === 'check') return null;
  if (after === 'read') return 'read';
  const computed = pointsView(stateAfterConsume(before, after));
  return afterTimesNeeded(beforeView, computed) ? 'read' : computed;
}

/** Whether decideAlerts would read a time `after` leaves unknown: a window this transaction left at
 *  0 (its recovery is reported at nextRecoveryAt) whose oldest usage the state before was read
 *  without (state-after.ts). */
export function afterTimesNeeded(before: PointsView, after: PointsView): boolean {
  for (const row of after.windows) {
    if (row.remaining > 0 || row.used === 0 || row.nextRecoveryAt !== null) continue;
    if ((rowOf(before.windows, row)?.remaining ?? 0) > 0) return true;
  }
  return false;
}

/** The durable job that checks a user's exhausted windows when one is due to recover, so the
 *  recovery is reported whether or not the user calls again. */
export const QUOTA_RECOVERY = 'points.quota_recovery';

export const QUOTA_RECOVERY_POLICY: JobPolicy = {
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
  leaseMs: 30_000,
  lifetimeMs: 24 * 3600_000,
  auditOutcome: false,
};

/** The configuration as stored, with when it was saved (null: never). */
export interface StoredAlertConfig extends AlertConfig {
  realmId: string;
  updatedAt: number | null;
}

/** The outbox events and recovery jobs of a decision (pure but for fresh ids). A recovery check
 *  made stale by an earlier recovery finds nothing due and reports nothing. */
export function alertEmitted(realmId: string, userId: string, d: AlertDecision, now: number): Emitted {
  return {
    events: d.events.map((e) => newEvent(e.type, realmId, now, e.data)),
    audit: [],
    jobs: d.schedule.map((e) => ({
      ...newJob(QUOTA_RECOVERY, realmId, { userId }, null, now, QUOTA_RECOVERY_POLICY),
      runAt: e.recoversAt,
      giveUpAt: e.recoversAt + QUOTA_RECOVERY_POLICY.lifetimeMs,
    })),
  };
}

/** Whether the decision changed what is stored for the user (asked on every transaction of a realm
 *  with alerts on: compared field by field, not through two JSON texts). */
export function stateChanged(before: AlertState, d: AlertDecision): boolean {
  const [a, b] = [before.firedThresholds, d.state.firedThresholds];
  if (a.length !== b.length || a.some((t, i) => t !== b[i])) return true;
  const [x, y] = [before.exhaustions, d.state.exhaustions];
  return x.length !== y.length || x.some((e, i) => !sameWindow(e, y[i]!) || e.recoversAt !== y[i]!.recoversAt);
}
