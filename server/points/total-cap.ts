// A ceiling on what one user can hold. Every points figure travels as a JSON number, exact only up
// to 2^53−1 (RFC 8259 §6, I-JSON RFC 7493 §2.2): past it, a total would be silently rounded.
export const MAX_POINTS = Number.MAX_SAFE_INTEGER;

/** Why a grant of `amount` onto a spendable total of `total` is refused, or null. Both are safe
 *  integers ≥ 0, so `total + amount > MAX_POINTS` is decided exactly even where the sum rounds. */
export function grantOverCap(total: number, amount: number): string | null {
  if (total + amount <= MAX_POINTS) return null;
  return `would take the user's spendable total above ${MAX_POINTS} (it is ${total}; at most ${Math.max(0, MAX_POINTS - total)} more fits)`;
}

/** How much of a grant of `amount` fits on top of `total` (0 when nothing does). */
export function fittingAmount(total: number, amount: number): number {
  return Math.max(0, Math.min(amount, MAX_POINTS - total));
}

/** A grant the service makes by itself (registration credit, a free periodic or subscription
 *  period) is given in full when it fits on top of the user's other live balances (`others`), and
 *  otherwise cut down to what fits, possibly nothing (configured amounts that each fit can still
 *  add up past MAX_POINTS). `cutTo`: the amount to cut its balance to, null when it fits whole;
 *  `given`: what it gives, null when nothing (then no movement is written and no event sent). */
export function materialisedGrant(others: number, amount: number): { cutTo: number | null; given: number | null } {
  const fits = fittingAmount(others, amount);
  return { cutTo: fits < amount ? fits : null, given: fits > 0 ? fits : null };
}
