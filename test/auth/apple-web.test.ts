// Sign in with Apple on the web: the whole redirect flow against a stand-in for Apple's
// authorize, token and JWKS endpoints. The test plays the browser: it follows gatehouse's 302 to
// the stand-in, which answers the form Apple would post back, and posts it to the callback.

import assert from 'node:assert/strict';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, beforeEach, describe, it } from 'node:test';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { parseUser } from '../../server/auth/apple-web.ts';
import { s256 } from '../../server/auth/pkce.ts';
import type { Clock } from '../../server/lib/clock.ts';
import { sha256Hex } from '../../server/lib/ids.ts';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { type HttpResult, http } from '../helpers/http.ts';
import { nonceHash } from '../helpers/idp.ts';
import { openStoresAt, subscribeToEveryEvent } from '../helpers/stores.ts';
import {
  APPLE_AUD,
  type AuthFixture,
  authFixture,
  configureAppleSigning,
  decodeJwt,
  KEY_ID,
  OTHER_REALM,
  PARTNER_REDIRECT,
  REALM,
  SERVICES_ID,
  TEAM_ID,
} from './fixture.ts';

/** What the stand-in knows about an authorization it granted. */
interface Grant {
  claims: Record<string, unknown>;
  redirectUri: string;
  used: boolean;
}

type TokenMode = 'ok' | 'down' | 'error' | 'refuse';

describe('Sign in with Apple on the web', () => {
  let f: AuthFixture;
  /** The server's stores, on connections of their own (a SQLite file or a PostgreSQL database). */
  let stores: Awaited<ReturnType<typeof openStoresAt>>;
  let skewMs = 0;
  const clock: Clock = { now: () => Date.now() + skewMs };
  const p8 = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const privatePem = p8.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  const publicKey: KeyObject = p8.publicKey;

  // The stand-in's state.
  const grants = new Map<string, Grant>();
  let next: Record<string, unknown> = {};
  let tokenMode: TokenMode = 'ok';
  /** Claims overriding what the stand-in puts in the ID token it returns (attack cases). */
  let idTokenOverride: Record<string, unknown> = {};
  let unpublishedKey = false;
  const secrets: Array<{ header: Record<string, unknown>; payload: Record<string, unknown> }> = [];
  const secretFailures: string[] = [];
  const used: string[] = []; // codes, ID tokens and client secrets that must never reach the log
  let seq = 0;

  const json = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  // GET /auth/authorize: the user signs in at Apple; Apple answers an auto-submitting form that
  // posts code, id_token, state (and user, the first time) to redirect_uri. Here: that form as JSON.
  function authorizeEndpoint(req: IncomingMessage, res: ServerResponse) {
    const q = new URL(req.url!, 'http://x').searchParams;
    if (q.get('client_id') !== SERVICES_ID || q.get('response_type') !== 'code' || q.get('response_mode') !== 'form_post') {
      return json(res, 400, { error: 'invalid_request' });
    }
    const code = `c${++seq}.${Math.random().toString(36).slice(2)}-apple-code`;
    const claims = { aud: SERVICES_ID, nonce: q.get('nonce'), email_verified: true, ...next };
    grants.set(code, { claims, redirectUri: q.get('redirect_uri')!, used: false });
    json(res, 200, { action: q.get('redirect_uri'), state: q.get('state'), code, scope: q.get('scope') });
  }

  // POST /auth/token: Apple's token endpoint. Verifies the client secret JWT with the public half
  // of the .p8 key, as Apple does, then the code.
  function tokenEndpoint(_req: IncomingMessage, res: ServerResponse, body: string) {
    if (tokenMode === 'down') return void res.socket?.destroy();
    if (tokenMode === 'error') return void res.writeHead(502).end('bad gateway');
    void (async () => {
      const form = new URLSearchParams(body);
      const secret = form.get('client_secret') ?? '';
      used.push(secret);
      try {
        const header = decodeProtectedHeader(secret);
        const { payload } = await jwtVerify(secret, publicKey, {
          algorithms: ['ES256'],
          issuer: TEAM_ID,
          subject: SERVICES_ID,
          audience: 'https://appleid.apple.com',
          requiredClaims: ['iat', 'exp'],
        });
        if (header.kid !== KEY_ID) throw new Error(`kid ${header.kid}`);
        if (payload.exp! - payload.iat! > 3600 || payload.exp! <= Date.now() / 1000) throw new Error('lifetime');
        secrets.push({ header: header as Record<string, unknown>, payload: payload as Record<string, unknown> });
      } catch (e) {
        secretFailures.push((e as Error).message);
        return json(res, 400, { error: 'invalid_client' });
      }
      if (tokenMode === 'refuse') return json(res, 400, { error: 'invalid_grant' });
      const code = form.get('code') ?? '';
      const g = grants.get(code);
      if (
        !g ||
        g.used ||
        form.get('grant_type') !== 'authorization_code' ||
        form.get('client_id') !== SERVICES_ID ||
        form.get('redirect_uri') !== g.redirectUri
      ) {
        return json(res, 400, { error: 'invalid_grant' });
      }
      g.used = true;
      const key = unpublishedKey ? await f.apple.addKey({ publish: false }) : undefined;
      const idToken = await f.apple.token({ ...g.claims, ...idTokenOverride }, { key });
      used.push(idToken);
      json(res, 200, { access_token: 'apple-at', token_type: 'Bearer', expires_in: 3600, refresh_token: 'apple-rt', id_token: idToken });
    })();
  }

  before(async () => {
    f = await authFixture({ inProcess: { clock, config: ({ apple }) => ({ appleAuthUrl: apple.url }) } });
    f.apple.route('GET', '/auth/authorize', authorizeEndpoint);
    f.apple.route('POST', '/auth/token', tokenEndpoint);
    await configureAppleSigning(f, privatePem);
    stores = await openStoresAt(f.srv.dbPath);
  });
  after(async () => {
    closeGrpcClients();
    await stores.close();
    await f.close();
  });
  beforeEach(() => {
    tokenMode = 'ok';
    idTokenOverride = {};
    unpublishedKey = false;
    skewMs = 0;
  });

  const start = (params: Record<string, string>, realm = REALM) => http(f.srv.http, 'GET', `/api/oauth/${realm}/apple/login?${new URLSearchParams(params)}`);
  /** Follows the 302 to Apple as the user: the form Apple would post back. */
  const atApple = async (login: HttpResult, who: Record<string, unknown>) => {
    assert.equal(login.status, 302, login.text);
    next = who;
    const r = await fetch(login.headers.get('location')!);
    assert.equal(r.status, 200);
    const form = (await r.json()) as { action: string; state: string; code: string };
    used.push(form.code);
    return form;
  };
  const post = (action: string, form: Record<string, string>) => http(f.srv.http, 'POST', new URL(action).pathname, { form });
  /** The whole flow as a browser: login → Apple → form post to the callback. */
  const webLogin = async (who: Record<string, unknown>, o: { clientId?: string; downstreamState?: string; user?: unknown } = {}) => {
    const login = await start({ clientId: o.clientId ?? 'app', ...(o.downstreamState ? { downstreamState: o.downstreamState } : {}) });
    const form = await atApple(login, who);
    const fields: Record<string, string> = { code: form.code, state: form.state, id_token: 'ignored.by.gatehouse' };
    if (o.user !== undefined) fields.user = JSON.stringify(o.user);
    const res = await post(form.action, fields);
    if (res.status === 200) used.push(res.body.accessToken, res.body.refreshToken);
    return { res, form };
  };
  const counts = () => f.counts();
  const identitiesOf = async (userId: string) =>
    (await stores.users.identitiesOf(userId)).map((i) => ({ provider: i.provider, subject: i.subject })).sort((a, b) => a.provider.localeCompare(b.provider));
  const userOf = async (userId: string) => (await stores.users.getUser(REALM, userId))!;
  /** How many web attempts are stored: the sweep as of far in the future deletes every one of them
   *  (each has expired by then) and answers how many went. */
  const takeAttempts = async () => {
    let n = 0;
    for (let k; (k = await stores.auth.sweep('webAttempts', Date.now() + 365 * 86_400_000, 1000)) > 0; ) n += k;
    return n;
  };

  describe('GET …/apple/login', () => {
    it('redirects to Apple\'s authorize URL with form_post, scope "name email", its own state and nonce', async () => {
      await takeAttempts(); // start from none
      const r = await start({ clientId: 'app' });
      assert.equal(r.status, 302, r.text);
      assert.equal(r.text, '');
      const loc = new URL(r.headers.get('location')!);
      assert.equal(`${loc.origin}${loc.pathname}`, `${f.apple.url}/auth/authorize`);
      const q = loc.searchParams;
      assert.equal(q.get('response_type'), 'code');
      assert.equal(q.get('response_mode'), 'form_post');
      assert.equal(q.get('scope'), 'name email');
      assert.match(r.headers.get('location')!, /scope=name%20email/);
      assert.equal(q.get('client_id'), SERVICES_ID);
      assert.equal(q.get('redirect_uri'), `${f.srv.http}/api/oauth/${REALM}/apple/callback`);
      assert.match(q.get('state')!, /^[A-Za-z0-9_-]{43}$/);
      assert.match(q.get('nonce')!, /^[0-9a-f]{64}$/);
      // Stored for 10 minutes, the state only as its hash (found under the hash, not under the state).
      assert.deepEqual(await stores.auth.consumeWebAttempt(REALM, q.get('state')!, clock.now()), { kind: 'refused', reason: 'unknown' });
      const stored = await stores.auth.consumeWebAttempt(REALM, sha256Hex(q.get('state')!), clock.now());
      assert.equal(stored.kind, 'ok');
      const row = stored.kind === 'ok' ? stored.attempt : assert.fail();
      assert.equal(row.expiresAt - row.createdAt, 600_000);
      assert.equal(nonceHash(row.nonce), q.get('nonce'));
      // Each login has its own state and nonce.
      const again = new URL((await start({ clientId: 'app' })).headers.get('location')!).searchParams;
      assert.notEqual(again.get('state'), q.get('state'));
      assert.notEqual(again.get('nonce'), q.get('nonce'));
      assert.equal(await takeAttempts(), 2, 'one attempt stored per login');
    });

    it('answers gRPC callers the message with the location instead of a redirect', async () => {
      const r = await grpcCall(f.srv.grpc, 'AuthService', 'AppleWebLogin', { realmId: REALM, clientId: 'app' });
      assert.ok(r.ok, JSON.stringify(r));
      assert.ok(r.value.location.startsWith(`${f.apple.url}/auth/authorize?`));
    });

    it('refuses a missing, unknown or third-party client (without downstreamState) with 400 and stores nothing', async () => {
      await takeAttempts(); // start from none
      const cases: Array<Record<string, string>> = [
        {},
        { clientId: 'nope' },
        { clientId: 'app-off' },
        { clientId: 'partner' },
        { clientId: 'partner', downstreamState: 'no-such-state' },
      ];
      for (const params of cases) {
        const r = await start(params);
        assert.equal(r.status, 400, `${JSON.stringify(params)}: ${r.text}`);
        assert.equal(r.body.error, 'bad_request');
      }
      assert.equal(await takeAttempts(), 0);
    });

    it('answers 404 when the realm has no web configuration for Apple, or Apple is disabled', async () => {
      const r = await start({ clientId: 'app' }, OTHER_REALM); // apple configured for native only
      assert.equal(r.status, 404, r.text);
      assert.equal((await start({ clientId: 'app' }, 'no-such-realm')).status, 404);
    });
  });

  describe('POST …/apple/callback', () => {
    it('answers the native-login session shape for a first sign-in and keeps the first-time name; user.created once', async () => {
      // The outbox keeps what an endpoint is owed (docs/events.md).
      const subscription = await subscribeToEveryEvent(stores, REALM);
      const c0 = await counts();
      const { res } = await webLogin(
        { sub: 'web-first-1', email: 'web1@example.com' },
        { user: { name: { firstName: 'Ada', lastName: 'Lovelace' }, email: 'web1@example.com' } },
      );
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(Object.keys(res.body).sort(), ['accessToken', 'expiresIn', 'message', 'refreshExpiresIn', 'refreshToken', 'tokenType', 'userId']);
      assert.equal(res.body.message, 'login successful');
      assert.equal(res.body.tokenType, 'Bearer');
      assert.equal(res.body.expiresIn, 900);
      assert.equal(decodeJwt(res.body.accessToken).payload.aud, 'app');
      const me = await http(f.srv.http, 'GET', `/api/oauth/${REALM}/userinfo`, { token: res.body.accessToken });
      assert.equal(me.status, 200, me.text);
      assert.equal(me.body.email, 'web1@example.com');
      assert.equal(me.body.given_name, 'Ada');
      assert.equal(me.body.family_name, 'Lovelace');
      const c1 = await counts();
      assert.equal(c1.users, c0.users + 1);
      assert.equal(c1.identities, c0.identities + 1);
      assert.equal(c1.families, c0.families + 1);

      // Returning: Apple sends no `user`; another name later does not overwrite the first one.
      const back = await webLogin({ sub: 'web-first-1', email: 'web1@example.com' }, { user: { name: { firstName: 'Eve', lastName: 'X' } } });
      assert.equal(back.res.status, 200, back.res.text);
      assert.equal(back.res.body.userId, res.body.userId);
      assert.equal((await userOf(res.body.userId)).givenName, 'Ada');
      assert.equal((await counts()).users, c1.users);
      const created = await stores.records.events(REALM, { type: 'user.created', limit: 100 });
      assert.deepEqual(
        created.filter((e) => e.data.userId === res.body.userId).map((e) => e.data),
        [{ userId: res.body.userId, provider: 'apple' }],
        'the web sign-in that made the account, not the returning one',
      );
      await subscription.unsubscribe();
    });

    it('sends Apple a freshly signed ES256 client secret that verifies with the public half of the .p8 key', async () => {
      const n = secrets.length;
      const signedFrom = Math.floor(clock.now() / 1000);
      const { res } = await webLogin({ sub: 'web-secret-1', email: 'secret1@example.com' });
      const signedBy = Math.ceil(clock.now() / 1000);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(secretFailures, []);
      assert.equal(secrets.length, n + 1);
      const s = secrets.at(-1)!;
      assert.equal(s.header.alg, 'ES256');
      assert.equal(s.header.kid, KEY_ID);
      assert.equal(s.payload.iss, TEAM_ID);
      assert.equal(s.payload.sub, SERVICES_ID);
      assert.equal(s.payload.aud, 'https://appleid.apple.com');
      assert.ok((s.payload.exp as number) - (s.payload.iat as number) <= 600);
      const iat = s.payload.iat as number;
      assert.ok(iat >= signedFrom && iat <= signedBy, `signed at ${iat}, during the sign-in (${signedFrom}–${signedBy}) by the server's clock`);
    });

    it('lands a web sign-in and a later native sign-in on one account with one provider link', async () => {
      const c0 = await counts();
      const web = await webLogin({ sub: 'web-then-native', email: 'wtn@example.com' });
      assert.equal(web.res.status, 200, web.res.text);
      const idt = await f.apple.token({ sub: 'web-then-native', email: 'wtn@example.com' });
      used.push(idt);
      const native = await f.login('apple', { identityToken: idt, clientId: 'app' });
      assert.equal(native.status, 200, native.text);
      assert.equal(native.body.userId, web.res.body.userId);
      assert.deepEqual(await identitiesOf(web.res.body.userId), [{ provider: 'apple', subject: 'web-then-native' }]);
      assert.equal((await counts()).users, c0.users + 1);
      assert.equal((await counts()).identities, c0.identities + 1);
    });

    it('lands a native sign-in and a later web sign-in (no email: private relay hidden) on one account', async () => {
      const c0 = await counts();
      const idt = await f.apple.token({ sub: 'native-then-web', email: 'ntw@privaterelay.appleid.com' });
      used.push(idt);
      const native = await f.login('apple', { identityToken: idt, clientId: 'app' });
      assert.equal(native.status, 200, native.text);
      const web = await webLogin({ sub: 'native-then-web' }); // returning user: Apple sends no email
      assert.equal(web.res.status, 200, web.res.text);
      assert.equal(web.res.body.userId, native.body.userId);
      assert.deepEqual(await identitiesOf(native.body.userId), [{ provider: 'apple', subject: 'native-then-web' }]);
      assert.equal((await userOf(native.body.userId)).email, 'ntw@privaterelay.appleid.com');
      assert.equal((await counts()).users, c0.users + 1);
      assert.equal((await counts()).identities, c0.identities + 1);
    });

    it('links a Google account with the same verified email to the web account; an unverified one gets its own account', async () => {
      const web = await webLogin({ sub: 'web-google-1', email: 'shared@example.com' });
      assert.equal(web.res.status, 200, web.res.text);
      const g = await f.google.token({ sub: 'g-verified-1', email: 'shared@example.com', email_verified: true });
      used.push(g);
      const gl = await f.login('google', { identityToken: g, clientId: 'app' });
      assert.equal(gl.status, 200, gl.text);
      assert.equal(gl.body.userId, web.res.body.userId);
      assert.deepEqual(await identitiesOf(web.res.body.userId), [
        { provider: 'apple', subject: 'web-google-1' },
        { provider: 'google', subject: 'g-verified-1' },
      ]);

      const web2 = await webLogin({ sub: 'web-google-2', email: 'shared2@example.com' });
      const gu = await f.google.token({ sub: 'g-unverified-2', email: 'shared2@example.com', email_verified: false });
      used.push(gu);
      const gul = await f.login('google', { identityToken: gu, clientId: 'app' });
      assert.equal(gul.status, 200, gul.text);
      assert.notEqual(gul.body.userId, web2.res.body.userId);
      assert.deepEqual(await identitiesOf(web2.res.body.userId), [{ provider: 'apple', subject: 'web-google-2' }]);
      assert.equal((await userOf(gul.body.userId)).email, 'g-unverified-2@google.placeholder');
    });

    it('with downstreamState redirects (302) to the third-party redirect URI with a one-time code that exchanges with PKCE', async () => {
      const verifier = 'w'.repeat(20) + '-verifier-'.padEnd(44, 'z');
      const state = `web-ds-${++seq}-state`;
      const az = await http(
        f.srv.http,
        'GET',
        `/api/oauth/${REALM}/authorize?${new URLSearchParams({
          response_type: 'code',
          client_id: 'partner',
          redirect_uri: PARTNER_REDIRECT,
          state,
          code_challenge: s256(verifier),
          code_challenge_method: 'S256',
        })}`,
      );
      assert.equal(az.status, 200, az.text);
      const { res } = await webLogin({ sub: 'web-ds-1', email: 'ds1@example.com' }, { clientId: 'partner', downstreamState: state });
      assert.equal(res.status, 302, res.text);
      const loc = new URL(res.headers.get('location')!);
      assert.ok(res.headers.get('location')!.startsWith(`${PARTNER_REDIRECT}&code=ac_`), res.headers.get('location')!);
      assert.equal(loc.searchParams.get('tenant'), '7');
      assert.equal(loc.searchParams.get('state'), state);
      const code = loc.searchParams.get('code')!;
      used.push(code);
      const tok = await http(f.srv.http, 'POST', `/api/oauth/${REALM}/token`, {
        form: { grant_type: 'authorization_code', code, redirect_uri: PARTNER_REDIRECT, client_id: 'partner', code_verifier: verifier },
      });
      assert.equal(tok.status, 200, tok.text);
      used.push(tok.body.access_token, tok.body.refresh_token);
      assert.equal(decodeJwt(tok.body.access_token).payload.aud, 'partner');
      const again = await http(f.srv.http, 'POST', `/api/oauth/${REALM}/token`, {
        form: { grant_type: 'authorization_code', code, redirect_uri: PARTNER_REDIRECT, client_id: 'partner', code_verifier: verifier },
      });
      assert.equal(again.status, 400);
    });

    it('refuses an unknown, replayed, expired, missing or other-realm state with 400', async () => {
      const login = await start({ clientId: 'app' });
      const form = await atApple(login, { sub: 'web-state-1', email: 'state1@example.com' });
      const unknown = await post(form.action, { code: form.code, state: 'not-a-state-we-issued' });
      assert.equal(unknown.status, 400, unknown.text);
      assert.equal(unknown.body.error, 'bad_request');
      assert.equal((await post(form.action, { code: form.code })).status, 400);
      const otherRealm = await http(f.srv.http, 'POST', `/api/oauth/${OTHER_REALM}/apple/callback`, { form: { code: form.code, state: form.state } });
      assert.equal(otherRealm.status, 400);
      const ok = await post(form.action, { code: form.code, state: form.state });
      assert.equal(ok.status, 200, ok.text);
      used.push(ok.body.accessToken, ok.body.refreshToken);
      const c = await counts();
      const replay = await post(form.action, { code: form.code, state: form.state });
      assert.equal(replay.status, 400, replay.text);
      assert.equal(replay.body.error, 'bad_request');
      assert.deepEqual(await counts(), c);

      const late = await atApple(await start({ clientId: 'app' }), { sub: 'web-state-2' });
      skewMs = 601_000;
      const expired = await post(late.action, { code: late.code, state: late.state });
      assert.equal(expired.status, 400, expired.text);
    });

    it("answers 503 when Apple's token endpoint is unreachable or fails, and writes nothing", async () => {
      for (const mode of ['down', 'error'] as const) {
        const c = await counts();
        const login = await start({ clientId: 'app' });
        const form = await atApple(login, { sub: `web-down-${mode}`, email: `down-${mode}@example.com` });
        tokenMode = mode;
        const r = await post(form.action, { code: form.code, state: form.state });
        assert.equal(r.status, 503, `${mode}: ${r.text}`);
        assert.equal(r.body.error, 'service_unavailable');
        assert.equal(r.body.message, 'Upstream service unavailable');
        assert.deepEqual(await counts(), c);
      }
    });

    it('answers 401 and writes nothing when Apple refuses the code or its ID token fails verification', async () => {
      const cases: Array<[string, () => void]> = [
        ['code refused', () => (tokenMode = 'refuse')],
        ['wrong nonce', () => (idTokenOverride = { nonce: nonceHash('someone-else') })],
        ['no nonce', () => (idTokenOverride = { nonce: undefined })],
        ['native audience (bundle id)', () => (idTokenOverride = { aud: APPLE_AUD })],
        ['other issuer', () => (idTokenOverride = { iss: 'https://evil.example' })],
        ['expired', () => (idTokenOverride = { exp: Math.floor(Date.now() / 1000) - 3600, iat: Math.floor(Date.now() / 1000) - 7200 })],
        ['unknown signing key', () => (unpublishedKey = true)],
      ];
      for (const [name, arrange] of cases) {
        tokenMode = 'ok';
        idTokenOverride = {};
        unpublishedKey = false;
        const c = await counts();
        const form = await atApple(await start({ clientId: 'app' }), { sub: `web-bad-${name}`, email: `bad-${seq}@example.com` });
        arrange();
        const r = await post(form.action, { code: form.code, state: form.state, user: JSON.stringify({ name: { firstName: 'Mallory', lastName: 'M' } }) });
        assert.equal(r.status, 401, `${name}: ${r.text}`);
        assert.equal(r.body.error, 'unauthorized');
        assert.deepEqual(await counts(), c, name);
      }
    });

    it("refuses a form post carrying Apple's error (user cancelled) with 400", async () => {
      const form = await atApple(await start({ clientId: 'app' }), { sub: 'web-cancel' });
      const c = await counts();
      const r = await post(form.action, { state: form.state, error: 'user_cancelled_authorize' });
      assert.equal(r.status, 400, r.text);
      assert.deepEqual(await counts(), c);
    });

    it('never writes a code, an ID token, the client secret, the private key or a gatehouse token to the log', () => {
      assert.ok(used.length > 20);
      const logs = f.srv.logs();
      assert.match(logs, /apple web login/);
      for (const t of used) {
        if (!t || t.length < 12) continue;
        assert.ok(!logs.includes(t), 'a secret appears in the log');
        const sig = t.split('.')[2];
        if (sig && sig.length > 20) assert.ok(!logs.includes(sig), 'a signature appears in the log');
      }
      const keyBody = privatePem.split('\n')[1]!;
      assert.ok(!logs.includes(keyBody), 'the private key appears in the log');
      assert.match(logs, /"category":"token_nonce"/);
    });
  });

  it('never returns the private key from a provider read; shows the Services ID', async () => {
    const r = await f.admin.get(`/api/admin/realms/${REALM}/providers/apple`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.webClientId, SERVICES_ID);
    assert.equal(r.body.hasPrivateKey, true);
    assert.ok(!r.text.includes('PRIVATE KEY'));
  });

  it("reads only the name from Apple's unauthenticated `user` field and ignores anything unexpected", () => {
    const cases: Array<[string, unknown]> = [
      ['{"name":{"firstName":" Ada ","lastName":"Lovelace"},"email":"x@y.z"}', { givenName: 'Ada', familyName: 'Lovelace' }],
      ['{"name":{"firstName":"Ada"}}', { givenName: 'Ada', familyName: '' }],
      ['{"name":{"firstName":"","lastName":" "}}', null],
      ['{"name":{"firstName":7,"lastName":["x"]}}', null],
      ['{"email":"x@y.z"}', null],
      ['null', null],
      ['not json', null],
      ['', null],
      [JSON.stringify({ name: { firstName: 'a'.repeat(500) } }), { givenName: 'a'.repeat(200), familyName: '' }],
    ];
    for (const [raw, want] of cases) assert.deepEqual(parseUser(raw), want, raw);
  });
});
