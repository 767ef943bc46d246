// Holds (docs/points.md), pure: a hold draws like a consume and stays open until settled, released,
// or its expiresAt passes — from then on it reads as released by itself (`expired`), whether or not
// a store has recorded it yet. Settling below the held amount gives the difference back last-drawn
// first; above it, the extra is drawn at settle time like a consume.
import { GatehouseError } from '../errors.ts';
import { type ChargeLine, giveBackLastFirst, type LineReturn, publicLines } from './charges.ts';
import type { HoldFields, HoldResult, Remaining } from './model.ts';
import type { HoldCommand } from './store.ts';

/** How far a user's open holds go: each is a row every summary counts and sums, so a user cannot
 *  open them without bound; a summary lists the few soonest to expire and counts the rest. */
export const HOLD_LIMITS = { openPerUser: 1000, listed: 20 } as const;

/** A new hold needs room among the user's `open` holds (those past their expiresAt are released
 *  and count no more): 409 too_many_holds at HOLD_LIMITS.openPerUser. */
export function assertHoldRoom(open: number): void {
  if (open >= HOLD_LIMITS.openPerUser)
    throw new GatehouseError(
      'too_many_holds',
      `The user has ${HOLD_LIMITS.openPerUser} open holds, the most allowed: settle or release one first, or let one expire`,
      { extra: { limit: HOLD_LIMITS.openPerUser } },
    );
}

/** A hold as stored: an open one past expiresAt is still `open` here until a store expires it. */
export interface StoredHold extends HoldFields {
  realmId: string;
  lines: ChargeLine[];
}

/** A hold opened at `now` over the lines its draw took: open until `ttlSeconds` from now. */
export function openHold(cmd: HoldCommand, lines: ChargeLine[], now: number): StoredHold {
  return {
    holdId: cmd.holdId,
    realmId: cmd.realmId,
    userId: cmd.userId,
    amount: cmd.amount,
    lines,
    status: 'open',
    description: cmd.description,
    createdAt: now,
    expiresAt: now + cmd.ttlSeconds * 1000,
    settledAmount: null,
    closedAt: null,
  };
}

/** Holds released by themselves once `expiresAt` has come. The stores' SQL mirrors this where it
 *  selects due holds (`status = 'open' AND expires_at <= now`) and open ones (its negation). */
export function isDue(h: StoredHold, now: number): boolean {
  return h.status === 'open' && h.expiresAt <= now;
}

/** The hold as it stands at `now`. */
export function holdAt(h: StoredHold, now: number): StoredHold {
  return isDue(h, now) ? { ...h, status: 'expired', closedAt: h.expiresAt } : h;
}

/** Everything a hold drew goes back (release, expiry). */
export function releaseAll(h: StoredHold): LineReturn[] {
  return giveBackLastFirst(h.lines, h.amount).returns;
}

/** Settle and release act on open holds only: 409 hold_expired past expiresAt, hold_closed once
 *  settled or released. */
export function assertOpen(h: StoredHold, now: number): void {
  const status = holdAt(h, now).status;
  if (status === 'expired')
    throw new GatehouseError('hold_expired', `Hold ${h.holdId} expired at ${new Date(h.expiresAt).toISOString()}`, { extra: { holdId: h.holdId } });
  if (status !== 'open') throw new GatehouseError('hold_closed', `Hold ${h.holdId} is already ${status}`, { extra: { holdId: h.holdId, status } });
}

/** A settlement of `amount`: the held lines kept and what goes back (below or equal), or the extra
 *  to draw now (above); its movement is described by the settlement's own description, else by
 *  the hold's. */
export function settleDecision(
  h: StoredHold,
  amount: number,
  description: string | null,
): { kept: ChargeLine[]; returns: LineReturn[]; extra: number; description: string | null } {
  const described = description ?? h.description;
  if (amount >= h.amount) return { kept: h.lines.map((l) => ({ ...l })), returns: [], extra: amount - h.amount, description: described };
  return { ...giveBackLastFirst(h.lines, h.amount - amount), extra: 0, description: described };
}

/** The answer for a hold at `now`. */
export function holdResult(h: StoredHold, remaining: Remaining, now: number): HoldResult {
  const a = holdAt(h, now);
  return {
    holdId: a.holdId,
    userId: a.userId,
    amount: a.amount,
    allocations: publicLines(a.lines),
    status: a.status,
    description: a.description,
    createdAt: a.createdAt,
    expiresAt: a.expiresAt,
    settledAmount: a.settledAmount,
    closedAt: a.closedAt,
    remaining,
  };
}
