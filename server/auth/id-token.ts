// Verification of a provider's ID token (docs/login.md).
// Every failure is one of two outcomes: `invalid` (401, with a category for the log) or
// `unavailable` (503: the keys could not be fetched). Nothing is ever skipped or downgraded.
import { createHash } from 'node:crypto';
import type { JWTPayload } from 'jose';
import type { JwsAlgorithm, SignatureService } from '../crypto/offload.ts';
import { GatehouseError, upstreamUnavailable } from '../errors.ts';
import { plausibleEmail } from '../users/model.ts';
import type { JwksCache } from './jwks-cache.ts';
import { jsonObject, readCompactJws } from './jws-compact.ts';

/** Why a token was refused; logged (never the token itself). */
export type InvalidCategory =
  | 'malformed'
  | 'algorithm'
  | 'unknown_key'
  | 'signature'
  | 'issuer'
  | 'audience'
  | 'expired'
  | 'not_yet_valid'
  | 'claims'
  | 'nonce';

export class InvalidIdToken extends GatehouseError {
  constructor(readonly category: InvalidCategory) {
    super('unauthorized', 'Identity token is invalid');
  }
}

export interface VerifyOptions {
  /** The provider's keys; its `algorithms` are the only ones a token may name. */
  jwks: JwksCache;
  /** Checks the signature (the crypto worker). */
  signatures: SignatureService;
  /** Accepted `iss` values (exact string match). */
  issuers: string[];
  /** Accepted `aud` values (the realm's provider client id). */
  audiences: string[];
  /** Seconds since the epoch. */
  now: number;
  /** Raw nonce from the request; the `nonce` claim must be its lowercase hex SHA-256. Without
   *  it, the token must carry no `nonce`. */
  nonce?: string;
  clockToleranceS?: number;
  /** Largest accepted token age by `iat` (seconds). */
  maxAgeS?: number;
}

export interface IdTokenClaims extends JWTPayload {
  sub: string;
  email?: unknown;
  email_verified?: unknown;
  nonce?: unknown;
}

const MAX_LENGTH = 16_384;

// The signature is checked with node:crypto on the KeyObject of the key jose imported from the JWKS
// (jwks-cache.ts), on the crypto worker (crypto/offload.ts), not on the event loop: one signature
// verification and no WebCrypto layers around it. The claims rules jose applied are applied by
// checkClaims below, in the same order and with the same outcomes.
export async function verifyIdToken(token: string, opts: VerifyOptions): Promise<IdTokenClaims> {
  const payload = await verifySignedPayload(token, opts);
  const problem = checkClaims(payload, opts);
  if (problem) throw new InvalidIdToken(problem);
  // Both ways (OpenID Connect Core §3.1.3.7 rule 11, §15.5.2): a nonce the request names must be in
  // the token, and a token minted for a nonce is only good with it — otherwise a token captured from
  // a nonce-bound sign-in could be replayed here without one.
  if (opts.nonce !== undefined) {
    const want = createHash('sha256').update(opts.nonce).digest('hex');
    if (payload.nonce !== want) throw new InvalidIdToken('nonce');
  } else if (payload.nonce !== undefined) {
    throw new InvalidIdToken('nonce');
  }
  // The email is usable only as a plain address (users/model.ts plausibleEmail); anything else —
  // non-string, look-alike, zero-width, bidi, NUL, trailing dot — is as if the token had none.
  if (payload.email !== undefined) {
    const email = plausibleEmail(payload.email);
    if (email === null) delete payload.email;
    else payload.email = email;
  }
  return payload as IdTokenClaims;
}

/** The payload of a compact JWS the provider signed (read strictly, its algorithm one the provider
 *  uses, its key from the provider's JWKS, its signature good), claims not yet checked: the first
 *  half of verifyIdToken, shared with Apple's signed notifications (apple-notifications.ts). */
export async function verifySignedPayload(token: string, opts: Pick<VerifyOptions, 'jwks' | 'signatures'>): Promise<Record<string, unknown>> {
  const jws = readCompactJws(token, MAX_LENGTH);
  if (!jws) throw new InvalidIdToken('malformed');
  const h = jws.header;
  // Only the algorithms the provider signs with (its entry in providers/): `none`, HMAC "signed"
  // with the public key and every other algorithm end here. jku / x5u / jwk headers are never
  // read: the key comes only from the configured JWKS.
  const alg = h.alg as JwsAlgorithm;
  if (!opts.jwks.algorithms.includes(alg)) throw new InvalidIdToken('algorithm');
  // No extension is understood, so a critical one (b64: false among them) cannot be honoured.
  if (h.crit !== undefined || h.b64 !== undefined) throw new InvalidIdToken('malformed');
  // RFC 7519 §4 lets a parser take the last of duplicate claim names; another parser in the chain
  // may take the first ({"sub":"victim","sub":"me"}). We refuse the ambiguity outright.
  // The claims are parsed here, once, but trusted only once the signature holds (below).
  const payload = jsonObject(jws.payloadText);
  if (hasDuplicateMembers(jws.headerText, h) || hasDuplicateMembers(jws.payloadText, payload)) throw new InvalidIdToken('malformed');
  const found = await opts.jwks.lookup(typeof h.kid === 'string' ? h.kid : undefined, alg);
  if (found.kind === 'unavailable') throw upstreamUnavailable(found.cause);
  if (found.kind === 'unknown_kid') throw new InvalidIdToken('unknown_key');
  // RFC 7518 §3.1 (crypto/ops.mjs); a signature of the wrong length fails here too.
  if (!(await opts.signatures.verify(alg, jws.signingInput, jws.signature64, found.keyObject))) {
    throw new InvalidIdToken('signature');
  }
  if (!payload) throw new InvalidIdToken('malformed');
  return payload;
}

/** The claims rules of a verified ID token (RFC 7519 §4.1, OpenID Connect Core §3.1.3.7), or the
 *  category of the first one broken; null when the claims are acceptable. No I/O. */
export function checkClaims(
  payload: Record<string, unknown>,
  opts: Pick<VerifyOptions, 'issuers' | 'audiences' | 'now' | 'clockToleranceS' | 'maxAgeS'>,
): InvalidCategory | null {
  const problem = checkIssuedFor(payload, opts);
  if (problem) return problem;
  if (typeof payload.sub !== 'string' || payload.sub === '' || payload.sub.length > 255) return 'claims';
  return null;
}

/** The rules of checkClaims but the subject's: issuer, audiences, authorized party and the time
 *  claims (`exp` required). Apple's notifications are checked by these alone (they carry no `sub`). */
export function checkIssuedFor(
  payload: Record<string, unknown>,
  opts: Pick<VerifyOptions, 'issuers' | 'audiences' | 'now' | 'clockToleranceS' | 'maxAgeS'>,
): InvalidCategory | null {
  const tolerance = opts.clockToleranceS ?? 60;
  const now = opts.now;
  // Exact string match; an issuer that is absent or not a string matches nothing.
  if (typeof payload.iss !== 'string' || !opts.issuers.includes(payload.iss)) return 'issuer';
  // Every audience must be one we accept (OpenID Connect Core §3.1.3.7 rule 3): a token also
  // addressed to another party was minted for it as much as for us. An authorized party, when
  // named, must be one of ours too (rule 4 and 5).
  const aud = payload.aud;
  const audOk =
    typeof aud === 'string'
      ? opts.audiences.includes(aud)
      : Array.isArray(aud) && aud.length > 0 && aud.every((a) => typeof a === 'string' && opts.audiences.includes(a));
  if (!audOk) return 'audience';
  if (payload.azp !== undefined && (typeof payload.azp !== 'string' || !opts.audiences.includes(payload.azp))) return 'audience';
  if (payload.exp === undefined) return 'claims';
  for (const claim of ['iat', 'nbf', 'exp']) {
    const v = payload[claim];
    if (v !== undefined && !isNumericDate(v)) return 'claims';
  }
  const iat = payload.iat as number | undefined;
  const nbf = payload.nbf as number | undefined;
  const exp = payload.exp as number;
  if (opts.maxAgeS !== undefined) {
    if (iat === undefined) return 'claims';
    if (now - iat - tolerance > opts.maxAgeS) return 'expired';
  }
  if (iat !== undefined && iat > now + tolerance) return 'not_yet_valid';
  if (nbf !== undefined && nbf > now + tolerance) return 'not_yet_valid';
  if (exp <= now - tolerance) return 'expired';
  return null;
}

/** Latest accepted time claim: 9999-12-31T23:59:59Z. A time past it is no date anyone issues, and
 *  `exp: 1e308` would otherwise make a token eternal. */
export const MAX_NUMERIC_DATE = 253_402_300_799;

/** A NumericDate (RFC 7519 §2) as gatehouse accepts it: whole seconds since the epoch, from 0 to
 *  MAX_NUMERIC_DATE. Fractions, negatives, huge values and non-numbers are refused. */
export function isNumericDate(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_NUMERIC_DATE;
}

/** Whether a JSON text's top-level object names a member twice (keys compared after unescaping).
 *  Anything that is not a top-level object is left to the JSON parser. Given `parsed`, the text's
 *  own JSON.parse result, the members are only counted: the parser keeps one property per distinct
 *  (unescaped) name, so a count above its own is a name given twice — no key is cut out and hashed
 *  (~3.3 → ~1 µs for an ID token's claims). */
export function hasDuplicateMembers(json: string, parsed: Record<string, unknown> | null = null): boolean {
  let i = json.search(/\S/);
  if (i < 0 || json.charCodeAt(i) !== LEFT_BRACE) return false;
  const seen = parsed === null ? new Set<string>() : null;
  const n = json.length;
  let members = 0;
  let depth = 0;
  let expectKey = false;
  // Character codes, not one-character strings.
  while (i < n) {
    const c = json.charCodeAt(i);
    if (c === QUOTE) {
      let j = i + 1;
      let escaped = false;
      while (j < n) {
        const d = json.charCodeAt(j);
        if (d === QUOTE) break;
        if (d === BACKSLASH) {
          escaped = true;
          j += 2;
        } else j++;
      }
      if (depth === 1 && expectKey) {
        expectKey = false;
        members++;
        if (seen !== null) {
          // A key without escapes is its own text; only one with escapes needs the parser.
          let key: unknown = json.slice(i + 1, j);
          if (escaped) {
            try {
              key = JSON.parse(json.slice(i, j + 1));
            } catch {
              return false; // not JSON: the parser refuses it
            }
          }
          if (seen.has(key as string)) return true;
          seen.add(key as string);
        }
      }
      i = j + 1;
      continue;
    }
    if (c === LEFT_BRACE || c === LEFT_BRACKET) {
      depth++;
      if (depth === 1) expectKey = true;
    } else if (c === RIGHT_BRACE || c === RIGHT_BRACKET) depth--;
    else if (c === COMMA && depth === 1) expectKey = true;
    i++;
  }
  return parsed !== null && members !== Object.keys(parsed).length;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const LEFT_BRACE = 0x7b;
const RIGHT_BRACE = 0x7d;
const LEFT_BRACKET = 0x5b;
const RIGHT_BRACKET = 0x5d;
