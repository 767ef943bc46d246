// The history of a user's points (docs/points.md), pure: how a grant is worded, and how long
// movements are kept. Listing is newest first, by time then id.
import { type ChargeLine, publicLines } from './charges.ts';
import type { TransactionKind } from './model.ts';
import { MAX_WINDOW_SECONDS } from './windows.ts';

/** Movements are kept as long as the longest window (366 days); older ones are deleted `batch` at
 *  a time, about one movement in `every` (tests set it to 1). A refund names a transaction still
 *  kept. */
export const historyRetention = { ms: MAX_WINDOW_SECONDS * 1000, batch: 64, every: 8 };

/** The oldest time still kept at `now`. */
export function historyCutoff(now: number): number {
  return now - historyRetention.ms;
}

/** Whether a movement made at `at` is still kept at `now` (listed, refundable): from the cutoff on.
 *  The stores' SQL mirrors this with historyCutoff (`created_at >= cutoff` in pages and refunds,
 *  `created_at < cutoff` in what a prune deletes). */
export function keptInHistory(at: number, now: number): boolean {
  return at >= historyCutoff(now);
}

/** How a grant the service made is described in the history, from its source (materialise.ts);
 *  an operator's grant (`grant:<id>`) has no description. */
export function grantDescription(source: string): string | null {
  if (source === 'registration') return 'Registration credit';
  if (source.startsWith('free:')) return 'Free periodic grant';
  if (source.startsWith('sub:')) return 'Subscription grant';
  return null;
}

/** One movement of the history as a store writes it. Consumes and settlements keep their lines
 *  whole (ledger rows, refunds asked); other kinds keep what a client sees (storedLines). */
export interface Movement {
  id: string;
  kind: TransactionKind;
  amount: number;
  description: string | null;
  lines: ChargeLine[];
  relatedId: string | null;
}

/** The lines a movement is stored with. */
export function storedLines(m: Movement): ChargeLine[] {
  return m.kind === 'consume' || m.kind === 'settle' ? m.lines : publicLines(m.lines);
}

/** Whether writing this movement also drops movements older than the history keeps: one in
 *  `historyRetention.every`, by the random end of its id. */
export function prunesHistory(id: string): boolean {
  return id.charCodeAt(id.length - 1) % historyRetention.every === 0;
}
