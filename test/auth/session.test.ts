// The direct session (docs/login.md): refresh rotation at the token endpoint, reuse revokes the
// family, IP binding, RFC 7009 revocation, RFC 7662 introspection and the user's own token check.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { status } from '@grpc/grpc-js';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { http } from '../helpers/http.ts';
import { bootstrapKey } from '../helpers/server.ts';
import { type AuthFixture, authFixture, OTHER_REALM, REALM } from './fixture.ts';

describe('sessions and tokens', () => {
  let f: AuthFixture;
  let introspectKey: string;
  let weakKey: string;
  const used: string[] = [];
  let seq = 0;

  const session = async (clientId = 'app', ip = '203.0.113.10') => {
    const idt = await f.apple.token({ sub: `sess-${++seq}`, email: `sess${seq}@example.com` });
    used.push(idt);
    const r = await f.login('apple', { identityToken: idt, clientId }, { ip });
    assert.equal(r.status, 200, r.text);
    used.push(r.body.accessToken, r.body.refreshToken);
    return r.body as { accessToken: string; refreshToken: string; userId: string };
  };
  const refresh = async (refreshToken: string, opts: { ip?: string; clientId?: string; json?: boolean } = {}) => {
    const params: Record<string, string> = { grant_type: 'refresh_token', refresh_token: refreshToken, ...(opts.clientId ? { client_id: opts.clientId } : {}) };
    const r = await http(f.srv.http, 'POST', `/api/oauth/${REALM}/token`, {
      ...(opts.json ? { body: params } : { form: params }),
      headers: { 'x-forwarded-for': opts.ip ?? '203.0.113.10' },
    });
    if (r.status === 200) used.push(r.body.access_token, r.body.refresh_token);
    return r;
  };
  const introspect = async (token: string, key = introspectKey) => http(f.srv.http, 'POST', `/api/oauth/${REALM}/introspect`, { form: { token }, key });
  const me = (token: string, ip = '203.0.113.10') => http(f.srv.http, 'GET', `/api/oauth/${REALM}/userinfo`, { token, headers: { 'x-forwarded-for': ip } });

  before(async () => {
    f = await authFixture({ inProcess: { config: { trustProxy: 1 } } });
    introspectKey = await bootstrapKey(f.srv.dbPath, REALM, ['tokens.introspect']);
    weakKey = await bootstrapKey(f.srv.dbPath, REALM, ['points.view']);
  });
  after(async () => {
    closeGrpcClients();
    await f.close();
  });

  it('rotates the refresh token on every use (form and JSON bodies)', async () => {
    const s = await session();
    const r1 = await refresh(s.refreshToken);
    assert.equal(r1.status, 200, r1.text);
    assert.deepEqual(Object.keys(r1.body).sort(), ['access_token', 'expires_in', 'refresh_expires_in', 'refresh_token', 'token_type']);
    assert.equal(r1.body.token_type, 'Bearer');
    assert.equal(r1.body.expires_in, 900);
    assert.notEqual(r1.body.refresh_token, s.refreshToken);
    assert.equal(r1.headers.get('cache-control'), 'no-store');
    const r2 = await refresh(r1.body.refresh_token, { json: true, clientId: 'app' });
    assert.equal(r2.status, 200, r2.text);
    assert.equal((await me(r2.body.access_token)).body.sub, s.userId);
  });

  it('revokes the whole family when a rotated refresh token comes back (400 invalid_grant, RFC 6749 §5.2)', async () => {
    const s = await session();
    const r1 = await refresh(s.refreshToken);
    const replay = await refresh(s.refreshToken);
    assert.equal(replay.status, 400);
    assert.match(replay.body.error_description, /already used/);
    assert.equal(replay.body.error, 'invalid_grant');
    assert.equal(typeof replay.body.error_description, 'string');
    const next = await refresh(r1.body.refresh_token);
    assert.equal(next.status, 400, 'the newest token of a revoked family is dead too');
    assert.equal(next.body.error, 'invalid_grant');
    assert.equal((await me(r1.body.access_token)).status, 401);
    assert.equal((await me(s.accessToken)).status, 401);
    assert.deepEqual((await introspect(r1.body.access_token)).body, { active: false });
  });

  it('answers the RFC 6749 error codes at the token endpoint', async () => {
    const cases: Array<[Record<string, string>, number, string]> = [
      [{}, 400, 'invalid_request'],
      [{ grant_type: 'password', username: 'a', password: 'b' }, 400, 'unsupported_grant_type'],
      [{ grant_type: 'refresh_token' }, 400, 'invalid_request'],
      [{ grant_type: 'refresh_token', refresh_token: 'rt_nope' }, 400, 'invalid_grant'],
    ];
    for (const [form, code, error] of cases) {
      const r = await http(f.srv.http, 'POST', `/api/oauth/${REALM}/token`, { form });
      assert.equal(r.status, code, JSON.stringify(form));
      assert.equal(r.body.error, error);
    }
    const s = await session();
    const wrongClient = await refresh(s.refreshToken, { clientId: 'app-exact' });
    assert.equal(wrongClient.status, 400);
    const otherRealm = await http(f.srv.http, 'POST', `/api/oauth/${OTHER_REALM}/token`, {
      form: { grant_type: 'refresh_token', refresh_token: s.refreshToken },
    });
    assert.equal(otherRealm.status, 400);
    assert.equal((await refresh(s.refreshToken)).status, 200, 'refused attempts did not consume the token');
  });

  it('stops refreshing once the client is disabled, and not again when it is enabled again', async () => {
    const s = await session('app-subnet', '198.51.100.7');
    assert.equal((await f.admin.patch(`/api/admin/realms/${REALM}/clients/app-subnet`, { enabled: false })).status, 200);
    const r = await refresh(s.refreshToken, { ip: '198.51.100.7' });
    assert.equal(r.status, 400);
    assert.equal(r.body.error, 'invalid_grant');
    assert.equal((await f.admin.patch(`/api/admin/realms/${REALM}/clients/app-subnet`, { enabled: true })).status, 200);
    assert.equal((await refresh(s.refreshToken, { ip: '198.51.100.7' })).status, 400, 'disabling ended the session');
  });

  it('refreshes over gRPC too', async () => {
    const s = await session();
    const r = await grpcCall(f.srv.grpc, 'AuthService', 'Token', { realmId: REALM, grantType: 'refresh_token', refreshToken: s.refreshToken });
    assert.ok(r.ok, JSON.stringify(r));
    used.push(r.value.accessToken, r.value.refreshToken);
    const again = await grpcCall(f.srv.grpc, 'AuthService', 'Token', { realmId: REALM, grantType: 'refresh_token', refreshToken: s.refreshToken });
    assert.ok(!again.ok);
    assert.equal(again.error.code, status.INVALID_ARGUMENT);
    assert.equal(again.error.reason, 'invalid_grant');
  });

  describe('IP binding', () => {
    it('exact: refresh and token checks from another address fail', async () => {
      const s = await session('app-exact', '198.51.100.7');
      assert.equal((await me(s.accessToken, '198.51.100.7')).status, 200);
      assert.equal((await me(s.accessToken, '198.51.100.8')).status, 401);
      const away = await refresh(s.refreshToken, { ip: '198.51.100.8' });
      assert.equal(away.status, 401);
      assert.equal(away.body.error, 'invalid_grant');
      const home = await refresh(s.refreshToken, { ip: '198.51.100.7' });
      assert.equal(home.status, 200, 'a refused refresh does not burn the token');
    });

    it('subnet: the same /24 (IPv4) or /64 (IPv6) is accepted, another is not', async () => {
      const s = await session('app-subnet', '198.51.100.7');
      assert.equal((await me(s.accessToken, '198.51.100.200')).status, 200);
      assert.equal((await me(s.accessToken, '198.51.101.7')).status, 401);
      const r = await refresh(s.refreshToken, { ip: '198.51.100.99' });
      assert.equal(r.status, 200);
      assert.equal((await refresh(r.body.refresh_token, { ip: '198.51.99.1' })).status, 401);
      const v6 = await session('app-subnet', '2001:db8:1:2::10');
      assert.equal((await me(v6.accessToken, '2001:db8:1:2:ffff::1')).status, 200);
      assert.equal((await me(v6.accessToken, '2001:db8:1:3::10')).status, 401);
    });

    it('off: any address works', async () => {
      const s = await session('app', '198.51.100.7');
      assert.equal((await me(s.accessToken, '192.0.2.1')).status, 200);
      assert.equal((await refresh(s.refreshToken, { ip: '192.0.2.1' })).status, 200);
    });
  });

  describe('revocation (RFC 7009)', () => {
    it('revoking a refresh token ends the family', async () => {
      const s = await session();
      const r = await http(f.srv.http, 'POST', `/api/oauth/${REALM}/revoke`, { form: { token: s.refreshToken, token_type_hint: 'refresh_token' } });
      assert.equal(r.status, 200);
      assert.equal((await me(s.accessToken)).status, 401);
      assert.equal((await refresh(s.refreshToken)).status, 400);
    });

    it('revoking an access token ends the family', async () => {
      const s = await session();
      assert.equal((await http(f.srv.http, 'POST', `/api/oauth/${REALM}/revoke`, { form: { token: s.accessToken } })).status, 200);
      assert.equal((await refresh(s.refreshToken)).status, 400);
    });

    it('answers 200 for an unknown token', async () => {
      assert.equal((await http(f.srv.http, 'POST', `/api/oauth/${REALM}/revoke`, { form: { token: 'rt_unknown' } })).status, 200);
    });
  });

  describe('introspection (RFC 7662)', () => {
    it('describes an active access token and refresh token', async () => {
      const s = await session();
      const a = await introspect(s.accessToken);
      assert.equal(a.status, 200, a.text);
      assert.equal(a.body.active, true);
      assert.equal(a.body.sub, s.userId);
      assert.equal(a.body.client_id, 'app');
      assert.equal(a.body.iss, `${f.srv.http}/api/oauth/${REALM}`);
      assert.equal(typeof a.body.exp, 'number');
      const rt = await introspect(s.refreshToken);
      assert.equal(rt.body.active, true);
      assert.equal(rt.body.token_type, 'refresh_token');
      assert.deepEqual((await introspect('garbage')).body, { active: false });
    });

    it('needs an API key with tokens.introspect for the realm', async () => {
      const s = await session();
      assert.equal((await http(f.srv.http, 'POST', `/api/oauth/${REALM}/introspect`, { form: { token: s.accessToken } })).status, 401);
      assert.equal((await introspect(s.accessToken, weakKey)).status, 403);
      const otherRealm = await http(f.srv.http, 'POST', `/api/oauth/${OTHER_REALM}/introspect`, { form: { token: s.accessToken }, key: introspectKey });
      assert.equal(otherRealm.status, 403);
      const wrongRealmAdmin = await http(f.srv.http, 'POST', `/api/oauth/${OTHER_REALM}/introspect`, { form: { token: s.accessToken }, key: f.srv.adminKey });
      assert.deepEqual(wrongRealmAdmin.body, { active: false });
    });
  });

  it('serves the RFC 8414 metadata', async () => {
    const r = await http(f.srv.http, 'GET', `/api/oauth/${REALM}/.well-known/oauth-authorization-server`);
    assert.equal(r.status, 200);
    const iss = `${f.srv.http}/api/oauth/${REALM}`;
    assert.equal(r.body.issuer, iss);
    assert.equal(r.body.token_endpoint, `${iss}/token`);
    assert.equal(r.body.authorization_endpoint, `${iss}/authorize`);
    assert.deepEqual(r.body.code_challenge_methods_supported, ['S256']);
    assert.equal((await http(f.srv.http, 'GET', '/api/oauth/nope/.well-known/oauth-authorization-server')).status, 404);
  });

  it('never writes a token to the log', () => {
    const logs = f.srv.logs();
    assert.ok(used.length > 20);
    for (const t of used) assert.ok(!logs.includes(t), 'a token appears in the log');
  });
});
