// gatehouse's own access tokens (docs/login.md): JWT, ES256 or EdDSA (the algorithm of the realm's
// key, signing-keys.ts), `typ: at+jwt` (RFC 9068), claims iss, sub, aud, sid, jti, iat, exp. Signed
// and verified with node:crypto on the signature thread (crypto/offload.ts): a login signs one, and
// every call a user makes with one verifies it.
import { createPublicKey, type KeyObject } from 'node:crypto';
import type { SignatureService } from '../crypto/offload.ts';
import { type CompactJws, jsonObject, readCompactJws } from './jws-compact.ts';
import type { ActiveKey } from './signing-keys.ts';
import { SIGNING_ALGORITHMS, type SigningAlgorithm } from './store.ts';

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

export async function signAccessToken(signatures: SignatureService, key: ActiveKey, claims: AccessClaims): Promise<string> {
  const header = headerOf(key);
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const input = `${header}.${payload}`;
  return `${input}.${await signatures.sign(key.alg, input, key.privateKey)}`;
}

// The encoded header of the key signed with last: every token a realm's key signs has the same (a
// kid names one key, of one algorithm).
let lastHeader = { kid: '', encoded: '' };
function headerOf({ kid, alg }: ActiveKey): string {
  if (lastHeader.kid !== kid) lastHeader = { kid, encoded: Buffer.from(JSON.stringify({ alg, typ: HEADER_TYP, kid })).toString('base64url') };
  return lastHeader.encoded;
}

/** Most characters an access token of ours may have. */
const MAX_LENGTH = 4096;

/** A token that looks like one of ours — read strictly (jws-compact.ts), one of our algorithms,
 *  our `typ`, a `kid` — with that kid, or null. A cheap pre-check: no crypto. */
export function readAccessToken(token: string): { kid: string; jws: CompactJws } | null {
  const jws = readCompactJws(token, MAX_LENGTH);
  if (!jws) return null;
  const h = jws.header;
  if (typeof h.alg !== 'string' || !(SIGNING_ALGORITHMS as readonly string[]).includes(h.alg) || h.typ !== HEADER_TYP || typeof h.kid !== 'string') return null;
  return { kid: h.kid, jws };
}

/** Verified claims, or null: wrong issuer, expired (`now` in seconds), bad signature, or a header
 *  `alg` the kid's key is not for (RFC 8725 §3.1; crypto/ops.mjs keyFits). The claims are checked
 *  first, so a token they refuse costs no signature operation; the signature is checked on the
 *  signature thread, as an ID token's is (crypto/offload.ts). */
export async function verifyAccessToken(
  signatures: SignatureService,
  jws: CompactJws,
  publicKey: KeyObject,
  expect: { iss: string; now: number },
): Promise<AccessClaims | null> {
  const c = jsonObject(jws.payloadText) as Partial<AccessClaims> | null;
  if (!c) return null;
  if (c.iss !== expect.iss || typeof c.sub !== 'string' || typeof c.sid !== 'string' || typeof c.aud !== 'string') return null;
  if (typeof c.exp !== 'number' || c.exp <= expect.now) return null;
  const verified = await signatures.verify(jws.header.alg as SigningAlgorithm, jws.signingInput, jws.signature64, publicKey);
  return verified ? (c as AccessClaims) : null;
}

export function publicKeyOf(jwk: Record<string, string>): KeyObject {
  return createPublicKey({ key: jwk, format: 'jwk' });
}
