// A grant of pool points by an operator (docs/points.md), pure: the balance it adds and its answer.
// Refused (400 naming `amount`) when it would take the user's spendable total past MAX_POINTS.
import { badRequest } from '../errors.ts';
import type { BalanceGrant } from './materialise.ts';
import type { GrantResult } from './model.ts';
import { spendableFromPool, spendableFromQuota, type UserPointsState } from './state.ts';
import type { GrantCommand } from './store.ts';
import { grantOverCap } from './total-cap.ts';

export interface GrantWrites {
  /** The balance to insert, under the id `result.grantId`. */
  balance: BalanceGrant;
  result: GrantResult;
}

export function grantWrites(cmd: GrantCommand, st: UserPointsState, now: number): GrantWrites {
  const over = grantOverCap(spendableFromQuota(st) + spendableFromPool(st), cmd.amount);
  if (over) throw badRequest(`amount: ${over}`, { field: 'amount' });
  return {
    balance: { form: 'balance', kind: cmd.kind, amount: cmd.amount, expiresAt: cmd.expiresAt, source: `grant:${cmd.grantId}` },
    result: { grantId: cmd.grantId, userId: cmd.userId, kind: cmd.kind, amount: cmd.amount, expiresAt: cmd.expiresAt, createdAt: now },
  };
}
