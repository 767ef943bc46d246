// grant_type=refresh_token's decision (RFC 6749 §6), pure: every use rotates the token, and a
// rotated token that comes back revokes its whole family — whoever holds the successor loses it
// too, since the server cannot tell the thief from the owner (RFC 6819 §5.2.2.3). The store reads
// the token and its family in one transaction, asks decideRotation, and writes what it says.
import type { GatehouseEvent } from '../events/model.ts';
import { familyExpiresAt, type RevocationReason, sessionRevokedEvent } from './family-lifetime.ts';
import type { NewRefreshToken, RefreshTokenRecord, RotateResult, TokenFamily } from './store.ts';

/** A RotateResult (what the caller gets) with what the store must write for it. */
export type RotationDecision =
  | Exclude<RotateResult, { kind: 'ok' | 'reused' }>
  /** Revoke `family` (the result already shows it revoked) for `reason`, with its `events`. */
  | { kind: 'reused'; family: TokenFamily; reason: RevocationReason; events: GatehouseEvent[] }
  /** Mark the token rotated, store `next` in the family and extend the family to `familyExpiresAt`. */
  | { kind: 'ok'; family: TokenFamily; next: NewRefreshToken; familyExpiresAt: number };

/** In this order: an unknown token; a revoked family (nothing changes, whatever the token); a
 *  rotated token (reuse: revoke the family); an expired one; `check`'s refusal (wrong realm,
 *  client or IP: nothing changes); else rotate to `next(family)`. `storedExpiry` is the family's
 *  stored expiry (null before the family had one). */
export function decideRotation(
  token: RefreshTokenRecord | null,
  family: TokenFamily | null,
  storedExpiry: number | null,
  now: number,
  check: (f: TokenFamily) => string | null,
  next: (f: TokenFamily) => NewRefreshToken,
): RotationDecision {
  if (!token || !family) return { kind: 'unknown' };
  if (family.revokedAt !== null) return { kind: 'revoked' };
  if (token.rotatedAt !== null) {
    return {
      kind: 'reused',
      family: { ...family, revokedAt: now },
      reason: 'refresh_token_reused',
      events: [sessionRevokedEvent(family, 'refresh_reuse', now)],
    };
  }
  if (token.expiresAt <= now) return { kind: 'expired' };
  const refusal = check(family);
  if (refusal) return { kind: 'refused', reason: refusal };
  const n = next(family);
  return { kind: 'ok', family, next: n, familyExpiresAt: familyExpiresAt(family, n, now, storedExpiry) };
}
