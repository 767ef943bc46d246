// Third-party apps: /authorize, native login with downstreamState, the code exchange with
// PKCE at the token endpoint. The end-to-end test drives the flow with openid-client, an
// independently written OAuth client, playing the third-party app's backend.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as oidc from 'openid-client';
import { s256 } from '../../server/auth/pkce.ts';
import { ManualClock } from '../../server/lib/clock.ts';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { type HttpResult, http } from '../helpers/http.ts';
import { type AuthFixture, authFixture, decodeJwt, OTHER_REALM, PARTNER_REDIRECT, REALM } from './fixture.ts';

const P2_REDIRECT = 'https://partner2.example/cb';

describe('the downstream authorization code with PKCE', () => {
  let f: AuthFixture;
  const clock = new ManualClock(Date.now());
  let seq = 0;
  const used: string[] = [];

  const idToken = async (aud?: string) => {
    const t = await f.apple.token({ sub: `ds-${++seq}`, email: `ds${seq}@example.com`, ...(aud ? { aud } : {}) }, { now: Math.floor(clock.now() / 1000) });
    used.push(t);
    return t;
  };
  const verifier = () => `v${seq++}-`.padEnd(64, 'x');
  const authorize = (params: Record<string, string>, realm = REALM) => http(f.srv.http, 'GET', `/api/oauth/${realm}/authorize?${new URLSearchParams(params)}`);
  const start = async (o: { clientId?: string; redirectUri?: string; state?: string; verifier?: string } = {}) => {
    const v = o.verifier ?? verifier();
    const state = o.state ?? `state-${++seq}-abcdef`;
    const r = await authorize({
      response_type: 'code',
      client_id: o.clientId ?? 'partner2',
      redirect_uri: o.redirectUri ?? P2_REDIRECT,
      state,
      code_challenge: s256(v),
      code_challenge_method: 'S256',
    });
    assert.equal(r.status, 200, r.text);
    return { state, verifier: v };
  };
  const nativeCode = async (state: string, clientId = 'partner2', realm = REALM): Promise<HttpResult> =>
    f.login('apple', { identityToken: await idToken(realm === OTHER_REALM ? 'com.other.app' : undefined), clientId, downstreamState: state }, { realm });
  const codeOf = (redirectUri: string) => new URL(redirectUri).searchParams.get('code')!;
  const exchange = (form: Record<string, string>, json = false) =>
    http(
      f.srv.http,
      'POST',
      `/api/oauth/${REALM}/token`,
      json ? { body: { grant_type: 'authorization_code', ...form } } : { form: { grant_type: 'authorization_code', ...form } },
    );

  before(async () => {
    f = await authFixture({ inProcess: { clock } });
  });
  after(async () => {
    closeGrpcClients();
    await f.close();
  });

  it('runs end to end with openid-client as the third-party app: authorize, native login, code exchange, refresh', async () => {
    const config = await oidc.discovery(
      new URL(`${f.srv.http}/api/oauth/${REALM}/.well-known/oauth-authorization-server`),
      'partner2',
      undefined,
      oidc.None(),
      { execute: [oidc.allowInsecureRequests] },
    );
    assert.equal(config.serverMetadata().issuer, `${f.srv.http}/api/oauth/${REALM}`);
    const pkceCodeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: P2_REDIRECT,
      code_challenge: await oidc.calculatePKCECodeChallenge(pkceCodeVerifier),
      code_challenge_method: 'S256',
      state,
    });
    // The app opens /authorize and gets the pending transaction back.
    const tx = await http(f.srv.http, 'GET', url.pathname + url.search);
    assert.equal(tx.status, 200, tx.text);
    assert.deepEqual(tx.body, { state, clientId: 'partner2', redirectUri: P2_REDIRECT, expiresIn: 300 });
    // The app signs in with Apple natively and completes the transaction.
    const login = await nativeCode(state);
    assert.equal(login.status, 200, login.text);
    assert.deepEqual(Object.keys(login.body), ['redirectUri']);
    const back = new URL(login.body.redirectUri);
    assert.equal(back.origin + back.pathname, P2_REDIRECT);
    assert.equal(back.searchParams.get('state'), state);
    assert.match(back.searchParams.get('code')!, /^ac_/);
    used.push(back.searchParams.get('code')!);
    // The app's backend exchanges the code with its verifier, then refreshes.
    const tokens = await oidc.authorizationCodeGrant(config, back, { pkceCodeVerifier, expectedState: state });
    assert.equal(tokens.token_type.toLowerCase(), 'bearer');
    assert.equal(tokens.expires_in, 900);
    assert.ok(tokens.refresh_token);
    used.push(tokens.access_token, tokens.refresh_token!);
    const claims = decodeJwt(tokens.access_token).payload;
    assert.equal(claims.aud, 'partner2', 'the family is bound to the third-party client');
    const me = await http(f.srv.http, 'GET', `/api/oauth/${REALM}/userinfo`, { token: tokens.access_token });
    assert.equal(me.status, 200);
    assert.equal(me.body.client_id, 'partner2');
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    assert.ok(refreshed.access_token);
    assert.notEqual(refreshed.refresh_token, tokens.refresh_token);
    used.push(refreshed.access_token, refreshed.refresh_token!);
    // …and a second exchange of the same code fails in the client library too.
    await assert.rejects(
      oidc.authorizationCodeGrant(config, back, { pkceCodeVerifier, expectedState: state }),
      (e: { error?: string }) => e.error === 'invalid_grant',
    );
  });

  it('keeps the query of a registered redirect URI and works for a custom-scheme URI', async () => {
    const a = await start({ clientId: 'partner', redirectUri: PARTNER_REDIRECT });
    const r = await nativeCode(a.state, 'partner');
    assert.equal(r.status, 200, r.text);
    assert.ok(r.body.redirectUri.startsWith(`${PARTNER_REDIRECT}&code=ac_`), r.body.redirectUri);
    const ex = await exchange({ code: codeOf(r.body.redirectUri), redirect_uri: PARTNER_REDIRECT, client_id: 'partner', code_verifier: a.verifier }, true);
    assert.equal(ex.status, 200, ex.text);
    used.push(ex.body.access_token, ex.body.refresh_token);
    const b = await start({ clientId: 'partner', redirectUri: 'com.partner.app:/oauth' });
    const rb = await nativeCode(b.state, 'partner');
    assert.ok(rb.body.redirectUri.startsWith('com.partner.app:/oauth?code=ac_'));
  });

  describe('/authorize refuses', () => {
    const ok = {
      response_type: 'code',
      client_id: 'partner2',
      redirect_uri: P2_REDIRECT,
      state: 'state-refusals-1',
      code_challenge: s256('y'.repeat(50)),
      code_challenge_method: 'S256',
    };
    const cases: Array<[string, Record<string, string>]> = [
      ['an unknown client', { client_id: 'nope' }],
      ['a disabled client', { client_id: 'app-off' }],
      ['a redirect URI that is not registered', { redirect_uri: 'https://evil.example/cb' }],
      ['a redirect URI that only starts like a registered one', { redirect_uri: `${P2_REDIRECT}/../x` }],
      ['a redirect URI with an extra query', { redirect_uri: `${P2_REDIRECT}?a=1` }],
      ['response_type token', { response_type: 'token' }],
      ['plain PKCE', { code_challenge_method: 'plain', code_challenge: 'y'.repeat(50) }],
      ['a missing code_challenge_method', { code_challenge_method: '' }],
      ['a missing code_challenge', { code_challenge: '' }],
      ['a state shorter than 8', { state: 'short' }],
      ['a state longer than 512', { state: 's'.repeat(513) }],
    ];
    for (const [name, patch] of cases) {
      it(name, async () => {
        const r = await authorize({ ...ok, ...patch });
        assert.ok(r.status === 400 || r.status === 401, `${r.status} ${r.text}`);
        assert.ok(['invalid_request', 'unauthorized_client', 'invalid_client', 'unsupported_response_type'].includes(r.body.error), r.text);
      });
    }
    it('a state that is already pending (but accepts it again once consumed)', async () => {
      const a = await start({ state: 'state-pending-1' });
      const again = await authorize({ ...ok, state: 'state-pending-1' });
      assert.equal(again.status, 400);
      assert.equal((await nativeCode(a.state)).status, 200);
      assert.equal((await authorize({ ...ok, state: 'state-pending-1' })).status, 200);
    });
  });

  describe('native login with downstreamState answers 400 bad_request and writes nothing for', () => {
    const refused = async (state: string, clientId = 'partner2', realm = REALM) => {
      const before = await f.counts();
      const r = await nativeCode(state, clientId, realm);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.error, 'bad_request');
      const after = await f.counts();
      assert.equal(after.users, before.users);
      assert.equal(after.codes, before.codes);
      assert.equal(after.families, before.families);
    };
    it('an unknown state', () => refused('never-issued-state'));
    it('an empty state', () => refused(''));
    it('a consumed state', async () => {
      const a = await start();
      assert.equal((await nativeCode(a.state)).status, 200);
      await refused(a.state);
    });
    it('an expired state (300 s)', async () => {
      const a = await start();
      clock.advance(301_000);
      await refused(a.state);
    });
    it("another client's state", async () => {
      const a = await start();
      await refused(a.state, 'partner');
      assert.equal((await nativeCode(a.state)).status, 200, 'the refused attempt did not consume it');
    });
    it("another realm's state", async () => {
      const a = await start();
      await refused(a.state, 'app', OTHER_REALM);
    });
    it('over gRPC too', async () => {
      const g = await grpcCall(f.srv.grpc, 'AuthService', 'NativeLogin', {
        realmId: REALM,
        provider: 'apple',
        identityToken: await idToken(),
        clientId: 'partner2',
        downstreamState: 'never-issued-state',
      });
      assert.ok(!g.ok);
      assert.equal(g.error.reason, 'bad_request');
    });
  });

  describe('the code exchange', () => {
    const issue = async () => {
      const a = await start();
      const r = await nativeCode(a.state);
      assert.equal(r.status, 200, r.text);
      const code = codeOf(r.body.redirectUri);
      used.push(code);
      return { code, verifier: a.verifier, form: { code, redirect_uri: P2_REDIRECT, client_id: 'partner2', code_verifier: a.verifier } };
    };

    it('refuses a wrong verifier with invalid_grant', async () => {
      const c = await issue();
      const r = await exchange({ ...c.form, code_verifier: 'z'.repeat(43) });
      assert.equal(r.status, 400);
      assert.equal(r.body.error, 'invalid_grant');
    });

    it('refuses a malformed or missing verifier with invalid_request', async () => {
      const c = await issue();
      for (const v of ['short', 'x'.repeat(129), 'bad char!'.padEnd(50, 'x'), '']) {
        const r = await exchange({ ...c.form, code_verifier: v });
        assert.equal(r.status, 400);
        assert.equal(r.body.error, 'invalid_request', v);
      }
    });

    it('refuses a wrong redirect URI or another client', async () => {
      const c = await issue();
      assert.equal((await exchange({ ...c.form, redirect_uri: `${P2_REDIRECT}x` })).body.error, 'invalid_grant');
      assert.equal((await exchange({ ...c.form, client_id: 'partner' })).body.error, 'invalid_grant');
      const unknown = await exchange({ ...c.form, client_id: 'nope' });
      assert.equal(unknown.status, 401);
      assert.equal(unknown.body.error, 'invalid_client');
    });

    it('refuses a code older than 120 s', async () => {
      const c = await issue();
      clock.advance(121_000);
      assert.equal((await exchange(c.form)).body.error, 'invalid_grant');
    });

    it('refuses a replayed code and revokes the family issued from it', async () => {
      const c = await issue();
      const first = await exchange(c.form);
      assert.equal(first.status, 200, first.text);
      used.push(first.body.access_token, first.body.refresh_token);
      const replay = await exchange(c.form);
      assert.equal(replay.status, 400);
      assert.equal(replay.body.error, 'invalid_grant');
      const me = await http(f.srv.http, 'GET', `/api/oauth/${REALM}/userinfo`, { token: first.body.access_token });
      assert.equal(me.status, 401);
      const refresh = await http(f.srv.http, 'POST', `/api/oauth/${REALM}/token`, {
        form: { grant_type: 'refresh_token', refresh_token: first.body.refresh_token },
      });
      assert.equal(refresh.body.error, 'invalid_grant');
    });

    it('refuses a code at another realm', async () => {
      const c = await issue();
      const r = await http(f.srv.http, 'POST', `/api/oauth/${OTHER_REALM}/token`, { form: { grant_type: 'authorization_code', ...c.form } });
      assert.equal(r.body.error, 'invalid_client', 'partner2 is no client of the other realm');
      const same = await http(f.srv.http, 'POST', `/api/oauth/${OTHER_REALM}/token`, {
        form: { grant_type: 'authorization_code', ...c.form, client_id: 'app' },
      });
      assert.equal(same.body.error, 'invalid_grant');
      assert.equal((await exchange(c.form)).status, 200, 'the refused attempts did not use the code');
    });
  });

  it('never writes a code or token to the log', () => {
    const logs = f.srv.logs();
    assert.ok(used.length > 10);
    for (const t of used) assert.ok(!logs.includes(t), 'a secret appears in the log');
  });
});
