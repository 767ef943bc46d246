// A cache of one identity provider's JWKS with stale-if-error (jose's remote set has none).
// - Keys are fetched once and served from memory; a `kid` we do not hold triggers a refetch, at
//   most once per `cooldownMs` (30 s) and with one fetch in flight, so a flood of tokens with
//   random kids cannot turn into a flood of requests to the provider.
// - A set older than `maxAgeMs` is refreshed in the background on next use (so a withdrawn key
//   stops verifying); when that refresh fails the cached keys keep serving (the provider being down
//   must not log everybody out).
// - When the key a token needs is not cached and cannot be fetched, the answer is "upstream
//   unavailable" (503) — never "invalid token" (401), and the check is never skipped
//   (docs/login.md).
// - An outage is logged when it starts (with its cause: ECONNREFUSED, a timeout, an HTTP status)
//   and when it ends, not once per login that fails meanwhile.
import { KeyObject } from 'node:crypto';
import type { JWK } from 'jose';
import type { JwsAlgorithm } from '../crypto/offload.ts';
import { ALGORITHMS, keyFits } from '../crypto/ops.mjs';
import { OutageCause } from '../errors.ts';
import type { Clock } from '../lib/clock.ts';
import { type HttpClient, httpRequest } from '../lib/http-request.ts';
import { type Logger, silentLogger } from '../lib/log.ts';

// A real JWKS is a few KiB. A larger answer is refused without being read (lib/http-request.ts),
// so a provider (or whoever sits in front of it) cannot make us buffer 50 MB.
const MAX_JWKS_BYTES = 256 * 1024;

/** The JWK as a KeyObject for `alg`, or null when it is unusable: what jose's import refuses, or a
 *  key `alg` may not use (crypto/ops.mjs keyFits: an RSA key under 2048 bits, RFC 7518 §3.3; an EC
 *  key off P-256 for ES256, §3.4). */
async function importKey(jwk: JWK, alg: JwsAlgorithm): Promise<KeyObject | null> {
  // jose (some fifty modules) loads with the first key set, not at every start.
  const { importJWK } = await import('jose');
  try {
    const imported = await importJWK({ ...jwk, alg }, alg);
    const key = imported instanceof Uint8Array ? null : KeyObject.from(imported);
    return key && keyFits(key, alg) ? key : null;
  } catch {
    return null;
  }
}

export type KeyLookup = { kind: 'key'; keyObject: KeyObject } | { kind: 'unknown_kid' } | { kind: 'unavailable'; cause: unknown };

export interface JwksCacheOptions {
  url: string;
  /** The algorithms the provider signs with: only keys of their types are kept, and only these
   *  are accepted in a token's header (id-token.ts). */
  algorithms: readonly JwsAlgorithm[];
  clock: Clock;
  timeoutMs: number;
  cooldownMs?: number;
  /** After a failed fetch, the next attempt waits this long (protects a struggling provider). */
  failureBackoffMs?: number;
  maxAgeMs?: number;
  /** How the set is fetched (tests hand in their own). */
  request?: HttpClient;
  log?: Logger;
  /** Named in the log lines (the provider kind). */
  name?: string;
  /** Told after every fetch: its result and the cache state (metrics). */
  onFetch?: (ok: boolean, keysCached: number, lastSuccessMs: number | null) => void;
}

/** Why a fetch failed, as an operator reads it: the system error code (`code`: ECONNREFUSED,
 *  ENOTFOUND…, also where a wrapper keeps it as its `cause`), `timeout`, or the innermost message. */
export function failureCause(e: unknown): string {
  let cur: unknown = e;
  let message = e instanceof Error ? e.message : String(e);
  for (let depth = 0; cur && typeof cur === 'object' && depth < 5; depth++) {
    const c = cur as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof c.code === 'string' && c.code !== '') return c.code;
    if (c.name === 'TimeoutError' || c.name === 'AbortError') return 'timeout';
    if (typeof c.message === 'string' && c.message !== '') message = c.message;
    // Several addresses tried (happy eyeballs): an AggregateError of the attempts.
    cur = Array.isArray(c.errors) && c.errors.length > 0 ? c.errors[0] : c.cause;
  }
  return message;
}

interface Cached {
  jwk: JWK;
  /** Imported lazily, once per algorithm: jose parses the JWK, node:crypto verifies with it
   *  (id-token.ts). null when the key cannot be used (a malformed JWK, an RSA modulus under 2048
   *  bits). */
  keyObjects: Partial<Record<JwsAlgorithm, KeyObject | null>>;
}

/** The JWK members that make up the key itself (RFC 7518 §6). */
const sameKey = (a: JWK, b: JWK) => a.kty === b.kty && a.n === b.n && a.e === b.e && a.crv === b.crv && a.x === b.x && a.y === b.y;

export class JwksCache {
  private keys = new Map<string, Cached>();
  private fetchedAt: number | null = null; // last successful fetch
  private attemptedAt: number | null = null; // last attempt, success or not
  private lastFailed = false;
  private lastError: OutageCause | null = null;
  private inFlight: Promise<void> | null = null;
  private readonly cooldownMs: number;
  private readonly failureBackoffMs: number;
  private readonly maxAgeMs: number;
  private readonly log: Logger;
  /** The JWK key types (`kty`) of the accepted algorithms. */
  private readonly keyTypes: Set<string>;
  /** Number of HTTP fetches made (for tests and metrics). */
  fetches = 0;

  constructor(private readonly opts: JwksCacheOptions) {
    this.keyTypes = new Set(opts.algorithms.map((alg) => ALGORITHMS[alg].kty));
    this.cooldownMs = opts.cooldownMs ?? 30_000;
    this.failureBackoffMs = opts.failureBackoffMs ?? 5_000;
    this.maxAgeMs = opts.maxAgeMs ?? 60 * 60_000;
    this.log = opts.log ?? silentLogger;
  }

  /** The algorithms the provider signs with. */
  get algorithms(): readonly JwsAlgorithm[] {
    return this.opts.algorithms;
  }

  /** The public key for `kid`, to verify `alg` (one of `algorithms`) with. */
  async lookup(kid: string | undefined, alg: JwsAlgorithm): Promise<KeyLookup> {
    const now = this.opts.clock.now();
    const stale = this.fetchedAt !== null && now - this.fetchedAt >= this.maxAgeMs;
    let hit = kid !== undefined ? this.keys.get(kid) : undefined;
    // An old set is refreshed in the background: this login uses the key it has, and a failed
    // refresh keeps the set (stale-if-error).
    if (hit && stale && this.mayFetch(now)) void this.refresh();
    if (!hit) {
      if (this.mayFetch(now)) await this.refresh();
      hit = kid !== undefined ? this.keys.get(kid) : undefined;
      if (!hit) {
        // Nothing to check the token with: an outage we could not see past is 503, not 401.
        if (this.lastFailed) return { kind: 'unavailable', cause: this.lastError };
        return { kind: 'unknown_kid' };
      }
    }
    if (hit.jwk.alg !== undefined && hit.jwk.alg !== alg) return { kind: 'unknown_kid' };
    if (hit.jwk.use !== undefined && hit.jwk.use !== 'sig') return { kind: 'unknown_kid' };
    let keyObject = hit.keyObjects[alg];
    if (keyObject === undefined) keyObject = hit.keyObjects[alg] = await importKey(hit.jwk, alg);
    if (keyObject === null) return { kind: 'unknown_kid' };
    return { kind: 'key', keyObject };
  }

  private mayFetch(now: number): boolean {
    if (this.inFlight) return true; // joining costs the provider nothing
    if (this.attemptedAt === null) return true;
    const wait = this.lastFailed ? this.failureBackoffMs : this.cooldownMs;
    return now - this.attemptedAt >= wait;
  }

  private refresh(): Promise<void> {
    this.inFlight ??= this.fetchOnce().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async fetchOnce(): Promise<void> {
    this.attemptedAt = this.opts.clock.now();
    this.fetches++;
    const request = this.opts.request ?? httpRequest;
    try {
      const ok = (status: number) => status >= 200 && status < 300;
      const res = await request(this.opts.url, {
        headers: { accept: 'application/json' },
        timeoutMs: this.opts.timeoutMs,
        maxBytes: MAX_JWKS_BYTES,
        readBody: ok,
      });
      // A redirect too: it is not followed.
      if (!ok(res.status)) throw new Error(`JWKS answered HTTP ${res.status}`);
      const body = JSON.parse(res.text) as { keys?: unknown };
      if (!body || !Array.isArray(body.keys)) throw new Error('JWKS body has no keys array');
      const next = new Map<string, Cached>();
      for (const k of body.keys as JWK[]) {
        if (!k || typeof k !== 'object' || typeof k.kid !== 'string' || typeof k.kty !== 'string' || !this.keyTypes.has(k.kty)) continue;
        const old = this.keys.get(k.kid);
        next.set(k.kid, old && sameKey(old.jwk, k) ? old : { jwk: k, keyObjects: {} });
      }
      this.keys = next;
      this.fetchedAt = this.opts.clock.now();
      if (this.lastFailed) this.log.info('jwks available again', { provider: this.opts.name, url: this.opts.url });
      this.lastFailed = false;
      this.lastError = null;
    } catch (e) {
      const cause = failureCause(e);
      if (!this.lastFailed) this.log.warn('jwks unavailable', { provider: this.opts.name, url: this.opts.url, cause, cachedKeys: this.keys.size });
      this.lastFailed = true;
      this.lastError = new OutageCause(`JWKS ${this.opts.url}: ${cause}`, { cause: e });
    }
    this.opts.onFetch?.(!this.lastFailed, this.keys.size, this.fetchedAt);
  }
}
