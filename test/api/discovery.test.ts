// OAuth discovery at the standard addresses, driven by openid-client (an independently written
// relying-party library, used unmodified) from the issuer URL alone; token_type, the
// unsupported_response_type code, WWW-Authenticate on 401s and token-endpoint refusals that say
// what did not match.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as oidc from 'openid-client';
import { s256 } from '../../server/auth/pkce.ts';
import { ManualClock } from '../../server/lib/clock.ts';
import { type AuthFixture, authFixture, decodeJwt, REALM } from '../auth/fixture.ts';
import { type HttpResult, http } from '../helpers/http.ts';

const CLIENT = 'partner2';
const REDIRECT = 'https://partner2.example/cb';

describe('OAuth discovery and the token endpoint', () => {
  let f: AuthFixture;
  let issuer: string;
  const clock = new ManualClock(Date.now());
  let seq = 0;

  before(async () => {
    f = await authFixture({ inProcess: { clock } });
    issuer = `${f.srv.http}/api/oauth/${REALM}`;
  });
  after(() => f.close());

  const idToken = (claims: Record<string, unknown> = {}) =>
    f.apple.token({ sub: `disc-${++seq}`, email: `disc${seq}@example.com`, ...claims }, { now: Math.floor(clock.now() / 1000) });

  /** /authorize, then the app's native login completing it: the redirect URI with the code. */
  async function codeFor(params: {
    state: string;
    codeChallenge: string;
    fullName?: { givenName: string; familyName: string };
    claims?: Record<string, unknown>;
  }): Promise<URL> {
    const tx = await http(
      f.srv.http,
      'GET',
      `/api/oauth/${REALM}/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: CLIENT,
        redirect_uri: REDIRECT,
        state: params.state,
        code_challenge: params.codeChallenge,
        code_challenge_method: 'S256',
      })}`,
    );
    assert.equal(tx.status, 200, tx.text);
    const login = await f.login('apple', {
      identityToken: await idToken(params.claims),
      clientId: CLIENT,
      downstreamState: params.state,
      fullName: params.fullName,
    });
    assert.equal(login.status, 200, login.text);
    return new URL(login.body.redirectUri);
  }

  /** openid-client's reading of /userinfo for a new session through /authorize (so code, PKCE
   *  and the claims' checks are all the library's own). */
  async function userInfoByOidcClient(fullName?: { givenName: string; familyName: string }, claims?: Record<string, unknown>) {
    const config = await oidc.discovery(new URL(issuer), CLIENT, undefined, undefined, { execute: [oidc.allowInsecureRequests] });
    const pkceCodeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const back = await codeFor({ state, codeChallenge: await oidc.calculatePKCECodeChallenge(pkceCodeVerifier), fullName, claims });
    const tokens = await oidc.authorizationCodeGrant(config, back, { pkceCodeVerifier, expectedState: state });
    const sub = decodeJwt(tokens.access_token).payload.sub as string;
    return { sub, info: await oidc.fetchUserInfo(config, tokens.access_token, sub), sid: decodeJwt(tokens.access_token).payload.sid };
  }

  describe('userinfo (OpenID Connect Core §5.3.2)', () => {
    it('answers openid-client the standard claims by their names: sub, email, email_verified, the names and updated_at in seconds', async () => {
      const { sub, info, sid } = await userInfoByOidcClient({ givenName: 'Ada', familyName: 'Lovelace' }, { email_verified: 'true' });
      assert.equal(info.sub, sub);
      assert.equal(info.email, `disc${seq}@example.com`);
      assert.equal(info.email_verified, true);
      assert.equal(info.given_name, 'Ada');
      assert.equal(info.family_name, 'Lovelace');
      assert.equal(info.name, 'Ada Lovelace');
      assert.equal(info.updated_at, Math.floor(clock.now() / 1000));
      assert.equal(info.client_id, CLIENT);
      assert.equal(info.sid, sid);
      // Nothing else, and none of the API's own camelCase names (/me has those).
      assert.deepEqual(Object.keys(info).sort(), ['client_id', 'email', 'email_verified', 'family_name', 'given_name', 'name', 'sid', 'sub', 'updated_at']);
    });

    it('leaves out the name claims of an account with no name, rather than sending them empty or null', async () => {
      const { sub, info } = await userInfoByOidcClient();
      assert.equal(info.sub, sub);
      assert.equal(info.email_verified, false, 'the ID token did not say the address is verified');
      for (const claim of ['given_name', 'family_name', 'name']) assert.ok(!(claim in info), `${claim}: ${JSON.stringify(info)}`);
      assert.equal(info.updated_at, Math.floor(clock.now() / 1000));
    });

    it('moves updated_at when a later login brings the name the account lacked', async () => {
      const subject = `disc-late-${++seq}`;
      const token = (now: number) => f.apple.token({ sub: subject, email: `${subject}@example.com` }, { now: Math.floor(now / 1000) });
      const first = await f.login('apple', { identityToken: await token(clock.now()), clientId: 'app' });
      assert.equal(first.status, 200, first.text);
      const created = Math.floor(clock.now() / 1000);
      clock.advance(120_000);
      const named = await f.login('apple', { identityToken: await token(clock.now()), clientId: 'app', fullName: { givenName: 'Grace', familyName: '' } });
      assert.equal(named.status, 200, named.text);
      const info = await http(f.srv.http, 'GET', `/api/oauth/${REALM}/userinfo`, { token: named.body.accessToken });
      assert.equal(info.status, 200, info.text);
      assert.equal(info.body.given_name, 'Grace');
      assert.equal(info.body.name, 'Grace');
      assert.ok(!('family_name' in info.body), info.text);
      assert.equal(info.body.updated_at, created + 120);
    });
  });

  describe('metadata', () => {
    it('is one document at the RFC 8414 address, at {issuer}/.well-known/openid-configuration and at the old address', async () => {
      const rfc8414 = await http(f.srv.http, 'GET', `/.well-known/oauth-authorization-server/api/oauth/${REALM}`);
      assert.equal(rfc8414.status, 200, rfc8414.text);
      const openid = await http(f.srv.http, 'GET', `/api/oauth/${REALM}/.well-known/openid-configuration`);
      const old = await http(f.srv.http, 'GET', `/api/oauth/${REALM}/.well-known/oauth-authorization-server`);
      assert.deepEqual(openid.body, rfc8414.body);
      assert.deepEqual(old.body, rfc8414.body);
      assert.deepEqual(rfc8414.body, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/.well-known/jwks.json`,
        revocation_endpoint: `${issuer}/revoke`,
        introspection_endpoint: `${issuer}/introspect`,
        userinfo_endpoint: `${issuer}/userinfo`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        revocation_endpoint_auth_methods_supported: ['none'],
        introspection_endpoint_auth_methods_supported: ['Bearer'],
        subject_types_supported: ['public'],
      });
      assert.ok(!('id_token_signing_alg_values_supported' in rfc8414.body), 'gatehouse issues no ID tokens');
    });

    it('is 404 for an unknown realm at every address', async () => {
      for (const path of ['/.well-known/oauth-authorization-server/api/oauth/nope', '/api/oauth/nope/.well-known/openid-configuration']) {
        assert.equal((await http(f.srv.http, 'GET', path)).status, 404, path);
      }
    });
  });

  it('lets openid-client, unmodified, run the whole flow from the issuer URL: code with PKCE, userinfo, refresh, revocation', async () => {
    const config = await oidc.discovery(new URL(issuer), CLIENT, undefined, undefined, { execute: [oidc.allowInsecureRequests] });
    assert.equal(config.serverMetadata().issuer, issuer);
    assert.equal(config.serverMetadata().userinfo_endpoint, `${issuer}/userinfo`);

    const pkceCodeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      code_challenge: await oidc.calculatePKCECodeChallenge(pkceCodeVerifier),
      code_challenge_method: 'S256',
      state,
    });
    assert.equal(url.origin + url.pathname, `${issuer}/authorize`);
    const back = await codeFor({ state, codeChallenge: url.searchParams.get('code_challenge')! });
    const tokens = await oidc.authorizationCodeGrant(config, back, { pkceCodeVerifier, expectedState: state });
    assert.equal(tokens.expires_in, 900);
    const sub = decodeJwt(tokens.access_token).payload.sub as string;

    const info = await oidc.fetchUserInfo(config, tokens.access_token, sub);
    assert.equal(info.sub, sub);
    assert.equal(info.client_id, CLIENT);

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    assert.ok(refreshed.access_token);
    assert.notEqual(refreshed.refresh_token, tokens.refresh_token);
    assert.equal((await oidc.fetchUserInfo(config, refreshed.access_token, sub)).sub, sub);

    await oidc.tokenRevocation(config, refreshed.refresh_token!);
    await assert.rejects(
      oidc.refreshTokenGrant(config, refreshed.refresh_token!),
      (e: { error?: string; error_description?: string }) => e.error === 'invalid_grant' && e.error_description === 'refresh_token was revoked',
    );
    // The revoked session's access token: openid-client reads the RFC 6750 challenge.
    await assert.rejects(oidc.fetchUserInfo(config, refreshed.access_token, sub), (e: any) => {
      assert.ok(e instanceof oidc.WWWAuthenticateChallengeError, String(e));
      const challenge = (e.cause as Array<{ scheme: string; parameters: Record<string, string> }>)[0]!;
      assert.equal(challenge.scheme, 'bearer');
      assert.equal(challenge.parameters.error, 'invalid_token');
      assert.equal(challenge.parameters.realm, 'gatehouse');
      return true;
    });
    // Introspection needs gatehouse's API key, which openid-client has no way to send: it sees the challenge.
    await assert.rejects(
      oidc.tokenIntrospection(config, refreshed.access_token),
      (e: any) => e instanceof oidc.WWWAuthenticateChallengeError && e.status === 401,
    );
  });

  describe('the token endpoint', () => {
    const verifier = () => `verifier-${++seq}-`.padEnd(60, 'v');
    async function issue() {
      const v = verifier();
      const back = await codeFor({ state: `state-${++seq}-abcdefgh`, codeChallenge: s256(v) });
      const code = back.searchParams.get('code')!;
      return { code, verifier: v, form: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: CLIENT, code_verifier: v } };
    }
    const token = (form: Record<string, string>): Promise<HttpResult> => http(f.srv.http, 'POST', `/api/oauth/${REALM}/token`, { form });
    const refused = (r: HttpResult, error: string, description: string) => {
      assert.equal(r.body.error, error, r.text);
      assert.equal(r.body.error_description, description);
      assert.equal(r.body.message, description);
    };

    it('answers token_type "Bearer" for both grants', async () => {
      const c = await issue();
      const first = await token(c.form);
      assert.equal(first.status, 200, first.text);
      assert.equal(first.body.token_type, 'Bearer');
      const next = await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
      assert.equal(next.status, 200, next.text);
      assert.equal(next.body.token_type, 'Bearer');
    });

    it('says what did not match, without echoing the code or the verifier', async () => {
      const c = await issue();
      const cases: Array<[Record<string, string>, string]> = [
        [{ redirect_uri: `${REDIRECT}/other` }, 'redirect_uri does not match the one used at /authorize'],
        [{ code_verifier: 'w'.repeat(43) }, 'code_verifier does not match the code_challenge sent to /authorize'],
        [{ client_id: 'partner' }, 'client_id does not match the one used at /authorize'],
        [{ code: 'ac_unknown' }, 'code is invalid'],
      ];
      for (const [patch, description] of cases) {
        const r = await token({ ...c.form, ...patch });
        assert.equal(r.status, 400, r.text);
        refused(r, 'invalid_grant', description);
        assert.ok(!r.text.includes(c.code) && !r.text.includes(c.verifier));
      }
      assert.equal((await token(c.form)).status, 200, 'the refusals did not use the code');
      refused(await token(c.form), 'invalid_grant', 'code was already used; the tokens issued for it are revoked');
    });

    it('says a code expired', async () => {
      const c = await issue();
      clock.advance(121_000);
      refused(await token(c.form), 'invalid_grant', 'code expired');
    });

    it("says a refresh token is another client's", async () => {
      const c = await issue();
      const first = await token(c.form);
      refused(
        await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token, client_id: 'partner' }),
        'invalid_grant',
        'client_id does not match the client the refresh_token was issued to',
      );
    });

    it('challenges client authentication with Basic on invalid_client only; a reused refresh token is a 400 invalid_grant (RFC 6749 §5.2)', async () => {
      const c = await issue();
      const unknown = await token({ ...c.form, client_id: 'nope' });
      assert.equal(unknown.status, 401);
      assert.equal(unknown.body.error, 'invalid_client');
      assert.equal(unknown.headers.get('www-authenticate'), 'Basic realm="gatehouse"');
      const first = await token(c.form);
      await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
      const reused = await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
      assert.equal(reused.status, 400);
      assert.equal(reused.body.error, 'invalid_grant');
      assert.equal(reused.headers.get('www-authenticate'), null);
    });
  });

  describe('/authorize', () => {
    const ok = {
      response_type: 'code',
      client_id: CLIENT,
      redirect_uri: REDIRECT,
      state: 'state-response-type',
      code_challenge: s256('x'.repeat(50)),
      code_challenge_method: 'S256',
    };
    it('answers unsupported_response_type to any response_type but code (RFC 6749 §4.1.2.1)', async () => {
      for (const responseType of ['token', 'id_token', 'code id_token']) {
        const r = await http(f.srv.http, 'GET', `/api/oauth/${REALM}/authorize?${new URLSearchParams({ ...ok, response_type: responseType })}`);
        assert.equal(r.status, 400, r.text);
        assert.equal(r.body.error, 'unsupported_response_type');
      }
      const missing = await http(f.srv.http, 'GET', `/api/oauth/${REALM}/authorize?${new URLSearchParams({ ...ok, response_type: '' })}`);
      assert.equal(missing.body.error, 'invalid_request');
    });
  });

  describe('WWW-Authenticate on 401 (RFC 6750 §3)', () => {
    const cases: Array<[string, string, Record<string, string>, string]> = [
      ['userinfo without a token', `/api/oauth/${REALM}/userinfo`, {}, 'Bearer realm="gatehouse"'],
      [
        'userinfo with a refused token',
        `/api/oauth/${REALM}/userinfo`,
        { authorization: 'Bearer not-a-token' },
        'Bearer realm="gatehouse", error="invalid_token"',
      ],
      ['an admin route without a key', '/api/admin/realms', {}, 'Bearer realm="gatehouse"'],
      ['an admin route with an unknown key', '/api/admin/realms', { authorization: 'Bearer ghk_nope' }, 'Bearer realm="gatehouse", error="invalid_token"'],
      ['an admin route with an unknown X-API-Key', '/api/admin/realms', { 'x-api-key': 'ghk_nope' }, 'Bearer realm="gatehouse", error="invalid_token"'],
    ];
    for (const [what, path, headers, challenge] of cases) {
      it(what, async () => {
        const r = await http(f.srv.http, 'GET', path, { headers });
        assert.equal(r.status, 401);
        assert.equal(r.headers.get('www-authenticate'), challenge);
      });
    }
    it('a native login with a refused ID token', async () => {
      const r = await f.login('apple', { identityToken: 'a.b.c', clientId: 'app' });
      assert.equal(r.status, 401);
      assert.equal(r.headers.get('www-authenticate'), 'Bearer realm="gatehouse"');
    });
  });
});
