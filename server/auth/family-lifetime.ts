// A token family's lifetime and revocation, pure: the store writes what these say.
import type { NewRefreshToken, TokenFamily } from './store.ts';

/** Why a family was revoked, as stored with it. */
export type RevocationReason = 'revoked' | 'refresh_token_reused' | 'authorization_code_replayed';

/** When the family's last token lapses, given the refresh token just issued at `issuedAt` (with an
 *  access token of the family's lifetime), never before `stored` (what it was until now; null for
 *  a new family): the sweep deletes the family after that (sweep-rules.ts). */
export function familyExpiresAt(f: TokenFamily, refresh: NewRefreshToken, issuedAt: number, stored: number | null = null): number {
  return Math.max(stored ?? 0, refresh.expiresAt, issuedAt + f.accessTtlS * 1000);
}

/** A session (token family) is live at `now` until it is revoked or its expiry (familyExpiresAt)
 *  comes: at that instant its last token has lapsed, and the sweep may delete it (sweep-rules.ts).
 *  The stores' SQL mirrors this (`revoked_at IS NULL AND expires_at > now`) where it reads the
 *  access-token lifetimes of a realm's live sessions (signing-key rotation) and where it ends a
 *  disabled client's live sessions. */
export function sessionIsLive(f: { revokedAt: number | null; expiresAt: number }, now: number): boolean {
  return f.revokedAt === null && f.expiresAt > now;
}

/** Whether revoking `f` changes it: a family is revoked once, and a later revocation (another
 *  replay, an RFC 7009 call) keeps the first one's time and reason. */
export function revocationApplies(f: Pick<TokenFamily, 'revokedAt'>): boolean {
  return f.revokedAt === null;
}

/** `session.revoked` for the family: events/plan.ts has it, where the admin concern reads it too. */
export { sessionRevokedEvent } from '../events/plan.ts';
