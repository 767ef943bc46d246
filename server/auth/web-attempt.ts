// Consuming a Sign in with Apple web attempt (apple-web.ts), pure: an attempt is used once, within
// its lifetime, whatever happens next. The store reads the attempt in one transaction, asks
// decideAttemptUse, and writes what it says.
import type { ConsumeWebAttemptResult, WebLoginAttempt } from './store.ts';

/** In this order: unknown; consumed already; expired; else `ok` with the attempt as consumed at
 *  `now` (the store marks it so). */
export function decideAttemptUse(attempt: WebLoginAttempt | null, now: number): ConsumeWebAttemptResult {
  if (!attempt) return { kind: 'refused', reason: 'unknown' };
  if (attempt.consumedAt !== null) return { kind: 'refused', reason: 'consumed' };
  if (attempt.expiresAt <= now) return { kind: 'refused', reason: 'expired' };
  return { kind: 'ok', attempt: { ...attempt, consumedAt: now } };
}
