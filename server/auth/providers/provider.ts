// What differs between identity providers on the native path: the issuer and the email rule
// (native-idp-login.md, What the service does 7). Everything else is one code path.
import type { IdTokenClaims } from '../id-token.ts';

export interface EmailFacts {
  /** The email the token carries (normalised) and the provider lets us use, or null. A non-null
   *  email is stored on a new account and may link an existing account whose email is verified. */
  email: string | null;
  /** The provider asserts the address is verified. */
  verified: boolean;
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
