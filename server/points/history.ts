// The history of a user's points (docs/points.md), pure: how a grant is worded, and how long
// movements are kept. Listing is newest first, by time then id.
import { MAX_WINDOW_SECONDS } from './windows.ts';

/** Movements are kept as long as the longest window (366 days); older ones are deleted `batch` at
 *  a time, about one movement in `every` (tests set it to 1). A refund names a transaction still
 *  kept. */
export const historyRetention = { ms: MAX_WINDOW_SECONDS * 1000, batch: 64, every: 8 };

/** The oldest time still kept at `now`. */
export function historyCutoff(now: number): number {
  return now - historyRetention.ms;
}

/** How a grant the service made is described in the history, from its source (materialise.ts);
 *  an operator's grant (`grant:<id>`) has no description. */
export function grantDescription(source: string): string | null {
  if (source === 'registration') return 'Registration credit';
  if (source.startsWith('free:')) return 'Free periodic grant';
  if (source.startsWith('sub:')) return 'Subscription grant';
  return null;
}
