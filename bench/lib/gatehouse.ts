// What the benchmarks do to a running gatehouse, whichever database it serves: the realm they
// configure, the pools they grant, Apple-style ID tokens signed ahead of the measured logins, and the
// closed-loop loads of logins (HTTP) and consumes (gRPC) spread over one or more replicas.
import * as grpc from '@grpc/grpc-js';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { grpcClient } from '../../test/helpers/grpc.ts';
import { api } from '../../test/helpers/http.ts';
import type { TestIdp } from '../../test/helpers/idp.ts';
import type { TestServer } from '../../test/helpers/server.ts';
import { http1Load } from './http1.ts';
import { type LoadResult, runLoad } from './load.ts';

export const REALM = 'bench';
export const AUD = 'com.example.bench';

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export async function configureRealm(srv: TestServer, createRealm: boolean): Promise<void> {
  const admin = api(srv.http, srv.adminKey);
  const ok = async (p: ReturnType<typeof admin.post>) => {
    const r = await p;
    if (r.status !== 200) throw new Error(`setup failed: ${r.status} ${r.text}`);
  };
  if (createRealm) await ok(admin.post('/api/admin/realms', { id: REALM, name: REALM }));
  await ok(admin.put(`/api/admin/realms/${REALM}/providers/apple`, { clientId: AUD, enabled: true }));
  await ok(admin.post(`/api/admin/realms/${REALM}/clients`, { clientId: 'app', name: 'App', type: 'first_party', redirectUris: [], ipBinding: 'off' }));
}

/** Two pools for each user: a top-up and a grant that expires. */
export async function addPools(srv: TestServer, users: string[]): Promise<void> {
  const admin = api(srv.http, srv.adminKey);
  for (const u of users) {
    for (const body of [
      { kind: 'topup_credit', amount: 1_000_000 },
      { kind: 'granted_credit', amount: 1_000_000, expiresAt: '2999-01-01T00:00:00Z' },
    ]) {
      const r = await admin.post(`/api/points/${REALM}/users/${u}/grants`, body);
      if (r.status !== 200) throw new Error(`grant failed: ${r.status} ${r.text}`);
    }
  }
}

export function serverArgs(idp: TestIdp): string[] {
  return ['--apple-jwks-url', idp.jwksUrl, '--apple-issuer', idp.issuer, '--login-rate-limit', '0'];
}

// ---------------------------------------------------------------- login

let subCounter = 0;
/** `n` tokens: even indices for never-seen subjects, odd ones for `returning` (already logged in). */
export async function signTokens(idp: TestIdp, n: number, returning: string[]): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const sub = i % 2 === 0 ? `new-${process.pid}-${subCounter++}` : returning[(i >> 1) % returning.length]!;
    // A distinct jti per token, so no two logins present the same token.
    out.push(await idp.token({ sub, email: `${sub}@example.com`, jti: `j${subCounter++}` }, { ttl: 1800 }));
  }
  return out;
}

/** Logs `n` new subjects in once (they become the returning users); returns their subjects. */
export async function firstLogins(srv: TestServer, idp: TestIdp, n: number, concurrency = 16): Promise<string[]> {
  const subs = Array.from({ length: n }, () => `ret-${process.pid}-${subCounter++}`);
  const tokens: string[] = [];
  for (const sub of subs) tokens.push(await idp.token({ sub, email: `${sub}@example.com` }, { ttl: 1800 }));
  await loginLoad(srv, tokens, concurrency);
  return subs;
}

export const loginBody = (tokens: string[]) => (i: number) => JSON.stringify({ identityToken: tokens[i], clientId: 'app' });

/** Native logins with `tokens` over `concurrency` connections, spread evenly over the servers. */
export async function loginLoad(servers: TestServer | TestServer[], tokens: string[], concurrency: number): Promise<LoadResult> {
  const bases = (Array.isArray(servers) ? servers : [servers]).map((s) => s.http);
  const r = await http1Load(bases, `/api/oauth/${REALM}/apple/native-login`, tokens.length, concurrency, loginBody(tokens));
  if (r.failed) throw new Error(`${r.failed} logins failed`);
  return r;
}

/** What a login's credential check costs bare: `jose.jwtVerify` on the same tokens, here. */
export async function bareVerify(idp: TestIdp, tokens: string[], concurrency: number): Promise<LoadResult> {
  const jwks = createLocalJWKSet({ keys: idp.keys.map((k) => k.publicJwk) });
  return runLoad(tokens.length, concurrency, async (i) => {
    await jwtVerify(tokens[i]!, jwks, { algorithms: ['RS256'], issuer: idp.issuer, audience: AUD });
    return true;
  });
}

// ---------------------------------------------------------------- consume

export function unary(client: any, method: string, req: object, auth: string): Promise<boolean> {
  const md = new grpc.Metadata();
  md.set('authorization', `Bearer ${auth}`);
  return new Promise((resolve) => client[method](req, md, { deadline: Date.now() + 15_000 }, (err: unknown) => resolve(!err)));
}

/** `calls` consumes of 1 point over gRPC, `concurrency` in flight; call i goes to server i mod the
 *  servers (a round-robin balancer) for user i mod the users. */
export async function consumeLoad(servers: TestServer | TestServer[], users: string | string[], calls: number, concurrency: number): Promise<LoadResult> {
  const targets = (Array.isArray(servers) ? servers : [servers]).map((s) => ({ client: grpcClient(s.grpc, 'PointsService'), key: s.adminKey }));
  const reqs = (Array.isArray(users) ? users : [users]).map((userId) => ({ realmId: REALM, userId, amount: 1 }));
  const r = await runLoad(calls, concurrency, (i) => {
    const t = targets[i % targets.length]!;
    return unary(t.client, 'Consume', reqs[i % reqs.length]!, t.key);
  });
  if (r.failed) throw new Error(`${r.failed} consumes failed`);
  return r;
}
