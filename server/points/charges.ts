// What a consume, hold or settlement drew, line by line, as kept for giving it back (docs/points.md),
// pure. A quota line remembers the ledger row it was recorded at, so what goes back returns to the
// windows exactly at the original time; a balance line names its balance. Points go back last-drawn
// first, so what stays charged is always what a smaller draw at the same moment would have taken.
import type { LedgerAppend } from './ledger.ts';
import type { AllocationLine } from './model.ts';

/** An allocation line with where it was recorded and how much of it has gone back. */
export interface ChargeLine extends AllocationLine {
  /** The ledger row of window quota (its time and seq); absent on a balance's line (a fixed quota
   *  grant's too), and on window quota drawn before lines kept their rows, which cannot go back. */
  at?: number;
  seq?: number;
  /** What has gone back of it (refunds count what they asked of it, returned or not). */
  refunded?: number;
}

/** A line of window quota, drawn at a ledger row. */
export function isWindowLine(l: ChargeLine): l is ChargeLine & { at: number; seq: number } {
  return l.seq !== undefined && l.at !== undefined;
}

/** A line of window quota, with the ledger row appended for it. */
export function windowLine(a: AllocationLine, row: LedgerAppend): ChargeLine {
  // Named fields, not a spread: one shape, built without copying by enumeration (every consume).
  return { creditKind: a.creditKind, sourceId: a.sourceId, amount: a.amount, at: row.at, seq: row.seq };
}

/** Points going back to one line's source. */
export interface LineReturn {
  line: ChargeLine;
  amount: number;
}

/** Where points going back go: quota to the ledger row its line was drawn at (`rows`), the rest to
 *  the balance its line names (`balances`; a window entitlement's id there is quota drawn before
 *  lines kept their rows, which matches no balance and so takes nothing). A share of 0 goes nowhere. */
export function returnTargets(returns: readonly LineReturn[]): {
  rows: Array<{ line: ChargeLine & { at: number; seq: number }; amount: number }>;
  balances: LineReturn[];
} {
  const rows: Array<{ line: ChargeLine & { at: number; seq: number }; amount: number }> = [];
  const balances: LineReturn[] = [];
  for (const r of returns) {
    if (r.amount === 0) continue;
    const line = r.line;
    if (isWindowLine(line)) rows.push({ line, amount: r.amount });
    else balances.push(r);
  }
  return { rows, balances };
}

/** The allocation lines a client sees. */
export function publicLines(lines: readonly ChargeLine[]): AllocationLine[] {
  return lines.map((l) => ({ creditKind: l.creditKind, sourceId: l.sourceId, amount: l.amount }));
}

/** What is left of `lines` once `amount` goes back last-drawn first, and what goes back to which
 *  line. `amount` must not exceed the lines' total. */
export function giveBackLastFirst(lines: readonly ChargeLine[], amount: number): { kept: ChargeLine[]; returns: LineReturn[] } {
  const kept = lines.map((l) => ({ ...l }));
  const returns: LineReturn[] = [];
  let left = amount;
  for (let i = kept.length - 1; i >= 0 && left > 0; i--) {
    const l = kept[i]!;
    const take = Math.min(l.amount, left);
    returns.push({ line: lines[i]!, amount: take });
    l.amount -= take;
    left -= take;
  }
  return { kept: kept.filter((l) => l.amount > 0), returns };
}
