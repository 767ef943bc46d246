// User-level controls over the real server: disabling an account refuses its logins on every path
// (native login over HTTP and gRPC, the downstream code flow) with 403 forbidden and revokes every
// session it had; enabling lets it log in again; signing it out everywhere revokes every session
// (refresh → invalid_grant, access tokens inactive at /me, /userinfo and introspection from the next
// call). Through the admin API (HTTP and gRPC) and the CLI (`gatehouse users …`).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { status } from '@grpc/grpc-js';
import { s256 } from '../../server/auth/pkce.ts';
import { runCli } from '../helpers/cli.ts';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { http } from '../helpers/http.ts';
import { bootstrapKey } from '../helpers/server.ts';
import { type AuthFixture, authFixture, PARTNER_REDIRECT, REALM } from './fixture.ts';

interface Session {
  userId: string;
  accessToken: string;
  refreshToken: string;
}

describe('user-level controls', () => {
  let f: AuthFixture;
  let weakKey: string;
  let seq = 0;

  before(async () => {
    f = await authFixture({ inProcess: { config: { trustProxy: 1 } } });
    weakKey = await bootstrapKey(f.srv.dbPath, REALM, ['points.view']);
  });
  after(async () => {
    closeGrpcClients();
    await f.close();
  });

  const idToken = (sub: string) => f.apple.token({ sub, email: `${sub}@example.com` });
  const login = async (sub: string): Promise<Session> => {
    const r = await f.login('apple', { identityToken: await idToken(sub), clientId: 'app' });
    assert.equal(r.status, 200, r.text);
    return r.body as Session;
  };
  const newUser = async () => {
    const sub = `ctl-${++seq}`;
    return { sub, first: await login(sub), second: await login(sub) };
  };
  const refresh = (token: string) => http(f.srv.http, 'POST', `/api/oauth/${REALM}/token`, { form: { grant_type: 'refresh_token', refresh_token: token } });
  const userinfo = (token: string) => http(f.srv.http, 'GET', `/api/oauth/${REALM}/userinfo`, { token });
  const me = (token: string) => http(f.srv.http, 'GET', `/api/points/${REALM}/me`, { token });
  const introspect = (token: string) => http(f.srv.http, 'POST', `/api/oauth/${REALM}/introspect`, { form: { token }, key: f.srv.adminKey });
  const action = (userId: string, verb: 'disable' | 'enable' | 'sign-out', key?: string) =>
    f.admin.post(`/api/admin/realms/${REALM}/users/${userId}/${verb}`, {}, { key });

  /** Every way a session is used works (or is refused, once revoked), from the next call on. */
  async function assertSession(s: Session, live: boolean) {
    assert.equal((await userinfo(s.accessToken)).status, live ? 200 : 401, '/userinfo');
    assert.equal((await me(s.accessToken)).status, live ? 200 : 401, '/me');
    assert.equal((await introspect(s.accessToken)).body.active, live, 'introspection');
    const r = await refresh(s.refreshToken);
    if (live) assert.equal(r.status, 200, r.text);
    else assert.equal(r.body.error, 'invalid_grant', r.text);
  }

  it('disables an account over HTTP: every session ends, and every login is refused 403 forbidden, writing nothing', async () => {
    const u = await newUser();
    const r = await action(u.first.userId, 'disable');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.id, u.first.userId);
    assert.equal(r.body.disabled, true);
    assert.match(r.body.disabledAt, /^\d{4}-\d\d-\d\dT/);
    await assertSession(u.first, false);
    await assertSession(u.second, false);

    const before = await f.counts();
    const refused = await f.login('apple', { identityToken: await idToken(u.sub), clientId: 'app' });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.error, 'forbidden');
    assert.match(refused.body.message, /account is disabled/);
    const overGrpc = await grpcCall(f.srv.grpc, 'AuthService', 'NativeLogin', {
      realmId: REALM,
      provider: 'apple',
      identityToken: await idToken(u.sub),
      clientId: 'app',
    });
    assert.ok(!overGrpc.ok && overGrpc.error.code === status.PERMISSION_DENIED, JSON.stringify(overGrpc));
    assert.deepEqual(await f.counts(), before);
    // Shown by the account's read; disabling again keeps the first time.
    const read = await f.admin.get(`/api/admin/realms/${REALM}/users/${u.first.userId}`);
    assert.equal(read.body.disabled, true);
    assert.equal((await action(u.first.userId, 'disable')).body.disabledAt, r.body.disabledAt);
  });

  it('refuses the downstream code flow of a disabled account, and a code issued before it was disabled', async () => {
    const u = await newUser();
    const verifier = 'v'.repeat(43);
    const authorize = async (state: string) => {
      const q = new URLSearchParams({
        response_type: 'code',
        client_id: 'partner',
        redirect_uri: PARTNER_REDIRECT,
        state,
        code_challenge: s256(verifier),
        code_challenge_method: 'S256',
      });
      assert.equal((await http(f.srv.http, 'GET', `/api/oauth/${REALM}/authorize?${q}`)).status, 200);
    };
    await authorize(`state-before-${seq}`);
    const issued = await f.login('apple', { identityToken: await idToken(u.sub), clientId: 'partner', downstreamState: `state-before-${seq}` });
    assert.equal(issued.status, 200, issued.text);
    const code = new URL(issued.body.redirectUri).searchParams.get('code')!;

    assert.equal((await action(u.first.userId, 'disable')).status, 200);
    const exchanged = await http(f.srv.http, 'POST', `/api/oauth/${REALM}/token`, {
      form: { grant_type: 'authorization_code', code, redirect_uri: PARTNER_REDIRECT, client_id: 'partner', code_verifier: verifier },
    });
    assert.equal(exchanged.status, 400, exchanged.text);
    assert.equal(exchanged.body.error, 'invalid_grant');
    assert.equal(exchanged.body.error_description, 'the account is disabled');

    await authorize(`state-after-${seq}`);
    const refused = await f.login('apple', { identityToken: await idToken(u.sub), clientId: 'partner', downstreamState: `state-after-${seq}` });
    assert.equal(refused.status, 403, refused.text);
  });

  it('enables the account again over gRPC: logins succeed, the sessions disabling ended stay ended', async () => {
    const u = await newUser();
    assert.equal((await action(u.first.userId, 'disable')).status, 200);
    const r = await grpcCall(f.srv.grpc, 'AdminService', 'EnableUser', { realmId: REALM, userId: u.first.userId }, f.srv.adminKey);
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.value.disabled, false);
    assert.equal(r.value.disabledAt, null);
    await assertSession(u.first, false);
    await assertSession(await login(u.sub), true);
  });

  it('signs an account out everywhere over gRPC: each session ends from the next call, and the account may log in again', async () => {
    const u = await newUser();
    const other = await newUser();
    assert.equal((await userinfo(u.first.accessToken)).status, 200);
    assert.equal((await introspect(u.second.accessToken)).body.active, true);
    const r = await grpcCall(f.srv.grpc, 'AdminService', 'SignOutUser', { realmId: REALM, userId: u.first.userId }, f.srv.adminKey);
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.value.revokedSessions, 2);
    await assertSession(u.first, false);
    await assertSession(u.second, false);
    await assertSession(other.first, true);
    const again = await login(u.sub);
    await assertSession(again, true);
  });

  it('answers 404 for an unknown user, and 403 to a key without users.manage, changing nothing', async () => {
    for (const verb of ['disable', 'enable', 'sign-out'] as const) {
      const missing = await action('usr_nobody', verb);
      assert.equal(missing.status, 404, `${verb}: ${missing.text}`);
      assert.equal(missing.body.error, 'not_found');
    }
    const u = await newUser();
    for (const verb of ['disable', 'sign-out'] as const) {
      const denied = await action(u.first.userId, verb, weakKey);
      assert.equal(denied.status, 403, denied.text);
    }
    await assertSession(u.second, true);
  });

  describe('the CLI', () => {
    const cli = (args: string[]) => runCli(args, { env: { GATEHOUSE_SERVER: f.srv.grpc, GATEHOUSE_API_KEY: f.srv.adminKey, GATEHOUSE_REALM: REALM } });

    it('disables, enables and signs out a user, as text and as JSON', async () => {
      const u = await newUser();
      const disabled = await cli(['users', 'disable', u.first.userId, '--json']);
      assert.equal(disabled.code, 0, disabled.stderr);
      assert.equal(disabled.json().disabled, true);
      assert.equal(disabled.json().id, u.first.userId);
      await assertSession(u.first, false);
      assert.equal((await f.login('apple', { identityToken: await idToken(u.sub), clientId: 'app' })).status, 403);

      const enabled = await cli(['users', 'enable', u.first.userId]);
      assert.equal(enabled.code, 0, enabled.stderr);
      assert.match(enabled.stdout, new RegExp(`^enabled ${u.first.userId} `));
      const s = await login(u.sub);

      const out = await cli(['users', 'sign-out', u.first.userId, '--json']);
      assert.equal(out.code, 0, out.stderr);
      assert.deepEqual(out.json(), { revokedSessions: 1 });
      await assertSession(s, false);
      const text = await cli(['users', 'sign-out', u.first.userId]);
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /0 session\(s\) revoked/);
    });

    it('reports an unknown user on stderr with not_found and exits 1', async () => {
      const r = await cli(['users', 'disable', 'usr_nobody', '--json']);
      assert.equal(r.code, 1);
      assert.equal(r.stdout, '');
      assert.equal(JSON.parse(r.stderr).error, 'not_found');
    });
  });
});
