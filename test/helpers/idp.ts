// A local identity provider for tests: RSA keys generated with jose, the JWKS served over a real
// HTTP server on 127.0.0.1, ID tokens signed on demand. Tests can take the JWKS down, keep it from
// answering until they let it, wait for its requests, make it answer errors, and rotate keys.
// Reusable for the web-redirect flow (add endpoints with `route`).
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';

export interface IdpKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export interface SignOptions {
  /** Defaults to the first published key. */
  key?: IdpKey;
  /** Header overrides (alg, kid, jku, jwk…); `alg` other than RS256 needs `rawSign`. */
  header?: Record<string, unknown>;
  /** Seconds since the epoch used for iat/exp defaults. */
  now?: number;
  /** Lifetime in seconds (default 600). */
  ttl?: number;
}

/** `down`: each JWKS request's connection is cut, and the connections kept alive from before are
 *  closed when the mode is set, as a host that went down would leave them (a client then finds
 *  none it could try the request on again). `hang`: the request is kept open, unanswered, until
 *  the mode changes; then it is answered as the new mode says (unless its client has gone). */
export type JwksMode = 'up' | 'down' | 'error' | 'garbage' | 'hang';

export interface TestIdp {
  issuer: string;
  /** The JWKS URL (served by this helper). */
  jwksUrl: string;
  /** Base URL of the helper's HTTP server. */
  url: string;
  /** Keys currently published, newest last. */
  keys: IdpKey[];
  /** The audience used by `token` when none is given. */
  audience: string;
  /** Number of JWKS requests served (any mode). */
  jwksHits(): number;
  /** Resolves once `n` JWKS requests in all have arrived: a test waits for the request, not for a time. */
  jwksRequested(n: number): Promise<void>;
  /** A signed ID token: defaults iss, aud, sub, iat, exp; `claims` override or add. */
  token(claims?: JWTPayload & Record<string, unknown>, opts?: SignOptions): Promise<string>;
  /** A new key; published unless `publish` is false (a key the JWKS does not know). */
  addKey(opts?: { publish?: boolean; kid?: string }): Promise<IdpKey>;
  /** Publishes a new key and withdraws all older ones; returns the new key. */
  rotate(): Promise<IdpKey>;
  setMode(mode: JwksMode): void;
  /** Extra routes for other flows (e.g. a token endpoint for web redirect). */
  route(method: string, path: string, handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): void;
  close(): Promise<void>;
}

export function nonceHash(raw: string): string {
  return createHash('sha256').update(raw).digest('hex');
}

let kidSeq = 0;

async function newKey(kid?: string): Promise<IdpKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
  const id = kid ?? `test-${process.pid}-${++kidSeq}`;
  const publicJwk = { ...(await exportJWK(publicKey)), kid: id, alg: 'RS256', use: 'sig' };
  return { kid: id, privateKey: privateKey as CryptoKey, publicJwk };
}

export async function startIdp(opts: { issuer?: string; audience?: string } = {}): Promise<TestIdp> {
  const keys: IdpKey[] = [await newKey()];
  let mode: JwksMode = 'up';
  let hits = 0;
  const hitWaiters: Array<{ n: number; resolve: () => void }> = [];
  const hanging = new Set<ServerResponse>();
  const extra = new Map<string, (req: IncomingMessage, res: ServerResponse, body: string) => void>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/keys') {
        hits++;
        for (const w of hitWaiters.filter((x) => hits >= x.n)) {
          hitWaiters.splice(hitWaiters.indexOf(w), 1);
          w.resolve();
        }
        return answerJwks(res);
      }
      const h = extra.get(`${req.method} ${path}`);
      if (h) return h(req, res, body);
      res.writeHead(404).end();
    });
  });
  function answerJwks(res: ServerResponse): void {
    if (res.destroyed) return;
    if (mode === 'down') return void res.socket?.destroy();
    if (mode === 'hang') return void hanging.add(res);
    if (mode === 'error') return void res.writeHead(500).end('boom');
    if (mode === 'garbage') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"nope":');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: keys.map((k) => k.publicJwk) }));
  }
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = opts.issuer ?? url;
  const audience = opts.audience ?? 'com.example.app';
  let sub = 0;

  return {
    issuer,
    jwksUrl: `${url}/keys`,
    url,
    keys,
    audience,
    jwksHits: () => hits,
    jwksRequested: (n) => (hits >= n ? Promise.resolve() : new Promise<void>((resolve) => hitWaiters.push({ n, resolve }))),
    async token(claims = {}, o = {}) {
      const key = o.key ?? keys[0]!;
      const now = o.now ?? Math.floor(Date.now() / 1000);
      const payload: JWTPayload = { iss: issuer, aud: audience, sub: `sub-${process.pid}-${++sub}`, iat: now, exp: now + (o.ttl ?? 600), ...claims };
      for (const [k, v] of Object.entries(payload)) if (v === undefined) delete (payload as Record<string, unknown>)[k];
      return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: key.kid, ...o.header } as { alg: string }).sign(key.privateKey);
    },
    async addKey(o = {}) {
      const k = await newKey(o.kid);
      if (o.publish !== false) keys.push(k);
      return k;
    },
    async rotate() {
      const k = await newKey();
      keys.splice(0, keys.length, k);
      return k;
    },
    setMode(m) {
      mode = m;
      if (m === 'down') server.closeIdleConnections();
      if (m === 'hang') return;
      const held = [...hanging];
      hanging.clear();
      for (const res of held) answerJwks(res);
    },
    route(method, path, handler) {
      extra.set(`${method.toUpperCase()} ${path}`, handler);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** base64url of a JSON value or a string (for hand-made tokens in attack tests). */
export function b64url(v: unknown): string {
  return Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
}
