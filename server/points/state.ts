// A user's live points at one moment, assembled from what a store read (pure). The store reads the
// active window entitlements, asks quotaBindings which windows bind and so which ledger seeks to
// make, reads the ledger heads, the seeks and the live balances, and hands them to userState.

import type { QuotaSource } from './consume.ts';
import type { LedgerHead } from './ledger.ts';
import { type Balance, QUOTA_KINDS, type QuotaKind, type QuotaWindow, type WindowEntitlement, type WindowRow } from './model.ts';
import { availableOf, bindingWindows, isActive, type WindowUsageFacts, windowRows } from './windows.ts';

/** A quota kind with active windows: the windows that bind it, and the entitlement its allocation
 *  lines name. */
export interface QuotaBinding {
  kind: QuotaKind;
  windows: QuotaWindow[];
  sourceId: string;
}

/** A quota kind's spendable quota, with the ledger head a consume appends after. */
export interface QuotaState extends QuotaSource {
  head: LedgerHead | undefined;
}

export interface UserPointsState {
  /** Window rows, subscription quota first, each kind's shortest window first. */
  windows: WindowRow[];
  quota: QuotaState[];
  /** Spendable balances (remaining > 0, not expired, not ended), in no particular order. */
  balances: Balance[];
}

/** The binding windows of each quota kind (subscription, then free periodic) at `now`. A kind's
 *  allocation lines name its earliest active entitlement (by start, then id). */
export function quotaBindings(entitlements: WindowEntitlement[], now: number): QuotaBinding[] {
  const out: QuotaBinding[] = [];
  for (const kind of QUOTA_KINDS) {
    const windows = bindingWindows(entitlements, kind, now);
    if (windows.length === 0) continue;
    let source: WindowEntitlement | undefined;
    for (const e of entitlements) {
      if (e.kind !== kind || !isActive(e, now)) continue;
      if (!source || e.startsAt < source.startsAt || (e.startsAt === source.startsAt && e.id < source.id)) source = e;
    }
    out.push({ kind, windows, sourceId: source!.id });
  }
  return out;
}

/** The state from quotaBindings' answer and, per binding, its ledger head and the usage of each of
 *  its windows (same order). */
export function userState(bindings: QuotaBinding[], heads: Array<LedgerHead | undefined>, usage: WindowUsageFacts[][], balances: Balance[]): UserPointsState {
  const windows: WindowRow[] = [];
  const quota: QuotaState[] = [];
  for (let i = 0; i < bindings.length; i++) {
    const b = bindings[i]!;
    const rows = windowRows(b.kind, b.windows, usage[i]!);
    for (const r of rows) windows.push(r);
    quota.push({ kind: b.kind, sourceId: b.sourceId, available: availableOf(rows), head: heads[i] });
  }
  return { windows, quota, balances };
}

/** What the user can spend now from window quota. */
export function spendableFromQuota(st: UserPointsState): number {
  let n = 0;
  for (const q of st.quota) n += q.available;
  return n;
}

/** What the user can spend now from balances (pools and fixed quota grants). */
export function spendableFromPool(st: UserPointsState): number {
  let n = 0;
  for (const b of st.balances) n += b.remaining;
  return n;
}
