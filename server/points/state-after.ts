// A user's points after a consume or a hold, pure: from the state read before it (state.ts) and the
// writes the domain planned (apply-plan.ts), what reading the state again after the writes would
// give. What needs it (the alerts: alerts.ts) is spared the second read of every window.
//
// Each window of a kind drawn from counts the drawn amount more, its newest usage at the last row
// appended; its oldest usage is the first row appended when the window had none, else the one
// before it had. A state read without the windows' times (points-sql `withTimes: false`) gives
// an after-state without them where the oldest usage was read before: the time a recovery is due
// (nextRecoveryAt) stays null there; everything else is exact.

import type { ConsumeWrites } from './apply-plan.ts';
import type { QuotaKind, WindowRow } from './model.ts';
import type { UserPointsState } from './state.ts';
import { availableOf, windowRows } from './windows.ts';

/** The state after `w` is written, from the state `before` it was planned on, at the same instant. */
export function stateAfterConsume(before: UserPointsState, w: Pick<ConsumeWrites, 'ledger' | 'spends'>): UserPointsState {
  let windows = before.windows;
  let quota = before.quota;
  if (w.ledger.length > 0) {
    windows = [];
    quota = [];
    for (const q of before.quota) {
      const rows = before.windows.filter((r) => r.creditKind === q.kind);
      const drawn = w.ledger.filter((l) => l.kind === q.kind);
      if (drawn.length === 0) {
        windows.push(...rows);
        quota.push(q);
        continue;
      }
      const after = drawnRows(q.kind, rows, drawn);
      windows.push(...after);
      const last = drawn[drawn.length - 1]!;
      quota.push({ ...q, available: availableOf(after), head: { seq: last.seq, cum: last.cum, lastAt: last.at, returned: q.head?.returned ?? 0 } });
    }
  }
  let balances = before.balances;
  if (w.spends.length > 0) {
    const spent = new Map<string, number>();
    for (const s of w.spends) spent.set(s.sourceId, (spent.get(s.sourceId) ?? 0) + s.amount);
    balances = [];
    for (const b of before.balances) {
      const remaining = b.remaining - (spent.get(b.id) ?? 0);
      // A balance spent to 0 is no longer spendable: no read would return it.
      if (remaining > 0) balances.push(remaining === b.remaining ? b : { ...b, remaining });
    }
  }
  return { windows, quota, balances };
}

/** The rows of a kind once `drawn` (its appends, in order) count in every one of its windows. */
function drawnRows(kind: QuotaKind, rows: WindowRow[], drawn: ConsumeWrites['ledger']): WindowRow[] {
  let amount = 0;
  for (const l of drawn) amount += l.amount;
  const newestAt = drawn[drawn.length - 1]!.at;
  return windowRows(
    kind,
    rows.map((r) => ({ windowSeconds: r.windowSeconds, limit: r.limit })),
    rows.map((r) => {
      const ms = r.windowSeconds * 1000;
      // An appended row is never older than the window's start (ledger.ts: time never runs back).
      const oldestAt = r.used === 0 ? drawn[0]!.at : r.nextRecoveryAt === null ? null : r.nextRecoveryAt - ms;
      return { used: r.used + amount, oldestAt, newestAt };
    }),
  );
}
