// Window usage as a running-total ledger, pure. Per (user, quota kind) a head holds the newest row's
// seq, cumulative total and time; each consume appends a row. used(W) = cum now − cum at the
// window's start, so a window's usage costs two index seeks whatever the history length
// (docs/points.md: exact, and its cost does not grow with history). `cum` is absolute, so pruning old rows never
// changes an answer.
import type { QuotaKind } from './model.ts';
import type { WindowUsageFacts } from './windows.ts';

export interface LedgerHead {
  /** seq of the newest row; 0 before any consume. */
  seq: number;
  /** Running total at the newest row. */
  cum: number;
  /** Time of the newest row. */
  lastAt: number;
  /** Longest window ever snapshotted for (user, kind), in ms: the history its windows need. */
  retentionMs: number;
}

/** A ledger row as read back: its time, running total and own amount. */
export interface LedgerRow {
  at: number;
  cum: number;
  amount: number;
}

/** Pruning: about `batch` rows (those sharing the last one's millisecond go with it), every `every`
 *  consumes of a (user, kind). History is kept for the longest window the user ever held for the
 *  kind, and never less than `minRetentionMs` (31 days), so a newly granted window of up to a month
 *  still sees everything consumed in it.
 *  Tests set `every` to 1 and `minRetentionMs` to 0 to prune as eagerly as the rules allow. */
export const ledgerPruning = { every: 16, batch: 512, minRetentionMs: 31 * 86_400_000 };

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
  /** No head existed for (user, kind): the store creates it (retention 0) before the update. */
  createsHead: boolean;
  prune: LedgerPrune | null;
}

const NO_USAGE: WindowUsageFacts = Object.freeze({ used: 0, oldestAt: null, newestAt: null });

/** Nothing was ever consumed from the kind: every window's usage is 0 without reading a row. */
export function ledgerIsEmpty(head: LedgerHead | undefined): boolean {
  return head === undefined || head.seq === 0;
}

/** Usage of a window from the head and two seeks around the window's start (windowStart):
 *  `before` = cum of the last row at or before it (undefined when none is left: pruned, or never),
 *  `first` = the first row after it (undefined when there is none or it was not read). Without
 *  `first`, the oldest consume time inside the window is unknown (null). */
export function windowUsage(head: LedgerHead | undefined, before: number | undefined, first: LedgerRow | undefined): WindowUsageFacts {
  if (head === undefined || head.seq === 0) return NO_USAGE;
  // cum at the start: the last row at or before it, else (pruned or never) just before the first row after it.
  const cumAt = before !== undefined ? before : first ? first.cum - first.amount : head.cum;
  const used = head.cum - cumAt;
  if (used === 0) return NO_USAGE;
  return { used, oldestAt: first ? first.at : null, newestAt: head.lastAt };
}

/** Records `amount` consumed from `kind` at `now` after `head`. Time never runs backwards in the
 *  ledger (a clock step back must not reorder it). */
export function ledgerAppend(kind: QuotaKind, head: LedgerHead | undefined, amount: number, now: number): LedgerAppend {
  const h = head ?? { seq: 0, cum: 0, lastAt: 0, retentionMs: 0 };
  const seq = h.seq + 1;
  return { kind, at: Math.max(now, h.lastAt), seq, amount, cum: h.cum + amount, createsHead: head === undefined, prune: pruneAfter(seq, h.retentionMs, now) };
}

/** Rows every window the user ever held for the kind has left behind are no longer needed; they
 *  are deleted every `ledgerPruning.every` appends, about a batch at a time. */
export function pruneAfter(seq: number, retentionMs: number, now: number): LedgerPrune | null {
  if (seq % ledgerPruning.every !== 0) return null;
  return { cutoff: now - Math.max(retentionMs, ledgerPruning.minRetentionMs), batch: ledgerPruning.batch };
}
