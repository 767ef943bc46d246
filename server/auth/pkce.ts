// PKCE (RFC 7636). Only S256: `plain` would send the verifier itself through the front channel.
import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 §4.1: 43–128 characters of [A-Z a-z 0-9 - . _ ~]. */
export const VERIFIER_RE = /^[A-Za-z0-9\-._~]{43,128}$/;
/** A S256 challenge is a base64url SHA-256: 43 characters. */
export const CHALLENGE_RE = /^[A-Za-z0-9_-]{43}$/;

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** RFC 7636 §4.6. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER_RE.test(verifier)) return false;
  const a = Buffer.from(s256(verifier));
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}
