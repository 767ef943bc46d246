// gatehouse's own access tokens (docs/login.md): JWT, EdDSA (Ed25519), `typ: at+jwt` (RFC 9068),
// claims iss, sub, aud, sid, jti, iat, exp. Signed with node:crypto on the crypto worker (a login
// signs one; crypto/offload.ts), verified with node:crypto on the event loop (a check that fails
// early costs no signature operation).
import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import type { SignatureService } from '../crypto/offload.ts';
import { type CompactJws, jsonObject, readCompactJws } from './jws-compact.ts';

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

export async function signAccessToken(signatures: SignatureService, kid: string, privateKey: KeyObject, claims: AccessClaims): Promise<string> {
  const header = headerOf(kid);
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const input = `${header}.${payload}`;
  return `${input}.${await signatures.sign(ALG, input, privateKey)}`;
}

// The encoded header of the kid signed with last: every token a realm's key signs has the same.
let lastHeader = { kid: '', encoded: '' };
function headerOf(kid: string): string {
  if (lastHeader.kid !== kid) lastHeader = { kid, encoded: Buffer.from(JSON.stringify({ alg: ALG, typ: HEADER_TYP, kid })).toString('base64url') };
  return lastHeader.encoded;
}

/** Most characters an access token of ours may have. */
const MAX_LENGTH = 4096;

/** A token that looks like one of ours — read strictly (jws-compact.ts), our `alg` and `typ`, a
 *  `kid` — with that kid, or null. A cheap pre-check: no crypto. */
export function readAccessToken(token: string): { kid: string; jws: CompactJws } | null {
  const jws = readCompactJws(token, MAX_LENGTH);
  if (!jws) return null;
  const h = jws.header;
  if (h.alg !== ALG || h.typ !== HEADER_TYP || typeof h.kid !== 'string') return null;
  return { kid: h.kid, jws };
}

/** Verified claims, or null: bad signature, wrong issuer, expired (`now` in seconds). */
export function verifyAccessToken(jws: CompactJws, publicKey: KeyObject, expect: { iss: string; now: number }): AccessClaims | null {
  let ok = false;
  try {
    ok = verify(null, Buffer.from(jws.signingInput), publicKey, jws.signature);
  } catch {
    return null;
  }
  if (!ok) return null;
  const c = jsonObject(jws.payloadText) as Partial<AccessClaims> | null;
  if (!c) return null;
  if (c.iss !== expect.iss || typeof c.sub !== 'string' || typeof c.sid !== 'string' || typeof c.aud !== 'string') return null;
  if (typeof c.exp !== 'number' || c.exp <= expect.now) return null;
  return c as AccessClaims;
}

export function publicKeyOf(jwk: Record<string, string>): KeyObject {
  return createPublicKey({ key: jwk, format: 'jwk' });
}
