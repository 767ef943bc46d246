// Consume planning, pure (docs/points.md): window quota
// first (subscription, then free periodic), then balances by earliest expiry, never-expiring last,
// then oldest first, then by kind (paid points last). All or nothing: either allocations covering the whole amount, or what the user
// has.
import type { AllocationLine, Balance, CreditKind, QuotaKind } from './model.ts';

export interface QuotaSource {
  kind: QuotaKind;
  /** The window entitlement the allocation line names. */
  sourceId: string;
  available: number;
}

export type ConsumePlan = { ok: true; allocations: AllocationLine[]; fromQuota: number; fromPool: number } | { ok: false; have: number };

const QUOTA_ORDER: Record<QuotaKind, number> = { subscription_credit: 0, free_periodic_credit: 1 };

/** Balances of the same expiry and age are drawn in this order, paid points last (docs/points.md). */
export const KIND_ORDER: Record<CreditKind, number> = {
  subscription_credit: 0,
  free_periodic_credit: 1,
  granted_credit: 2,
  registration_credit: 3,
  topup_credit: 4,
};

/** Spendable balances in consume order. */
export function balanceOrder(balances: Balance[], now: number): Balance[] {
  return balances
    .filter((b) => b.remaining > 0 && (b.expiresAt === null || now < b.expiresAt))
    .sort((a, b) => {
      const ea = a.expiresAt ?? Infinity;
      const eb = b.expiresAt ?? Infinity;
      if (ea !== eb) return ea - eb;
      if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt;
      if (a.kind !== b.kind) return KIND_ORDER[a.kind] - KIND_ORDER[b.kind];
      return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    });
}

export function planConsume(amount: number, quota: QuotaSource[], balances: Balance[], now: number): ConsumePlan {
  const sources = [...quota].filter((q) => q.available > 0).sort((a, b) => QUOTA_ORDER[a.kind] - QUOTA_ORDER[b.kind]);
  const pool = balanceOrder(balances, now);
  const have = sources.reduce((s, q) => s + q.available, 0) + pool.reduce((s, b) => s + b.remaining, 0);
  if (have < amount) return { ok: false, have };
  const allocations: AllocationLine[] = [];
  let left = amount;
  let fromQuota = 0;
  for (const q of sources) {
    if (left === 0) break;
    const take = Math.min(left, q.available);
    allocations.push({ creditKind: q.kind, sourceId: q.sourceId, amount: take });
    fromQuota += take;
    left -= take;
  }
  for (const b of pool) {
    if (left === 0) break;
    const take = Math.min(left, b.remaining);
    allocations.push({ creditKind: b.kind, sourceId: b.id, amount: take });
    left -= take;
  }
  return { ok: true, allocations, fromQuota, fromPool: amount - fromQuota };
}
