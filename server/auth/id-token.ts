// Verification of a provider's ID token (native-idp-login.md, Authentication 2; CONTRACT §5).
// Every failure is one of two outcomes: `invalid` (401, with a category for the log) or
// `unavailable` (503: the keys could not be fetched). Nothing is ever skipped or downgraded.
import { createHash } from 'node:crypto';
import { decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { GatehouseError, upstreamUnavailable } from '../errors.ts';
import { plausibleEmail } from '../users/model.ts';
import type { JwksCache } from './jwks-cache.ts';

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
  jwks: JwksCache;
  /** Accepted `iss` values (exact string match). */
  issuers: string[];
  /** Accepted `aud` values (the realm's provider client id). */
  audiences: string[];
  /** Seconds since the epoch. */
  now: number;
  /** Raw nonce from the request; the `nonce` claim must be its lowercase hex SHA-256. */
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

const ALG = 'RS256'; // the only algorithm Apple signs with (CONTRACT §5)

export async function verifyIdToken(token: string, opts: VerifyOptions): Promise<IdTokenClaims> {
  if (token.length > 16_384 || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token)) throw new InvalidIdToken('malformed');
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw new InvalidIdToken('malformed');
  }
  // `none`, HMAC "signed" with the public key and every other algorithm end here. jku / x5u / jwk
  // headers are never read: the key comes only from the configured JWKS.
  if (header.alg !== ALG) throw new InvalidIdToken('algorithm');
  if (header.crit !== undefined) throw new InvalidIdToken('malformed');
  // RFC 7519 §4 lets a parser take the last of duplicate claim names; another parser in the chain
  // may take the first ({"sub":"victim","sub":"me"}). We refuse the ambiguity outright.
  const [h64, p64] = token.split('.') as [string, string];
  if (hasDuplicateMembers(Buffer.from(h64, 'base64url').toString('utf8')) || hasDuplicateMembers(Buffer.from(p64, 'base64url').toString('utf8'))) {
    throw new InvalidIdToken('malformed');
  }
  const found = await opts.jwks.lookup(typeof header.kid === 'string' ? header.kid : undefined, ALG);
  if (found.kind === 'unavailable') throw upstreamUnavailable(found.cause);
  if (found.kind === 'unknown_kid') throw new InvalidIdToken('unknown_key');
  const tolerance = opts.clockToleranceS ?? 60;
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, found.key, {
      algorithms: [ALG],
      issuer: opts.issuers,
      audience: opts.audiences,
      clockTolerance: tolerance,
      currentDate: new Date(opts.now * 1000),
      requiredClaims: ['iss', 'aud', 'exp', 'sub'],
      maxTokenAge: opts.maxAgeS,
    }));
  } catch (e) {
    throw new InvalidIdToken(categoryOf(e));
  }
  if (typeof payload.sub !== 'string' || payload.sub === '' || payload.sub.length > 255) throw new InvalidIdToken('claims');
  if (payload.iat !== undefined && payload.iat > opts.now + tolerance) throw new InvalidIdToken('not_yet_valid');
  if (opts.nonce !== undefined) {
    const want = createHash('sha256').update(opts.nonce).digest('hex');
    if (payload.nonce !== want) throw new InvalidIdToken('nonce');
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

/** Whether a JSON text's top-level object names a member twice (keys compared after unescaping).
 *  Anything that is not a top-level object is left to the JSON parser. */
export function hasDuplicateMembers(json: string): boolean {
  let i = json.search(/\S/);
  if (i < 0 || json[i] !== '{') return false;
  const seen = new Set<string>();
  let depth = 0;
  let expectKey = false;
  while (i < json.length) {
    const c = json[i];
    if (c === '"') {
      let j = i + 1;
      while (j < json.length && json[j] !== '"') j += json[j] === '\\' ? 2 : 1;
      if (depth === 1 && expectKey) {
        let key: unknown;
        try {
          key = JSON.parse(json.slice(i, j + 1));
        } catch {
          return false; // not JSON: the parser refuses it
        }
        if (seen.has(key as string)) return true;
        seen.add(key as string);
        expectKey = false;
      }
      i = j + 1;
      continue;
    }
    if (c === '{' || c === '[') {
      depth++;
      if (depth === 1) expectKey = true;
    } else if (c === '}' || c === ']') depth--;
    else if (c === ',' && depth === 1) expectKey = true;
    i++;
  }
  return false;
}

function categoryOf(e: unknown): InvalidCategory {
  if (e instanceof joseErrors.JWTExpired) return 'expired';
  if (e instanceof joseErrors.JWSSignatureVerificationFailed) return 'signature';
  if (e instanceof joseErrors.JWTClaimValidationFailed) {
    if (e.claim === 'iss') return 'issuer';
    if (e.claim === 'aud') return 'audience';
    if (e.claim === 'nbf' || e.claim === 'iat') return 'not_yet_valid';
    return 'claims';
  }
  if (e instanceof joseErrors.JOSEAlgNotAllowed) return 'algorithm';
  return 'malformed';
}
