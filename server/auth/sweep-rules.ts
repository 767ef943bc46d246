// What the periodic sweep (sweep.ts) may delete: login state that can never be used again. Pure;
// the store's delete statements are built from SWEEP_RULES and select exactly what `sweepable`
// accepts (an expiry at or before the sweep's `now`, the same `expiresAt <= now` every use tests).
import type { SweepKind } from './store.ts';

export interface SweepRule {
  /** Every row goes once expired; true: also as soon as it is used (consumed), before that. */
  goesOnceUsed: boolean;
}

export const SWEEP_RULES: Readonly<Record<SweepKind, SweepRule>> = Object.freeze({
  // A consumed transaction can never issue another code (authorize-transaction.ts).
  transactions: { goesOnceUsed: true },
  // A used code stays until it expires: a replay within its lifetime must still find it and
  // revoke the family issued from it (code-exchange.ts).
  codes: { goesOnceUsed: false },
  // A consumed attempt is refused like an unknown one (web-attempt.ts).
  webAttempts: { goesOnceUsed: true },
  // A family goes whole, with its refresh tokens, once its last token has lapsed
  // (family-lifetime.ts): a rotated token must be recognised as reused while its family lives.
  families: { goesOnceUsed: false },
  // Processed Apple notification jtis, kept 30 days (apple-notification.ts): a replay within them
  // must find its jti.
  appleNotifications: { goesOnceUsed: false },
});

/** Whether a row of `kind` may be deleted at `now`. `expiresAt` null: no expiry recorded (a family
 *  stored before expiries were), never swept. `usedAt`: when it was consumed or used, or null. */
export function sweepable(kind: SweepKind, row: { expiresAt: number | null; usedAt: number | null }, now: number): boolean {
  return (row.expiresAt !== null && row.expiresAt <= now) || (SWEEP_RULES[kind].goesOnceUsed && row.usedAt !== null);
}
