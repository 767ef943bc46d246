// Attacks on identity, each played over the real transports against a real server on port 0 (HTTP,
// and gRPC where the call exists there): account pre-hijacking by email, ID tokens addressed to
// more than us, nonce stripping, eternal tokens, malleable token text, and tokens outliving the
// client an operator disabled. Each test is named as the attack it refuses.

import assert from 'node:assert/strict';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { status } from '@grpc/grpc-js';
import { s256 } from '../../server/auth/pkce.ts';
import { APPLE_AUD, type AuthFixture, authFixture, GOOGLE_AUD, REALM } from '../auth/fixture.ts';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { type HttpResult, http } from '../helpers/http.ts';
import { nonceHash, startIdp, type TestIdp } from '../helpers/idp.ts';
import { bootstrapKey } from '../helpers/server.ts';

const SERVICES_ID = 'com.example.web';
const P2_REDIRECT = 'https://partner2.example/cb';
const GRPC_AS_HTTP: Partial<Record<status, number>> = { [status.INVALID_ARGUMENT]: 400, [status.UNAUTHENTICATED]: 401, [status.NOT_FOUND]: 404 };
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

interface Account {
  id: string;
  email: string;
  emailVerified: boolean;
  identities: Array<{ provider: string; subject: string }>;
}

/** Texts of a JWS that Buffer's lenient base64url decoder reads as the same signature bytes. */
function malleated(token: string): Array<[string, string]> {
  const [h, p, s] = token.split('.') as [string, string, string];
  const bytes = Buffer.from(s, 'base64url');
  const same = ALPHABET.split('').find((c) => c !== s.at(-1) && Buffer.from(s.slice(0, -1) + c, 'base64url').equals(bytes));
  assert.ok(same, 'the signature has trailing bits to alter');
  const cases: Array<[string, string]> = [
    ['padding appended', `${h}.${p}.${s}==`],
    ['a tilde inserted', `${h}.${p}.${s.slice(0, 7)}~${s.slice(7)}`],
    ['an asterisk inserted', `${h}.${p}.${s.slice(0, 7)}*${s.slice(7)}`],
    ['other trailing bits', `${h}.${p}.${s.slice(0, -1)}${same}`],
    ['padding inside the header', `${h}=.${p}.${s}`],
  ];
  if (/[-_]/.test(s)) cases.push(['standard base64 letters', `${h}.${p}.${s.replace(/-/g, '+').replace(/_/g, '/')}`]);
  for (const [name, t] of cases)
    assert.ok(Buffer.from(t.split('.')[2]!, 'base64url').equals(bytes) || name.includes('header'), `${name}: decodes leniently to the same bytes`);
  return cases;
}

describe('identity attacks', () => {
  let f: AuthFixture;
  let web: TestIdp; // stands in for Apple's web authorize and token endpoints
  let introspectKey: string;
  let seq = 0;
  const uniq = (s: string) => `${s}-${++seq}`;

  // Apple's web endpoints: /auth/authorize grants a code for the claims `nextWebClaims` (with the
  // nonce gatehouse sent); /auth/token returns an ID token for the code, signed with the Apple key.
  const webGrants = new Map<string, Record<string, unknown>>();
  let nextWebClaims: Record<string, unknown> = {};
  const json = (res: ServerResponse, code: number, body: unknown) => res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  before(async () => {
    web = await startIdp();
    web.route('GET', '/auth/authorize', (req: IncomingMessage, res: ServerResponse) => {
      const q = new URL(req.url!, 'http://x').searchParams;
      const code = `code-${randomBytes(8).toString('hex')}`;
      webGrants.set(code, { aud: q.get('client_id'), nonce: q.get('nonce'), ...nextWebClaims });
      json(res, 200, { action: q.get('redirect_uri'), state: q.get('state'), code });
    });
    web.route('POST', '/auth/token', (_req: IncomingMessage, res: ServerResponse, body: string) => {
      const code = new URLSearchParams(body).get('code') ?? '';
      const claims = webGrants.get(code);
      if (!claims) return json(res, 400, { error: 'invalid_grant' });
      webGrants.delete(code); // single use, as Apple's
      void f.apple.token(claims).then((idToken) => json(res, 200, { access_token: 'x', token_type: 'Bearer', id_token: idToken }));
    });
    f = await authFixture({ args: ['--apple-auth-url', web.url] });
    const p8 = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const put = await f.admin.put(`/api/admin/realms/${REALM}/providers/apple`, {
      clientId: APPLE_AUD,
      enabled: true,
      webClientId: SERVICES_ID,
      teamId: 'TEAM123456',
      keyId: 'KEY7654321',
      privateKey: p8,
    });
    assert.equal(put.status, 200, put.text);
    introspectKey = await bootstrapKey(f.srv.dbPath, REALM, ['tokens.introspect']);
  });
  after(async () => {
    closeGrpcClients();
    await f.close();
    await web.close();
  });

  // --- calls ---------------------------------------------------------------------------------

  /** Native login over HTTP or gRPC; the answer as { status, body } either way. */
  async function nativeLogin(
    provider: 'apple' | 'google',
    claims: Record<string, unknown>,
    via: 'http' | 'grpc' = 'http',
    extra: Record<string, unknown> = {},
  ) {
    const identityToken = await (provider === 'apple' ? f.apple : f.google).token(claims);
    return nativeLoginWith(provider, identityToken, via, extra);
  }
  async function nativeLoginWith(provider: string, identityToken: string, via: 'http' | 'grpc' = 'http', extra: Record<string, unknown> = {}) {
    if (via === 'http') return f.login(provider, { identityToken, clientId: 'app', ...extra });
    const g = await grpcCall(f.srv.grpc, 'AuthService', 'NativeLogin', { realmId: REALM, provider, identityToken, clientId: 'app', ...extra });
    if (g.ok) return { status: 200, body: g.value };
    return { status: GRPC_AS_HTTP[g.error.code] ?? 500, body: g.error };
  }
  const loggedIn = (r: { status: number; body: any }, what: string) => {
    assert.equal(r.status, 200, `${what}: ${JSON.stringify(r.body)}`);
    return r.body as { userId: string; accessToken: string; refreshToken: string };
  };
  const account = async (userId: string): Promise<Account> => {
    const r = await f.admin.get(`/api/admin/realms/${REALM}/users/${userId}`);
    assert.equal(r.status, 200, r.text);
    return r.body as Account;
  };
  const holdersOf = async (email: string): Promise<string[]> => {
    const r = await f.admin.get(`/api/admin/realms/${REALM}/users?email=${encodeURIComponent(email)}`);
    assert.equal(r.status, 200, r.text);
    return (r.body.users as Account[]).map((u) => u.id);
  };
  const userInfo = (token: string) => http(f.srv.http, 'GET', `/api/oauth/${REALM}/userinfo`, { token });
  const pointsMe = (token: string) => http(f.srv.http, 'GET', `/api/points/${REALM}/me`, { token });
  const introspect = (token: string) => http(f.srv.http, 'POST', `/api/oauth/${REALM}/introspect`, { form: { token }, key: introspectKey });
  const refresh = (refreshToken: string) =>
    http(f.srv.http, 'POST', `/api/oauth/${REALM}/token`, { form: { grant_type: 'refresh_token', refresh_token: refreshToken } });

  /** The Apple web redirect flow as a browser, for a user Apple knows by `claims`. */
  async function appleWebLogin(claims: Record<string, unknown>): Promise<HttpResult> {
    const start = await http(f.srv.http, 'GET', `/api/oauth/${REALM}/apple/login?clientId=app`);
    assert.equal(start.status, 302, start.text);
    nextWebClaims = claims;
    const form = (await (await fetch(start.headers.get('location')!)).json()) as { action: string; state: string; code: string };
    return http(f.srv.http, 'POST', new URL(form.action).pathname, { form: { code: form.code, state: form.state } });
  }

  /** The downstream branch for the third-party client partner2: /authorize, native login with the
   *  state, then the code at the token endpoint; the token endpoint's answer. */
  async function downstreamLogin(provider: 'apple' | 'google', claims: Record<string, unknown>) {
    const verifier = `v-${randomBytes(24).toString('hex')}`;
    const state = uniq('attack-state');
    const az = await http(
      f.srv.http,
      'GET',
      `/api/oauth/${REALM}/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: 'partner2',
        redirect_uri: P2_REDIRECT,
        state,
        code_challenge: s256(verifier),
        code_challenge_method: 'S256',
      })}`,
    );
    assert.equal(az.status, 200, az.text);
    const identityToken = await (provider === 'apple' ? f.apple : f.google).token(claims);
    const nl = await f.login(provider, { identityToken, clientId: 'partner2', downstreamState: state });
    assert.equal(nl.status, 200, nl.text);
    const code = new URL(nl.body.redirectUri).searchParams.get('code')!;
    const tok = await http(f.srv.http, 'POST', `/api/oauth/${REALM}/token`, {
      form: { grant_type: 'authorization_code', code, redirect_uri: P2_REDIRECT, client_id: 'partner2', code_verifier: verifier },
    });
    assert.equal(tok.status, 200, tok.text);
    return tok.body as { access_token: string };
  }

  // --- 1. account pre-hijacking by email -------------------------------------------------------

  describe('account pre-hijacking', () => {
    for (const via of ['http', 'grpc'] as const) {
      it(`an unverified Google email cannot pre-hijack the account of its real owner (native login over ${via})`, async () => {
        for (const emailVerified of [false, 'false', undefined]) {
          const victim = `${uniq('victim')}@example.com`;
          const attackerSub = uniq('g-attacker');
          const attacker = loggedIn(await nativeLogin('google', { sub: attackerSub, email: victim, email_verified: emailVerified }, via), 'attacker');
          const a = await account(attacker.userId);
          assert.equal(a.email, `${attackerSub}@google.placeholder`, `email_verified ${emailVerified}: the address is not stored`);
          assert.equal(a.emailVerified, false);
          assert.deepEqual(await holdersOf(victim), [], "no account holds the victim's address");
          assert.equal((await userInfo(attacker.accessToken)).body.email, `${attackerSub}@google.placeholder`);

          // The real owner signs in with Apple, then with a verified Google account.
          const owner = loggedIn(await nativeLogin('apple', { sub: uniq('a-owner'), email: victim, email_verified: 'true' }, via), 'owner (Apple)');
          assert.notEqual(owner.userId, attacker.userId, "the owner does not land in the attacker's account");
          const ownerGoogle = loggedIn(await nativeLogin('google', { sub: uniq('g-owner'), email: victim, email_verified: true }, via), 'owner (Google)');
          assert.equal(ownerGoogle.userId, owner.userId, "a verified Google email still links to the owner's verified account");
          assert.deepEqual(await holdersOf(victim), [owner.userId]);
          assert.deepEqual(
            (await account(attacker.userId)).identities.map((i) => [i.provider, i.subject]),
            [['google', attackerSub]],
          );
          // The attacker coming back still reaches only the placeholder account.
          const again = loggedIn(await nativeLogin('google', { sub: attackerSub, email: victim, email_verified: false }, via), 'attacker again');
          assert.equal(again.userId, attacker.userId);
          assert.equal((await userInfo(again.accessToken)).body.email, `${attackerSub}@google.placeholder`);
        }
      });
    }

    it('an unverified Google email cannot pre-hijack through the downstream authorization-code branch', async () => {
      const victim = `${uniq('ds-victim')}@example.com`;
      const attackerSub = uniq('g-ds-attacker');
      const attacker = await downstreamLogin('google', { sub: attackerSub, email: victim, email_verified: false });
      const ai = await userInfo(attacker.access_token);
      assert.equal(ai.status, 200, ai.text);
      assert.equal(ai.body.email, `${attackerSub}@google.placeholder`);
      assert.deepEqual(await holdersOf(victim), []);

      const owner = await downstreamLogin('apple', { sub: uniq('a-ds-owner'), email: victim, email_verified: 'true' });
      const oi = await userInfo(owner.access_token);
      assert.notEqual(oi.body.sub, ai.body.sub);
      assert.equal(oi.body.email, victim);
      assert.deepEqual(await holdersOf(victim), [oi.body.sub]);
    });

    it('an unverified Google email cannot pre-hijack the account its owner opens through Sign in with Apple on the web', async () => {
      const victim = `${uniq('web-victim')}@example.com`;
      const attackerSub = uniq('g-web-attacker');
      const attacker = loggedIn(await nativeLogin('google', { sub: attackerSub, email: victim, email_verified: false }), 'attacker');

      const ownerSub = uniq('a-web-owner');
      const owner = await appleWebLogin({ sub: ownerSub, email: victim, email_verified: true });
      assert.equal(owner.status, 200, owner.text);
      assert.notEqual(owner.body.userId, attacker.userId);
      const o = await account(owner.body.userId);
      assert.equal(o.email, victim);
      assert.deepEqual(
        o.identities.map((i) => [i.provider, i.subject]),
        [['apple', ownerSub]],
      );
      assert.equal((await account(attacker.userId)).email, `${attackerSub}@google.placeholder`);
    });

    it('an account an operator created with an unverified email attracts no provider sign-in (native, downstream, web; HTTP and gRPC)', async () => {
      const cases: Array<[string, (email: string) => Promise<string>]> = [
        ['Apple native (HTTP)', async (email) => loggedIn(await nativeLogin('apple', { sub: uniq('a-op'), email, email_verified: 'true' }), 'apple').userId],
        [
          'Apple native (gRPC)',
          async (email) => loggedIn(await nativeLogin('apple', { sub: uniq('a-op'), email, email_verified: true }, 'grpc'), 'apple').userId,
        ],
        ['verified Google native', async (email) => loggedIn(await nativeLogin('google', { sub: uniq('g-op'), email, email_verified: true }), 'google').userId],
        [
          'downstream code',
          async (email) => (await userInfo((await downstreamLogin('apple', { sub: uniq('a-op-ds'), email, email_verified: 'true' })).access_token)).body.sub,
        ],
        [
          'Apple on the web',
          async (email) => {
            const r = await appleWebLogin({ sub: uniq('a-op-web'), email, email_verified: true });
            assert.equal(r.status, 200, r.text);
            return r.body.userId as string;
          },
        ],
      ];
      for (const [path, signIn] of cases) {
        for (const created of ['http', 'grpc'] as const) {
          const email = `${uniq('operator-made')}@example.com`;
          let opId: string;
          if (created === 'http') {
            const r = await f.admin.post(`/api/admin/realms/${REALM}/users`, { email, emailVerified: false });
            assert.equal(r.status, 200, r.text);
            opId = r.body.id;
          } else {
            const g = await grpcCall(f.srv.grpc, 'AdminService', 'CreateUser', { realmId: REALM, email, emailVerified: false }, f.srv.adminKey);
            assert.ok(g.ok, JSON.stringify(g));
            opId = g.value.id;
          }
          const userId = await signIn(email);
          assert.notEqual(userId, opId, `${path} after a ${created} creation: not linked to the unverified account`);
          const op = await account(opId);
          assert.deepEqual(op.identities, [], `${path}: the operator's account gained no provider link`);
          assert.match((await account(userId)).email, /@(apple|google)\.placeholder$/, `${path}: the newcomer gets a placeholder`);
        }
      }
      // What stays: an operator-made account whose email is verified is linked, as before.
      const email = `${uniq('operator-verified')}@example.com`;
      const made = await f.admin.post(`/api/admin/realms/${REALM}/users`, { email, emailVerified: true });
      const g = loggedIn(await nativeLogin('google', { sub: uniq('g-op-ok'), email, email_verified: true }), 'google');
      assert.equal(g.userId, made.body.id);
    });

    it('an email Apple states as unverified is kept on its account but attracts no later link', async () => {
      const email = `${uniq('apple-unverified')}@example.com`;
      const first = loggedIn(await nativeLogin('apple', { sub: uniq('a-unv'), email, email_verified: 'false' }), 'apple');
      const a = await account(first.userId);
      assert.equal(a.email, email, "Apple's email is taken as Apple states it");
      assert.equal(a.emailVerified, false);
      const g = loggedIn(await nativeLogin('google', { sub: uniq('g-after-unv'), email, email_verified: true }), 'google');
      assert.notEqual(g.userId, first.userId);
      const other = loggedIn(await nativeLogin('apple', { sub: uniq('a-after-unv'), email, email_verified: 'true' }), 'apple 2');
      assert.notEqual(other.userId, first.userId);
    });
  });

  // --- 4. audiences ----------------------------------------------------------------------------

  describe('audiences', () => {
    for (const via of ['http', 'grpc'] as const) {
      it(`an ID token also addressed to an untrusted audience is refused (${via})`, async () => {
        const email = `${uniq('multi-aud')}@example.com`;
        for (const aud of [
          [GOOGLE_AUD, 'evil-client.apps.example'],
          ['evil-client.apps.example', GOOGLE_AUD],
        ]) {
          const r = await nativeLogin('google', { sub: uniq('g-aud'), aud, email, email_verified: true }, via);
          assert.equal(r.status, 401, `${JSON.stringify(aud)}: ${JSON.stringify(r.body)}`);
        }
        assert.deepEqual(await holdersOf(email), [], 'nothing was created');
        loggedIn(await nativeLogin('google', { sub: uniq('g-aud-ok'), aud: [GOOGLE_AUD], email, email_verified: true }, via), 'only our audience');
      });

      it(`an ID token whose authorized party (azp) is another client is refused (${via})`, async () => {
        for (const azp of ['evil-client.apps.example', '', 7]) {
          const r = await nativeLogin('google', { sub: uniq('g-azp'), azp }, via);
          assert.equal(r.status, 401, `azp ${JSON.stringify(azp)}: ${JSON.stringify(r.body)}`);
        }
        loggedIn(await nativeLogin('google', { sub: uniq('g-azp-ok'), azp: GOOGLE_AUD }, via), 'azp naming our client');
      });
    }
  });

  // --- 5. nonce and time claims ----------------------------------------------------------------

  describe('nonce and time claims', () => {
    for (const via of ['http', 'grpc'] as const) {
      it(`an ID token minted for a nonce cannot be replayed without it (${via})`, async () => {
        const raw = uniq('raw-nonce');
        const token = await f.apple.token({ sub: uniq('a-nonce'), nonce: nonceHash(raw) });
        assert.equal((await nativeLoginWith('apple', token, via)).status, 401, 'nonce stripped from the request');
        loggedIn(await nativeLoginWith('apple', token, via, { nonce: raw }), 'with its nonce');
        const plain = await f.apple.token({ sub: uniq('a-no-nonce') });
        assert.equal((await nativeLoginWith('apple', plain, via, { nonce: raw })).status, 401, 'a nonce the token does not carry');
      });

      it(`an ID token that never expires (exp 1e308) or carries other non-NumericDate times is refused (${via})`, async () => {
        const now = Math.floor(Date.now() / 1000);
        const cases: Array<[string, Record<string, unknown>]> = [
          ['exp 1e308', { exp: 1e308 }],
          ['exp 2^63', { exp: 2 ** 63 }],
          ['exp in year 10000', { exp: 253_402_300_800 }],
          ['a fractional exp', { exp: now + 600.5 }],
          ['iat 1e308', { iat: 1e308 }],
          ['a negative iat', { iat: -1 }],
          ['a fractional nbf', { nbf: now - 0.5 }],
          ['a string exp', { exp: String(now + 600) }],
        ];
        for (const [name, claims] of cases) {
          const r = await nativeLogin('apple', { sub: uniq('a-time'), ...claims }, via);
          assert.equal(r.status, 401, `${name}: ${JSON.stringify(r.body)}`);
        }
      });
    }
  });

  // --- 6. malleable token text -----------------------------------------------------------------

  describe('token text', () => {
    it("gatehouse's own access tokens with altered signature text are refused at /me, /userinfo and introspection", async () => {
      const s = loggedIn(await nativeLogin('apple', { sub: uniq('a-malleable') }), 'login');
      for (const [name, token] of malleated(s.accessToken)) {
        const info = await userInfo(token);
        assert.equal(info.status, 401, `${name}: /userinfo ${info.text}`);
        assert.equal(info.body.error, 'unauthorized');
        assert.equal((await pointsMe(token)).status, 401, `${name}: /me`);
        assert.deepEqual((await introspect(token)).body, { active: false }, `${name}: introspection`);
        const g = await grpcCall(f.srv.grpc, 'AuthService', 'UserInfo', { realmId: REALM }, token);
        assert.ok(!g.ok && g.error.code === status.UNAUTHENTICATED, `${name}: gRPC UserInfo`);
        const gm = await grpcCall(f.srv.grpc, 'PointsService', 'GetMySummary', { realmId: REALM }, token);
        assert.ok(!gm.ok && gm.error.code === status.UNAUTHENTICATED, `${name}: gRPC GetMySummary`);
        const gi = await grpcCall(f.srv.grpc, 'AuthService', 'Introspect', { realmId: REALM, token }, introspectKey);
        assert.ok(gi.ok && gi.value.active === false, `${name}: gRPC Introspect`);
      }
      // The token as issued still works: only the altered texts were refused.
      assert.equal((await userInfo(s.accessToken)).status, 200);
      assert.equal((await pointsMe(s.accessToken)).status, 200);
      assert.equal((await introspect(s.accessToken)).body.active, true);
    });

    for (const via of ['http', 'grpc'] as const) {
      it(`a provider ID token with altered signature text is refused (${via})`, async () => {
        const email = `${uniq('malleable-id')}@example.com`;
        const token = await f.apple.token({ sub: uniq('a-malleable-id'), email, email_verified: 'true' });
        for (const [name, t] of malleated(token)) {
          const r = await nativeLoginWith('apple', t, via);
          assert.equal(r.status, 401, `${name}: ${JSON.stringify(r.body)}`);
        }
        assert.deepEqual(await holdersOf(email), [], 'nothing was created');
        loggedIn(await nativeLoginWith('apple', token, via), 'the token as issued');
      });
    }
  });

  // --- 7. disabled clients ---------------------------------------------------------------------

  describe('disabled clients', () => {
    it("a disabled client's tokens stop working from the next call on (introspection, /userinfo, /me, refresh; HTTP and gRPC)", async () => {
      const clientId = uniq('app-to-disable');
      const made = await f.admin.post(`/api/admin/realms/${REALM}/clients`, {
        clientId,
        name: clientId,
        type: 'first_party',
        redirectUris: [],
        ipBinding: 'off',
      });
      assert.equal(made.status, 200, made.text);
      const s = loggedIn(await f.login('apple', { identityToken: await f.apple.token({ sub: uniq('a-disable') }), clientId }), 'login');
      // Warm every cache with the client enabled.
      assert.equal((await userInfo(s.accessToken)).status, 200);
      assert.equal((await pointsMe(s.accessToken)).status, 200);
      assert.equal((await introspect(s.accessToken)).body.active, true);
      assert.equal((await introspect(s.refreshToken)).body.active, true);

      const off = await grpcCall(f.srv.grpc, 'AdminService', 'UpdateClient', { realmId: REALM, clientId, enabled: false }, f.srv.adminKey);
      assert.ok(off.ok, JSON.stringify(off));
      assert.deepEqual((await introspect(s.accessToken)).body, { active: false }, 'access token introspection');
      assert.deepEqual((await introspect(s.refreshToken)).body, { active: false }, 'refresh token introspection');
      const gi = await grpcCall(f.srv.grpc, 'AuthService', 'Introspect', { realmId: REALM, token: s.accessToken }, introspectKey);
      assert.ok(gi.ok && gi.value.active === false, 'gRPC Introspect');
      const info = await userInfo(s.accessToken);
      assert.equal(info.status, 401, info.text);
      assert.equal(info.body.error, 'unauthorized');
      assert.equal((await pointsMe(s.accessToken)).status, 401);
      const gu = await grpcCall(f.srv.grpc, 'AuthService', 'UserInfo', { realmId: REALM }, s.accessToken);
      assert.ok(!gu.ok && gu.error.code === status.UNAUTHENTICATED, 'gRPC UserInfo');
      const gm = await grpcCall(f.srv.grpc, 'PointsService', 'GetMySummary', { realmId: REALM }, s.accessToken);
      assert.ok(!gm.ok && gm.error.code === status.UNAUTHENTICATED, 'gRPC GetMySummary');
      const r = await refresh(s.refreshToken);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.error, 'invalid_grant');
      const gr = await grpcCall(f.srv.grpc, 'AuthService', 'Token', { realmId: REALM, grantType: 'refresh_token', refreshToken: s.refreshToken });
      assert.ok(!gr.ok && gr.error.reason === 'invalid_grant', 'gRPC refresh');
      // Disabling ended the session: an operator who enables the client again does not bring it back.
      const on = await f.admin.patch(`/api/admin/realms/${REALM}/clients/${clientId}`, { enabled: true });
      assert.equal(on.status, 200, on.text);
      assert.equal((await userInfo(s.accessToken)).status, 401);
      assert.deepEqual((await introspect(s.refreshToken)).body, { active: false });
      assert.equal((await refresh(s.refreshToken)).status, 400);
    });

    it('a session its user revoked while the client was disabled does not come back when the client is re-enabled', async () => {
      const clientId = uniq('app-revoke-disabled');
      const made = await f.admin.post(`/api/admin/realms/${REALM}/clients`, {
        clientId,
        name: clientId,
        type: 'first_party',
        redirectUris: [],
        ipBinding: 'off',
      });
      assert.equal(made.status, 200, made.text);
      const s = loggedIn(await f.login('apple', { identityToken: await f.apple.token({ sub: uniq('a-revoke') }), clientId }), 'login');
      assert.equal((await f.admin.patch(`/api/admin/realms/${REALM}/clients/${clientId}`, { enabled: false })).status, 200);
      const rv = await http(f.srv.http, 'POST', `/api/oauth/${REALM}/revoke`, { form: { token: s.accessToken } });
      assert.equal(rv.status, 200, rv.text);
      assert.equal((await f.admin.patch(`/api/admin/realms/${REALM}/clients/${clientId}`, { enabled: true })).status, 200);
      assert.equal((await userInfo(s.accessToken)).status, 401);
      assert.deepEqual((await introspect(s.refreshToken)).body, { active: false });
      assert.equal((await refresh(s.refreshToken)).status, 400);
    });
  });
});
