// What differs between identity providers on the native path: the issuer and the email rule
// (native-idp-login.md, What the service does 7). Everything else is one code path.
import type { IdTokenClaims } from '../id-token.ts';

export interface EmailFacts {
  /** The email the token carries (normalised), or null. */
  email: string | null;
  /** The provider asserts the address is verified. */
  verified: boolean;
  /** The email may be used to match (and link) an existing account. */
  linkable: boolean;
}

export interface NativeProvider {
  kind: 'apple' | 'google';
  issuers: string[];
  jwksUrl: string;
  emailFacts(claims: IdTokenClaims): EmailFacts;
}

/** Providers send `email_verified` as a boolean or as the string "true". */
export function claimTrue(v: unknown): boolean {
  return v === true || v === 'true';
}

export function claimEmail(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const e = v.trim().toLowerCase();
  return e.length > 0 && e.length <= 320 && /^[^\s@]+@[^\s@]+$/.test(e) ? e : null;
}
