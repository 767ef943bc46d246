// A user's points summary (docs/points.md), pure: balances by kind, the window rows, what can be
// spent from quota and from balances, and what open holds keep aside.
import type { BalanceTotals, CreditKind, OpenHolds, PointsSummary, Remaining } from './model.ts';
import { spendableFromPool, spendableFromQuota, type UserPointsState } from './state.ts';

const FIELD: Record<CreditKind, keyof BalanceTotals> = {
  topup_credit: 'topup',
  registration_credit: 'registration',
  granted_credit: 'granted',
  subscription_credit: 'subscription',
  free_periodic_credit: 'freePeriodic',
};

export function summarise(userId: string, st: UserPointsState, holds: OpenHolds): PointsSummary {
  const balances: BalanceTotals = { topup: 0, registration: 0, granted: 0, subscription: 0, freePeriodic: 0 };
  for (const b of st.balances) balances[FIELD[b.kind]] += b.remaining;
  const fromQuota = spendableFromQuota(st);
  const fromPool = spendableFromPool(st);
  return {
    userId,
    balances,
    windows: st.windows,
    spendableFromQuota: fromQuota,
    spendableFromPool: fromPool,
    total: fromQuota + fromPool,
    held: holds.held,
    holdCount: holds.count,
    holds: holds.soonest.map((h) => ({ holdId: h.holdId, amount: h.amount, expiresAt: h.expiresAt })),
  };
}

/** What the user can spend. */
export function remainingOf(st: UserPointsState): Remaining {
  const quota = spendableFromQuota(st);
  const pool = spendableFromPool(st);
  return { quota, pool, total: quota + pool };
}
