// When a balance counts (docs/points.md): one rule for every read of a user's balances, pure.

/** When a balance ends taking points: its expiry and the instant it was ended (null: not yet). */
export interface BalanceLife {
  expiresAt: number | null;
  endedAt: number | null;
}

/** A balance is live at `now` while it has neither been ended nor expired; it has expired at
 *  `expiresAt` itself. The stores' SQL mirrors this where it selects live balances (the state read,
 *  the sum a materialised grant is cut against) as `ended_at IS NULL AND (expires_at IS NULL OR
 *  expires_at > now)`; the storage contract checks both backends at the instant of expiry. */
export function balanceIsLive(b: BalanceLife, now: number): boolean {
  return b.endedAt === null && (b.expiresAt === null || b.expiresAt > now);
}
