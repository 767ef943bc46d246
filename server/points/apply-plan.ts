// From a consume plan to the writes that carry it out, pure (docs/points.md): window quota goes to the
// usage ledger of its kind, everything else (pools and fixed quota grants) is spent from its
// balance, and the transaction is recorded. A plan that cannot cover the amount is refused here,
// before anything is written: 409 insufficient_points with what the user has and needs.
import { GatehouseError } from '../errors.ts';
import { type ChargeLine, windowLine } from './charges.ts';
import type { ConsumePlan } from './consume.ts';
import { type LedgerAppend, type LedgerHead, ledgerAppend } from './ledger.ts';
import type { AllocationLine, ConsumeResult, QuotaKind } from './model.ts';
import { type QuotaState, spendableFromPool, spendableFromQuota, type UserPointsState } from './state.ts';

/** A consume as the store writes it down. */
export interface ConsumeRecord {
  transactionId: string;
  userId: string;
  amount: number;
  description: string | null;
}

export interface ConsumeWrites {
  /** Appends to the usage ledger, one per quota kind drawn, in plan order. */
  ledger: LedgerAppend[];
  /** Balances to draw from: `sourceId` is the balance, in plan order. */
  spends: AllocationLine[];
  /** The allocations with their ledger rows, as kept for giving points back. */
  lines: ChargeLine[];
  /** The answer, also what the transaction row and an idempotent replay hold. */
  result: ConsumeResult;
}

export function insufficientPoints(have: number, need: number): GatehouseError {
  return new GatehouseError('insufficient_points', `Not enough points: have ${have}, need ${need}`, { extra: { have, need } });
}

/** The writes of `plan` (planConsume over `st` at `now`); throws insufficient_points when the plan
 *  could not cover the amount. */
export function consumeWrites(c: ConsumeRecord, st: UserPointsState, plan: ConsumePlan, now: number): ConsumeWrites {
  if (!plan.ok) throw insufficientPoints(plan.have, c.amount);
  const ledger: LedgerAppend[] = [];
  const spends: AllocationLine[] = [];
  const lines: ChargeLine[] = [];
  for (const a of plan.allocations) {
    const q = quotaOf(st, a.sourceId);
    if (q === undefined) {
      spends.push(a);
      lines.push({ ...a });
      continue;
    }
    // A kind drawn twice in one plan appends after its own first row.
    const prev = lastOf(ledger, q.kind);
    const head: LedgerHead | undefined = prev ? { seq: prev.seq, cum: prev.cum, lastAt: prev.at, returned: q.head?.returned ?? 0 } : q.head;
    const row = ledgerAppend(q.kind, head, a.amount, now);
    ledger.push(row);
    lines.push(windowLine(a, row));
  }
  const quota = spendableFromQuota(st) - plan.fromQuota;
  const pool = spendableFromPool(st) - plan.fromPool;
  return {
    ledger,
    spends,
    lines,
    result: {
      transactionId: c.transactionId,
      userId: c.userId,
      amount: c.amount,
      allocations: plan.allocations,
      remaining: { quota, pool, total: quota + pool },
      createdAt: now,
    },
  };
}

function quotaOf(st: UserPointsState, sourceId: string): QuotaState | undefined {
  for (const q of st.quota) if (q.sourceId === sourceId) return q;
  return undefined;
}

function lastOf(ledger: LedgerAppend[], kind: QuotaKind): LedgerAppend | undefined {
  for (let i = ledger.length - 1; i >= 0; i--) if (ledger[i]!.kind === kind) return ledger[i];
  return undefined;
}
