// Deleting an account (docs/login.md "Deleting an account"): the user's own DELETE
// …/me and the admin's DELETE …/users/{userId}, over HTTP and gRPC, against a real server; what is
// left of the account afterwards; and the revocation of the user's Apple tokens against a stand-in
// for Apple's token and revoke endpoints that checks the client secret as Apple does. The queue's
// time is the server's manual clock: the test moves it and runs the queue's round itself.

import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, beforeEach, describe, it } from 'node:test';
import { status } from '@grpc/grpc-js';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { ManualClock } from '../../server/lib/clock.ts';
import { describeEachBackend } from '../helpers/backends.ts';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { http } from '../helpers/http.ts';
import { bootstrapKey, type InProcessServer } from '../helpers/server.ts';
import { openStoresAt, subscribeToEveryEvent } from '../helpers/stores.ts';
import { T0 } from '../store/contract.ts';
import { APPLE_AUD, type AuthFixture, authFixture, configureAppleSigning, KEY_ID, OTHER_REALM, REALM, SERVICES_ID, TEAM_ID } from './fixture.ts';

const HOUR = 3_600_000;
const IP = '203.0.113.10';

type AppleMode = 'ok' | 'refuse' | 'down';

describeEachBackend('account deletion', (backend) => {
  let f: AuthFixture;
  let stores: Awaited<ReturnType<typeof openStoresAt>>;
  let weakKey: string;
  const clock = new ManualClock(T0);
  /** The stand-in signs its ID tokens at the server's time (seconds). */
  const signedAt = () => ({ now: Math.floor(clock.now() / 1000) });
  const p8 = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const privatePem = p8.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

  // The stand-in for Apple: codes it issued (code → the client it was issued to), refresh tokens it
  // gave out (token → client) and the ones it revoked, and every client secret it checked.
  const codes = new Map<string, string>();
  const liveTokens = new Map<string, string>();
  const revoked: string[] = [];
  const secretFailures: string[] = [];
  const used: string[] = []; // codes, tokens and secrets that must never reach the log
  let tokenMode: AppleMode = 'ok';
  let revokeMode: AppleMode = 'ok';
  let seq = 0;

  const json = (res: ServerResponse, code: number, body: unknown) => res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  /** Apple's check of a client secret: ES256 by the team's key, iss team, sub the client, aud
   *  Apple, kid, and a short lifetime at most (clock: the server's). */
  async function checkSecret(form: URLSearchParams): Promise<boolean> {
    const secret = form.get('client_secret') ?? '';
    used.push(secret);
    try {
      const header = decodeProtectedHeader(secret);
      const { payload } = await jwtVerify(secret, p8.publicKey, {
        algorithms: ['ES256'],
        issuer: TEAM_ID,
        subject: form.get('client_id') ?? '',
        audience: 'https://appleid.apple.com',
        requiredClaims: ['iat', 'exp'],
        currentDate: new Date(clock.now()),
      });
      if (header.kid !== KEY_ID) throw new Error(`kid ${header.kid}`);
      if (payload.exp! - payload.iat! > 3600) throw new Error('lifetime');
      return true;
    } catch (e) {
      secretFailures.push((e as Error).message);
      return false;
    }
  }

  async function tokenEndpoint(_req: IncomingMessage, res: ServerResponse, body: string) {
    const form = new URLSearchParams(body);
    if (tokenMode === 'down') return void res.socket?.destroy();
    if (!(await checkSecret(form))) return json(res, 400, { error: 'invalid_client' });
    const code = form.get('code') ?? '';
    const client = codes.get(code);
    if (tokenMode === 'refuse' || form.get('grant_type') !== 'authorization_code' || client === undefined || client !== form.get('client_id')) {
      return json(res, 400, { error: 'invalid_grant' });
    }
    codes.delete(code);
    const refreshToken = `apple-rt-${++seq}`;
    liveTokens.set(refreshToken, client);
    const idToken = await f.apple.token({ sub: `web-${seq}`, aud: client, nonce: webNonce, email: `web${seq}@example.com`, email_verified: true }, signedAt());
    used.push(refreshToken, idToken);
    json(res, 200, { access_token: 'apple-at', token_type: 'Bearer', expires_in: 3600, refresh_token: refreshToken, id_token: idToken });
  }

  async function revokeEndpoint(_req: IncomingMessage, res: ServerResponse, body: string) {
    const form = new URLSearchParams(body);
    if (revokeMode === 'down') return void res.writeHead(503).end('unavailable');
    if (!(await checkSecret(form))) return json(res, 400, { error: 'invalid_client' });
    const token = form.get('token') ?? '';
    if (form.get('token_type_hint') !== 'refresh_token' || liveTokens.get(token) !== form.get('client_id')) return json(res, 400, { error: 'invalid_request' });
    liveTokens.delete(token);
    revoked.push(token);
    res.writeHead(200).end();
  }

  /** A code Apple gave the app (client_id = the bundle id) when the user confirmed the deletion. */
  const appCode = () => {
    const code = `app-code-${++seq}`;
    codes.set(code, APPLE_AUD);
    used.push(code);
    return code;
  };

  let webNonce = '';
  const jobs = () => (f.srv as InProcessServer).running.app.jobs;

  before(async () => {
    f = await authFixture({
      backend,
      inProcess: { clock, config: ({ apple }) => ({ appleAuthUrl: apple.url }), tuning: { jobIntervalMs: 3_600_000 } },
    });
    f.apple.route('POST', '/auth/token', (req, res, body) => void tokenEndpoint(req, res, body));
    f.apple.route('POST', '/auth/revoke', (req, res, body) => void revokeEndpoint(req, res, body));
    await configureAppleSigning(f, privatePem);
    const bonus = await f.admin.put(`/api/points/${REALM}/default-config`, { registrationBonusPoints: 100 });
    assert.equal(bonus.status, 200, bonus.text);
    weakKey = await bootstrapKey(f.srv.dbPath, REALM, ['points.view']);
    stores = await openStoresAt(f.srv.dbPath);
  });
  after(async () => {
    closeGrpcClients();
    await stores.close();
    await f.close();
  });
  beforeEach(() => {
    clock.set(T0); // every test starts at the same instant
    tokenMode = 'ok';
    revokeMode = 'ok';
  });

  /** A native Apple sign-in: the session and the subject. */
  const signIn = async (sub = `del-${++seq}`, realm = REALM) => {
    const idt = await f.apple.token({ sub, email: `${sub}@example.com`, email_verified: true, aud: realm === REALM ? APPLE_AUD : 'com.other.app' }, signedAt());
    const r = await f.login('apple', { identityToken: idt, clientId: 'app' }, { ip: IP, realm });
    assert.equal(r.status, 200, r.text);
    used.push(idt, r.body.accessToken, r.body.refreshToken);
    return { ...(r.body as { accessToken: string; refreshToken: string; userId: string }), sub };
  };
  const deleteMe = (token: string, body?: unknown, realm = REALM) =>
    http(f.srv.http, 'DELETE', `/api/oauth/${realm}/me`, { token, body, headers: { 'x-forwarded-for': IP } });
  const refresh = (refreshToken: string) =>
    http(f.srv.http, 'POST', `/api/oauth/${REALM}/token`, {
      form: { grant_type: 'refresh_token', refresh_token: refreshToken },
      headers: { 'x-forwarded-for': IP },
    });
  const userinfo = (token: string) => http(f.srv.http, 'GET', `/api/oauth/${REALM}/userinfo`, { token, headers: { 'x-forwarded-for': IP } });
  const summary = (userId: string) => f.admin.get(`/api/points/${REALM}/users/${userId}/summary`);
  const consume = (userId: string, key?: string) =>
    f.admin.post(`/api/points/${REALM}/consume`, { userId, amount: 1, ...(key ? { idempotencyKey: key } : {}) });

  describe('DELETE /api/oauth/{realmId}/me', () => {
    it('deletes the caller\'s account: 200 {userId, deletedAt, appleRevocation: "none"}, and every token of it is dead from the next call on', async () => {
      const a = await signIn();
      const other = await signIn(); // another user
      assert.notEqual(other.userId, a.userId);
      // A second session of the same user.
      const second = await f.login(
        'apple',
        { identityToken: await f.apple.token({ sub: a.sub, email: `${a.sub}@example.com` }, signedAt()), clientId: 'app' },
        { ip: IP },
      );
      assert.equal(second.status, 200);
      assert.equal(second.body.userId, a.userId);
      assert.equal((await consume(a.userId, `k-${a.userId}`)).status, 200);

      const r = await deleteMe(a.accessToken);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(Object.keys(r.body).sort(), ['appleRevocation', 'deletedAt', 'userId']);
      assert.equal(r.body.userId, a.userId);
      assert.equal(r.body.appleRevocation, 'none');
      assert.equal(Date.parse(r.body.deletedAt), clock.now());

      // Both sessions: access tokens inactive, refresh tokens invalid_grant.
      for (const s of [a, second.body as { accessToken: string; refreshToken: string }]) {
        assert.equal((await userinfo(s.accessToken)).status, 401);
        const rt = await refresh(s.refreshToken);
        assert.equal(rt.status, 400);
        assert.equal(rt.body.error, 'invalid_grant');
      }
      // Every user API: 404 not_found.
      for (const res of [
        await summary(a.userId),
        await consume(a.userId),
        await consume(a.userId, `k-${a.userId}`),
        await f.admin.get(`/api/admin/realms/${REALM}/users/${a.userId}`),
      ]) {
        assert.equal(res.status, 404, res.text);
        assert.equal(res.body.error, 'not_found', res.text);
      }
      // The other user is untouched.
      assert.equal((await userinfo(other.accessToken)).status, 200);
    });

    it('writes user.deleted, session.revoked (user_deleted) per session and the user.delete audit record, with no personal data', async (t) => {
      // Subscribed for this test alone: the queue the later tests count gets no deliveries of its
      // events (the endpoint is gone before the relay hands them out).
      const subscription = await subscribeToEveryEvent(stores, REALM);
      t.after(() => subscription.unsubscribe());
      const a = await signIn();
      const r = await deleteMe(a.accessToken);
      assert.equal(r.status, 200, r.text);
      // The points events of the account's registration grants are not the deletion's.
      const events = (await stores.records.events(REALM, { limit: 50 })).filter((e) => e.data.userId === a.userId && !e.type.startsWith('points.'));
      assert.deepEqual(events.map((e) => e.type).sort(), ['session.revoked', 'user.created', 'user.deleted']);
      assert.equal(events.find((e) => e.type === 'session.revoked')?.data.reason, 'user_deleted');
      const [audit] = await stores.records.audit(REALM, { action: 'user.delete', targetId: a.userId, limit: 5 });
      assert.deepEqual(audit?.actor, { type: 'user', id: a.userId });
      assert.ok(audit?.requestId);
      const shown = JSON.stringify({ events, audit });
      assert.ok(!shown.includes(a.sub) && !shown.includes('@example.com'), shown);
    });

    it("refuses an expired access token and another realm's, changing nothing", async () => {
      const a = await signIn();
      const elsewhere = await signIn(`del-other-${++seq}`, OTHER_REALM);
      const wrongRealm = await deleteMe(elsewhere.accessToken);
      assert.equal(wrongRealm.status, 401, wrongRealm.text);
      clock.advance(HOUR); // the client's access tokens live 15 minutes
      const expired = await deleteMe(a.accessToken);
      assert.equal(expired.status, 401, expired.text);
      assert.notEqual(await stores.users.getUser(REALM, a.userId), null);
      assert.notEqual(await stores.users.getUser(OTHER_REALM, elsewhere.userId), null);
    });

    it('deleting twice: the token is dead (401), and the admin finds nothing to delete (404 not_found)', async () => {
      const a = await signIn();
      assert.equal((await deleteMe(a.accessToken)).status, 200);
      assert.equal((await deleteMe(a.accessToken)).status, 401);
      const again = await f.admin.delete(`/api/admin/realms/${REALM}/users/${a.userId}`);
      assert.equal(again.status, 404, again.text);
      assert.equal((await stores.records.audit(REALM, { action: 'user.delete', targetId: a.userId, limit: 5 })).length, 1);
    });

    it('refuses a malformed body with the error body and deletes nothing', async () => {
      const a = await signIn();
      const bad = await http(f.srv.http, 'DELETE', `/api/oauth/${REALM}/me`, {
        token: a.accessToken,
        raw: '{"appleAuthorizationCode":',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': IP },
      });
      assert.equal(bad.status, 400, bad.text);
      const long = await deleteMe(a.accessToken, { appleAuthorizationCode: 'x'.repeat(3000) });
      assert.equal(long.status, 400, long.text);
      assert.notEqual(await stores.users.getUser(REALM, a.userId), null);
      assert.equal((await userinfo(a.accessToken)).status, 200);
    });

    it('a new sign-in with the deleted subject creates a new account, without a second registration credit', async () => {
      const a = await signIn();
      assert.equal((await summary(a.userId)).body.balances.registration, 100);
      assert.equal((await deleteMe(a.accessToken)).status, 200);
      const again = await signIn(a.sub);
      assert.notEqual(again.userId, a.userId);
      const s = await summary(again.userId);
      assert.equal(s.status, 200, s.text);
      assert.equal(s.body.balances.registration, 0);
      assert.equal((await summary((await signIn()).userId)).body.balances.registration, 100, 'a new subject still gets it');
    });

    it('the gRPC twin AuthService.DeleteMe answers the same', async () => {
      const a = await signIn();
      const r = await grpcCall(f.srv.grpc, 'AuthService', 'DeleteMe', { realmId: REALM }, a.accessToken, { 'x-forwarded-for': IP });
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal(r.value.userId, a.userId);
      assert.equal(r.value.appleRevocation, 'none');
      const again = await grpcCall(f.srv.grpc, 'AuthService', 'DeleteMe', { realmId: REALM }, a.accessToken, { 'x-forwarded-for': IP });
      assert.equal(again.ok ? null : again.error.code, status.UNAUTHENTICATED);
    });
  });

  describe('DELETE /api/admin/realms/{realmId}/users/{userId}', () => {
    it('needs users.manage, and deletes the account like the user can', async () => {
      const a = await signIn();
      const weak = await f.admin.delete(`/api/admin/realms/${REALM}/users/${a.userId}`, undefined, { key: weakKey });
      assert.equal(weak.status, 403, weak.text);
      assert.equal((await userinfo(a.accessToken)).status, 200);
      const r = await f.admin.delete(`/api/admin/realms/${REALM}/users/${a.userId}`);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual([r.body.userId, r.body.appleRevocation], [a.userId, 'none']);
      assert.equal((await userinfo(a.accessToken)).status, 401);
      const [audit] = await stores.records.audit(REALM, { action: 'user.delete', targetId: a.userId, limit: 5 });
      assert.equal(audit?.actor.type, 'api_key');
    });

    it('answers 404 not_found for an unknown user and for one of another realm', async () => {
      const elsewhere = await signIn(`del-other-${++seq}`, OTHER_REALM);
      for (const path of [`/api/admin/realms/${REALM}/users/usr_nobody`, `/api/admin/realms/${REALM}/users/${elsewhere.userId}`]) {
        const r = await f.admin.delete(path);
        assert.equal(r.status, 404, r.text);
      }
      assert.notEqual(await stores.users.getUser(OTHER_REALM, elsewhere.userId), null);
    });

    it('the gRPC twin AdminService.DeleteUser answers the same', async () => {
      const a = await signIn();
      const r = await grpcCall(f.srv.grpc, 'AdminService', 'DeleteUser', { realmId: REALM, userId: a.userId }, f.srv.adminKey);
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal(r.value.userId, a.userId);
      const again = await grpcCall(f.srv.grpc, 'AdminService', 'DeleteUser', { realmId: REALM, userId: a.userId }, f.srv.adminKey);
      assert.equal(again.ok ? null : again.error.code, status.NOT_FOUND);
    });
  });

  describe('Apple token revocation', () => {
    it('with an authorization code: exchanged with the bundle id and the client secret, its refresh token revoked: "revoked"', async () => {
      const a = await signIn();
      const code = appCode();
      const before = revoked.length;
      const r = await deleteMe(a.accessToken, { appleAuthorizationCode: code });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.appleRevocation, 'revoked');
      assert.equal(revoked.length, before + 1);
      assert.equal(codes.has(code), false, 'the code was exchanged');
      assert.deepEqual(secretFailures, []);
    });

    it('revokes the refresh token the web flow kept (client_id the Services ID), when the admin deletes', async () => {
      // The web flow: login → Apple → the callback, whose code the stand-in exchanges.
      const login = await http(f.srv.http, 'GET', `/api/oauth/${REALM}/apple/login?clientId=app`);
      assert.equal(login.status, 302, login.text);
      const q = new URL(login.headers.get('location')!).searchParams;
      webNonce = q.get('nonce')!;
      const code = `web-code-${++seq}`;
      codes.set(code, SERVICES_ID);
      const cb = await http(f.srv.http, 'POST', `/api/oauth/${REALM}/apple/callback`, {
        form: { code, state: q.get('state')! },
        headers: { 'x-forwarded-for': IP },
      });
      assert.equal(cb.status, 200, cb.text);
      const webToken = [...liveTokens].find(([, client]) => client === SERVICES_ID)?.[0];
      assert.ok(webToken, 'Apple gave the web flow a refresh token');
      const r = await f.admin.delete(`/api/admin/realms/${REALM}/users/${cb.body.userId}`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.appleRevocation, 'revoked');
      assert.ok(revoked.includes(webToken));
      assert.deepEqual(secretFailures, []);
    });

    it('Apple refusing the code: the deletion stands, "pending"; retried from the queue with backoff, then given up after 24 hours with an audit record', async () => {
      const a = await signIn();
      tokenMode = 'refuse';
      const r = await deleteMe(a.accessToken, { appleAuthorizationCode: appCode() });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.appleRevocation, 'pending');
      assert.equal(await stores.users.getUser(REALM, a.userId), null);
      const [job] = await stores.jobs.list(REALM, { kind: 'apple.revoke_code', status: 'pending', limit: 1 });
      assert.ok(job && job.payload.userId === a.userId, 'queued');
      assert.deepEqual([job.attempts, job.lastError], [1, 'Apple refused: invalid_grant']);
      assert.ok(job.runAt > clock.now(), 'backed off');
      // A round also runs the purge job a deletion queues, when it is due: what counts here is
      // this job's own attempts.
      await jobs().runOnce();
      assert.equal((await stores.jobs.get(job.id))!.attempts, 1, 'not due yet');
      let attempts = 1;
      while ((await stores.jobs.get(job.id))!.status === 'pending') {
        clock.set((await stores.jobs.get(job.id))!.runAt);
        await jobs().runOnce();
        attempts++;
        assert.equal((await stores.jobs.get(job.id))!.attempts, attempts, 'one attempt a round once due');
        assert.ok(attempts < 80, 'gives up');
      }
      const end = (await stores.jobs.get(job.id))!;
      assert.equal(end.status, 'failed');
      assert.equal(end.attempts, attempts);
      assert.ok(end.updatedAt >= job.createdAt + 24 * HOUR && end.updatedAt <= job.createdAt + 24 * HOUR + 60_000, 'given up at 24 hours');
      const [record] = await stores.records.audit(REALM, { action: 'job.give_up', targetId: job.id, limit: 1 });
      assert.equal(record?.changes.kind?.after, 'apple.revoke_code');
      assert.ok(!JSON.stringify(record).includes('app-code'), 'the code is not in the record');
    });

    it('Apple down, then back: "pending", then revoked by the queue, with the job.done audit record', async () => {
      const a = await signIn();
      tokenMode = 'down';
      const r = await deleteMe(a.accessToken, { appleAuthorizationCode: appCode() });
      assert.equal(r.body.appleRevocation, 'pending');
      const [job] = await stores.jobs.list(REALM, { kind: 'apple.revoke_code', status: 'pending', limit: 1 });
      assert.ok(job);
      tokenMode = 'ok';
      const before = revoked.length;
      clock.set(job.runAt);
      await jobs().runOnce(); // with the deletion's purge, when it is due too
      assert.equal((await stores.jobs.get(job.id))?.status, 'done');
      assert.equal(revoked.length, before + 1);
      const [record] = await stores.records.audit(REALM, { action: 'job.done', targetId: job.id, limit: 1 });
      assert.equal(record?.changes.outcome?.after, 'revoked');
    });

    it('never logs a code, an Apple token or a client secret', () => {
      const logs = f.srv.logs();
      assert.ok(used.length > 5);
      for (const s of used) assert.ok(!logs.includes(s), `leaked ${s.slice(0, 12)}…`);
    });
  });
});
