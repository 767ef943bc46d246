// Window usage as a running-total ledger, pure (docs/points.md). Per (user, quota kind) a head holds
// the newest row's seq, cumulative total and time; each consume or hold appends a row. Without
// returns, used(W) = cum now − cum at the window's start: one index seek whatever the history
// length. `cum` is absolute, so pruning old rows never changes an answer.
//
// Quota that goes back (a hold settled below its amount, released or expired, a refund) goes back
// to the row it was drawn at, so every window answers as if less had been consumed at that time.
// The row's `returned` grows (a row given back whole is deleted: every row left still counts, and
// its amount, in the running totals and in the block sums alike, cancels out), and so do the sums
// of the aligned seq blocks holding it (RETURN_FANOUT rows, RETURN_FANOUT² rows, …): used(W) then
// subtracts what was returned to rows inside the window,
// summed over at most RETURN_LEVELS + 1 block ranges (returnRanges) — the cost follows the number
// of rows in the window logarithmically, never the length of the history.

import type { QuotaKind } from './model.ts';
import { MAX_WINDOW_SECONDS, type WindowUsageFacts } from './windows.ts';

export interface LedgerHead {
  /** seq of the newest row; 0 before any consume. */
  seq: number;
  /** Running total at the newest row. */
  cum: number;
  /** Time of the newest row. */
  lastAt: number;
  /** Everything ever returned to the kind's rows: 0 spares every seek of returnRanges. */
  returned: number;
}

/** A ledger row as read back: its time, seq, running total and own amount. */
export interface LedgerRow {
  at: number;
  seq: number;
  cum: number;
  amount: number;
}

/** Pruning: about `batch` rows (those sharing the last one's millisecond go with it), every `every`
 *  appends of a (user, kind). History is kept for the longest window there can be (366 days), so a
 *  window granted at any time sees everything consumed inside it.
 *  Tests set `every` to 1 and `retentionMs` lower to prune as eagerly as they need. */
export const ledgerPruning = { every: 16, batch: 512, retentionMs: MAX_WINDOW_SECONDS * 1000 };

/** Which rows a prune deletes: those at or before `cutoff`, about `batch` of them, oldest first. */
export interface LedgerPrune {
  cutoff: number;
  batch: number;
}

/** One consume from a quota kind, as the ledger records it. */
export interface LedgerAppend {
  kind: QuotaKind;
  at: number;
  seq: number;
  amount: number;
  cum: number;
  /** No head existed for (user, kind): the store creates it before the update. */
  createsHead: boolean;
  prune: LedgerPrune | null;
}

const NO_USAGE: WindowUsageFacts = Object.freeze({ used: 0, oldestAt: null, newestAt: null });

/** Nothing was ever consumed from the kind: every window's usage is 0 without reading a row. */
export function ledgerIsEmpty(head: LedgerHead | undefined): boolean {
  return head === undefined || head.seq === 0;
}

/** The seq of the last row before a window's start: just before the first row after the start,
 *  or the head's when no row is after it (undefined `first`). Rows after it are those of the
 *  window. */
export function seqBeforeWindow(head: LedgerHead, first: LedgerRow | undefined): number {
  return first ? first.seq - 1 : head.seq;
}

/** Usage of a window from the head, the first row after its start (`first`, undefined when there
 *  is none), `returnedInside` (the sum over returnRanges(seqBeforeWindow(…), head.seq), 0 when
 *  head.returned is 0) and, when asked for, the times of the oldest and newest rows inside the
 *  window with something left after returns.
 *
 *  The first row after the start answers alone: cum at the start is its cum less its own amount.
 *  A row is appended at its head's cum plus its amount, never at an earlier time than the row
 *  before it (ledgerAppend), so that is the cum of every row before it in seq; rows between the
 *  last one left at or before the start and it can only have been given back whole (deleted, a
 *  prune takes the oldest rows first), and returnedAfter counts their returns from that seq on
 *  as it counts the rows' amounts. With no row after the start, every row after the last one at
 *  or before it was given back whole: nothing is used. */
export function windowUsage(
  head: LedgerHead | undefined,
  first: LedgerRow | undefined,
  returnedInside: number,
  times: { oldestAt: number | null; newestAt: number | null } | null,
): WindowUsageFacts {
  if (head === undefined || head.seq === 0) return NO_USAGE;
  const cumAt = first ? first.cum - first.amount : head.cum;
  const used = head.cum - cumAt - returnedInside;
  if (used === 0) return NO_USAGE;
  return { used, oldestAt: times?.oldestAt ?? null, newestAt: times?.newestAt ?? null };
}

/** What a store reads of one window's ledger beyond the head, the window named by `q` (the store's
 *  own: a reader is made once and asked of each window, no closures per call on the hot path).
 *  windowFacts asks each only when the rules need it: SQLite seeks on demand; PostgreSQL has read
 *  them all in one statement (seeksSql there mirrors seqBeforeWindow for `returnedAfter`). */
export interface WindowReads<Q> {
  /** The first row after the window's start. */
  first(q: Q): LedgerRow | undefined;
  /** Everything returned to the kind's rows after seq `s` (the sum over returnRanges(s, head.seq)). */
  returnedAfter(q: Q, s: number): number;
  /** When the newest row left was written (null: none). */
  newestAt(q: Q): number | null;
}

/** One window's usage (windowUsage) and which ledger facts it takes: none when nothing was ever
 *  consumed from the kind; else the first row after the start; what was returned inside only
 *  once quota has gone back to the kind; and, with the times, the newest row's time, the head's
 *  unless quota went back (a row given back whole is deleted). */
export function windowFacts<Q>(head: LedgerHead | undefined, withTimes: boolean, read: WindowReads<Q>, q: Q): WindowUsageFacts {
  if (head === undefined || ledgerIsEmpty(head)) return NO_USAGE;
  const first = read.first(q);
  const returns = head.returned > 0;
  const inside = returns ? read.returnedAfter(q, seqBeforeWindow(head, first)) : 0;
  if (!withTimes) return windowUsage(head, first, inside, null);
  return windowUsage(head, first, inside, { oldestAt: first?.at ?? null, newestAt: returns ? read.newestAt(q) : head.lastAt });
}

/** Records `amount` consumed from `kind` at `now` after `head`. Time never runs backwards in the
 *  ledger (a clock step back must not reorder it). */
export function ledgerAppend(kind: QuotaKind, head: LedgerHead | undefined, amount: number, now: number): LedgerAppend {
  const h = head ?? { seq: 0, cum: 0, lastAt: 0, returned: 0 };
  const seq = h.seq + 1;
  return { kind, at: Math.max(now, h.lastAt), seq, amount, cum: h.cum + amount, createsHead: head === undefined, prune: pruneAfter(seq, now) };
}

/** Rows every window has left behind are no longer needed; they are deleted every
 *  `ledgerPruning.every` appends, about a batch at a time. */
export function pruneAfter(seq: number, now: number): LedgerPrune | null {
  if (seq % ledgerPruning.every !== 0) return null;
  return { cutoff: now - ledgerPruning.retentionMs, batch: ledgerPruning.batch };
}

/** Rows per block at each level: a block of level L holds the seqs [idx·16^L, (idx + 1)·16^L). */
export const RETURN_FANOUT = 16;
/** Block levels above the rows themselves (level 0 is one row): 16^5 ≈ 1M rows a top block. */
export const RETURN_LEVELS = 5;

/** One block sum a store keeps: everything returned to the rows of block `idx` at `level`. */
export interface ReturnBlock {
  level: number;
  idx: number;
}

/** A range of blocks of one level whose sums a store adds up. */
export interface ReturnRange {
  level: number;
  from: number;
  to: number;
}

/** The blocks a return to the row `seq` adds to, level 0 (the row) first. */
export function returnBlocks(seq: number): ReturnBlock[] {
  const out: ReturnBlock[] = [];
  let idx = seq;
  for (let level = 0; level <= RETURN_LEVELS; level++) {
    out.push({ level, idx });
    idx = Math.floor(idx / RETURN_FANOUT);
  }
  return out;
}

/** The block ranges whose sums add up to everything returned to the rows after seq `s`, up to the
 *  newest row `headSeq`: at each level the blocks up to the next whole parent, then the parents.
 *  A block past `headSeq` holds nothing, so the newest block of a level needs no completing. */
export function returnRanges(s: number, headSeq: number): ReturnRange[] {
  const out: ReturnRange[] = [];
  let lo = s + 1;
  let hi = headSeq;
  for (let level = 0; lo <= hi; level++) {
    if (level === RETURN_LEVELS) {
      out.push({ level, from: lo, to: hi });
      break;
    }
    const parentLo = Math.ceil(lo / RETURN_FANOUT);
    const parentHi = Math.floor(hi / RETURN_FANOUT);
    if (parentLo > parentHi) {
      out.push({ level, from: lo, to: hi });
      break;
    }
    if (lo < parentLo * RETURN_FANOUT) out.push({ level, from: lo, to: parentLo * RETURN_FANOUT - 1 });
    lo = parentLo;
    hi = parentHi;
  }
  return out;
}

/** Per level, the first block idx still needed once every row before `firstSeq` is pruned: blocks
 *  below it (wholly before the oldest row kept) can go. */
export function prunableReturnBlocks(firstSeq: number): number[] {
  const out: number[] = [];
  let idx = firstSeq;
  for (let level = 0; level <= RETURN_LEVELS; level++) {
    out.push(idx);
    idx = Math.floor(idx / RETURN_FANOUT);
  }
  return out;
}
