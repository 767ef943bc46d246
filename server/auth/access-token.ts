// gatehouse's own access tokens (CONTRACT §5): JWT, EdDSA (Ed25519), `typ: at+jwt` (RFC 9068),
// claims iss, sub, aud, sid, jti, iat, exp. Signed with node:crypto on the crypto worker (a login
// signs one; crypto/offload.ts), verified with node:crypto on the event loop (a check that fails
// early costs no signature operation).
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { cryptoOffload } from '../crypto/offload.ts';

export interface AccessClaims {
  iss: string;
  sub: string;
  aud: string;
  sid: string;
  jti: string;
  iat: number;
  exp: number;
}

const HEADER_TYP = 'at+jwt';
const ALG = 'EdDSA';

export async function signAccessToken(kid: string, privateKey: KeyObject, claims: AccessClaims): Promise<string> {
  const header = Buffer.from(JSON.stringify({ alg: ALG, typ: HEADER_TYP, kid })).toString('base64url');
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const input = `${header}.${payload}`;
  return `${input}.${await cryptoOffload.ed25519Sign(input, privateKey)}`;
}

/** The kid of a token that looks like one of ours, or null (cheap pre-check, no crypto). */
export function accessTokenKid(token: string): string | null {
  const parts = token.split('.');
  if (parts.length !== 3 || token.length > 4096) return null;
  try {
    const h = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (h.alg !== ALG || h.typ !== HEADER_TYP || typeof h.kid !== 'string') return null;
    return h.kid;
  } catch {
    return null;
  }
}

/** Verified claims, or null: bad signature, wrong issuer, expired (`now` in seconds). */
export function verifyAccessToken(token: string, publicKey: KeyObject, expect: { iss: string; now: number }): AccessClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [h, p, s] = parts as [string, string, string];
  let ok = false;
  try {
    ok = verify(null, Buffer.from(`${h}.${p}`), publicKey, Buffer.from(s, 'base64url'));
  } catch {
    return null;
  }
  if (!ok) return null;
  let c: Partial<AccessClaims>;
  try {
    c = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Partial<AccessClaims>;
  } catch {
    return null;
  }
  if (c.iss !== expect.iss || typeof c.sub !== 'string' || typeof c.sid !== 'string' || typeof c.aud !== 'string') return null;
  if (typeof c.exp !== 'number' || c.exp <= expect.now) return null;
  return c as AccessClaims;
}

export function publicKeyOf(jwk: Record<string, string>): KeyObject {
  return createPublicKey({ key: jwk, format: 'jwk' });
}
