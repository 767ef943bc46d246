// grant_type=authorization_code's decision (RFC 6749 §4.1.3), pure: a code is used once, and a
// code used again is refused and revokes the family issued from it (RFC 6749 §4.1.2). The store
// reads the code (and, once used, its family) in one transaction, asks decideCodeExchange, and
// writes what it says.
import { familyExpiresAt, type RevocationReason, revocationApplies } from './family-lifetime.ts';
import type { AuthorizationCode, ExchangeCodeResult, NewRefreshToken, TokenFamily } from './store.ts';

/** An ExchangeCodeResult (what the caller gets) with what the store must write for it. */
export type CodeExchangeDecision =
  | Exclude<ExchangeCodeResult, { kind: 'ok' | 'replayed' }>
  /** Revoke the family `revoke` names (null: none to revoke) for `reason`. */
  | { kind: 'replayed'; revoke: string | null; reason: RevocationReason }
  /** Store `family` with its first `refresh` token, lasting until `familyExpiresAt`, and mark the
   *  code used by it. */
  | { kind: 'ok'; code: AuthorizationCode; family: TokenFamily; refresh: NewRefreshToken; familyExpiresAt: number };

/** In this order: an unknown code; a used one (replay: revoke the family issued from it, given as
 *  `issued`, unless revoked already); `check`'s refusal (nothing changes); else the family `make`
 *  drafts. */
export function decideCodeExchange(
  code: AuthorizationCode | null,
  issued: TokenFamily | null,
  check: (c: AuthorizationCode) => string | null,
  make: (c: AuthorizationCode) => { family: TokenFamily; refresh: NewRefreshToken },
): CodeExchangeDecision {
  if (!code) return { kind: 'unknown' };
  if (code.usedAt !== null) {
    return { kind: 'replayed', revoke: issued && revocationApplies(issued) ? issued.id : null, reason: 'authorization_code_replayed' };
  }
  const refusal = check(code);
  if (refusal) return { kind: 'refused', reason: refusal };
  const { family, refresh } = make(code);
  return { kind: 'ok', code, family, refresh, familyExpiresAt: familyExpiresAt(family, refresh, family.createdAt) };
}
