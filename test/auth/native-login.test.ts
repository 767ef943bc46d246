// Native login (docs/login.md): the response branches, every error row, every
// verification rule and every email rule, over HTTP and gRPC.

import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { status } from '@grpc/grpc-js';
import { createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { api, http } from '../helpers/http.ts';
import { b64url, nonceHash } from '../helpers/idp.ts';
import { APPLE_AUD, type AuthFixture, authFixture, decodeJwt, GOOGLE_AUD, GOOGLE_ISSUER, OTHER_REALM, REALM } from './fixture.ts';

describe('native login', () => {
  let f: AuthFixture;
  const used: string[] = []; // every token handed to or received from the server, for the log check
  const tok = (t: string) => (used.push(t), t);

  before(async () => {
    f = await authFixture({ inProcess: { config: { trustProxy: 1 } } });
  });
  after(async () => {
    closeGrpcClients();
    await f.close();
  });

  describe('the direct-session branch', () => {
    it('answers exactly the session fields and a verifiable ES256 at+jwt access token', async () => {
      const idt = tok(await f.apple.token({ sub: 'apple-direct-1', email: 'direct1@example.com' }));
      const r = await f.login('apple', { identityToken: idt, clientId: 'app' });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(Object.keys(r.body).sort(), ['accessToken', 'expiresIn', 'message', 'refreshExpiresIn', 'refreshToken', 'tokenType', 'userId']);
      assert.equal(r.body.message, 'login successful');
      assert.equal(r.body.tokenType, 'Bearer');
      assert.equal(r.body.expiresIn, 900);
      assert.equal(r.body.refreshExpiresIn, 2592000);
      assert.match(r.body.refreshToken, /^rt_[A-Za-z0-9_-]{43}$/);
      tok(r.body.accessToken);
      tok(r.body.refreshToken);
      const { header, payload } = decodeJwt(r.body.accessToken);
      assert.equal(header.typ, 'at+jwt');
      assert.equal(header.alg, 'ES256');
      assert.equal(payload.iss, `${f.srv.http}/api/oauth/${REALM}`);
      assert.equal(payload.sub, r.body.userId);
      assert.equal(payload.aud, 'app');
      assert.equal(typeof payload.sid, 'string');
      assert.equal(typeof payload.jti, 'string');
      assert.equal((payload.exp as number) - (payload.iat as number), 900);
      const jwks = await http(f.srv.http, 'GET', `/api/oauth/${REALM}/.well-known/jwks.json`);
      assert.equal(jwks.status, 200);
      assert.deepEqual(Object.keys(jwks.body.keys[0]).sort(), ['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
      assert.deepEqual([jwks.body.keys[0].kty, jwks.body.keys[0].crv, jwks.body.keys[0].alg], ['EC', 'P-256', 'ES256']);
      const verified = await jwtVerify(r.body.accessToken, createLocalJWKSet(jwks.body as never), {
        issuer: payload.iss as string,
        audience: 'app',
        typ: 'at+jwt',
      });
      assert.equal(verified.payload.sub, r.body.userId);
    });

    it('works the same over gRPC', async () => {
      const idt = tok(await f.apple.token({ sub: 'apple-grpc-1', email: 'grpc1@example.com' }));
      const r = await grpcCall(f.srv.grpc, 'AuthService', 'NativeLogin', { realmId: REALM, provider: 'apple', identityToken: idt, clientId: 'app' });
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal(r.value.message, 'login successful');
      assert.equal(r.value.tokenType, 'Bearer');
      assert.equal(Number(r.value.expiresIn), 900);
      assert.ok(r.value.accessToken && r.value.refreshToken && r.value.userId);
      tok(r.value.accessToken);
      tok(r.value.refreshToken);
    });

    it('gives the user access to their own endpoints with the access token', async () => {
      const idt = tok(await f.apple.token({ sub: 'apple-me-1', email: 'me1@example.com' }));
      const r = await f.login('apple', { identityToken: idt, clientId: 'app' });
      tok(r.body.accessToken);
      const me = await http(f.srv.http, 'GET', `/api/oauth/${REALM}/userinfo`, { token: r.body.accessToken });
      assert.equal(me.status, 200, me.text);
      assert.equal(me.body.sub, r.body.userId);
      assert.equal(me.body.email, 'me1@example.com');
      const otherRealm = await http(f.srv.http, 'GET', `/api/oauth/${OTHER_REALM}/userinfo`, { token: r.body.accessToken });
      assert.equal(otherRealm.status, 401);
    });

    it('refuses a third-party, unknown or disabled client with 400 and writes nothing', async () => {
      const before = await f.counts();
      for (const clientId of ['partner', 'nope', 'app-off']) {
        const idt = tok(await f.apple.token({ sub: `apple-client-${clientId}`, email: `${clientId}@example.com` }));
        const r = await f.login('apple', { identityToken: idt, clientId });
        assert.equal(r.status, 400, clientId);
        assert.equal(r.body.error, 'bad_request');
      }
      assert.deepEqual(await f.counts(), before);
    });
  });

  describe('the error table', () => {
    it('answers 400 bad_request naming a missing identityToken or clientId, over both transports', async () => {
      const idt = tok(await f.apple.token());
      for (const [body, field] of [
        [{ clientId: 'app' }, 'identityToken'],
        [{ identityToken: idt }, 'clientId'],
        [{ identityToken: '', clientId: 'app' }, 'identityToken'],
      ] as const) {
        const r = await f.login('apple', body);
        assert.equal(r.status, 400);
        assert.equal(r.body.error, 'bad_request');
        assert.match(r.body.message, new RegExp(field));
        const g = await grpcCall(f.srv.grpc, 'AuthService', 'NativeLogin', { realmId: REALM, provider: 'apple', ...body });
        assert.ok(!g.ok);
        assert.equal(g.error.code, status.INVALID_ARGUMENT);
        assert.equal(g.error.reason, 'bad_request');
      }
      const unknownField = await f.login('apple', { identityToken: idt, clientId: 'app', password: 'x' });
      assert.equal(unknownField.status, 400);
    });

    it('answers 404 with the provider message when the provider is missing, disabled or unknown', async () => {
      const idt = tok(await f.google.token({ aud: GOOGLE_AUD }));
      const cases: Array<[string, string, string]> = [
        [OTHER_REALM, 'google', 'google provider not configured or not enabled'], // disabled
        ['no-such-realm', 'apple', 'apple provider not configured or not enabled'],
        [REALM, 'facebook', 'facebook provider not configured or not enabled'],
      ];
      for (const [realm, provider, message] of cases) {
        const r = await f.login(provider, { identityToken: idt, clientId: 'app' }, { realm });
        assert.equal(r.status, 404, `${realm}/${provider}`);
        assert.equal(r.body.error, 'not_found');
        assert.equal(r.body.message, message);
      }
      const g = await grpcCall(f.srv.grpc, 'AuthService', 'NativeLogin', { realmId: OTHER_REALM, provider: 'google', identityToken: idt, clientId: 'app' });
      assert.ok(!g.ok);
      assert.equal(g.error.code, status.NOT_FOUND);
      assert.equal(g.error.message, 'google provider not configured or not enabled');
    });

    it('checks the body before the provider (400 wins over 404)', async () => {
      const r = await f.login('apple', { clientId: 'app' }, { realm: 'no-such-realm' });
      assert.equal(r.status, 400);
    });
  });

  describe('token verification', () => {
    it('refuses every bad token with 401 unauthorized and writes nothing', async () => {
      const now = Math.floor(Date.now() / 1000);
      const key = f.apple.keys[0]!;
      const good = await f.apple.token({ sub: 'apple-attack' });
      const [gh, gp, gs] = good.split('.');
      const attacker = await generateKeyPair('RS256', { extractable: true });
      const attackerJwk = { ...(await exportJWK(attacker.publicKey)), kid: key.kid };
      const unpublished = await f.apple.addKey({ publish: false });
      const hmacWithPublicKey = (() => {
        const h = b64url({ alg: 'HS256', kid: key.kid, typ: 'JWT' });
        const p = b64url({ iss: f.apple.issuer, aud: APPLE_AUD, sub: 'apple-attack', iat: now, exp: now + 600 });
        const secret = JSON.stringify(key.publicJwk);
        return `${h}.${p}.${createHmac('sha256', secret).update(`${h}.${p}`).digest('base64url')}`;
      })();
      const cases: Array<[string, string]> = [
        ['expired', await f.apple.token({ sub: 'apple-attack', iat: now - 7200, exp: now - 3600 })],
        ['wrong issuer', await f.apple.token({ sub: 'apple-attack', iss: 'https://evil.example' })],
        ['wrong audience', await f.apple.token({ sub: 'apple-attack', aud: 'com.evil.app' })],
        ["another realm's audience", await f.apple.token({ sub: 'apple-attack', aud: 'com.other.app' })],
        ['no exp', await f.apple.token({ sub: 'apple-attack', exp: undefined })],
        ['not yet valid (nbf)', await f.apple.token({ sub: 'apple-attack', nbf: now + 3600 })],
        ['issued in the future', await f.apple.token({ sub: 'apple-attack', iat: now + 3600, exp: now + 7200 })],
        ['alg none', `${b64url({ alg: 'none', kid: key.kid })}.${gp}.`],
        ['alg none with signature', `${b64url({ alg: 'none', kid: key.kid })}.${gp}.${gs}`],
        ['HS256 keyed with the public key', hmacWithPublicKey],
        [
          'embedded jwk header',
          await new SignJWT({ iss: f.apple.issuer, aud: APPLE_AUD, sub: 'apple-attack', exp: now + 600 })
            .setProtectedHeader({ alg: 'RS256', kid: key.kid, jwk: attackerJwk as never })
            .sign(attacker.privateKey),
        ],
        [
          'jku header',
          await new SignJWT({ iss: f.apple.issuer, aud: APPLE_AUD, sub: 'apple-attack', exp: now + 600 })
            .setProtectedHeader({ alg: 'RS256', kid: 'attacker', jku: 'http://127.0.0.1:1/keys' })
            .sign(attacker.privateKey),
        ],
        [
          'x5u header',
          await new SignJWT({ iss: f.apple.issuer, aud: APPLE_AUD, sub: 'apple-attack', exp: now + 600 })
            .setProtectedHeader({ alg: 'RS256', kid: key.kid, x5u: 'http://127.0.0.1:1/cert' })
            .sign(attacker.privateKey),
        ],
        ['unknown kid', await f.apple.token({ sub: 'apple-attack' }, { key: unpublished })],
        ['known kid, other key', await f.apple.token({ sub: 'apple-attack' }, { key: unpublished, header: { kid: key.kid } })],
        ['tampered payload', `${gh}.${b64url({ ...decodeJwt(good).payload, sub: 'someone-else' })}.${gs}`],
        [
          'RS256 header, PS256 signature',
          await new SignJWT({ iss: f.apple.issuer, aud: APPLE_AUD, sub: 'apple-attack', exp: now + 600 })
            .setProtectedHeader({ alg: 'PS256', kid: key.kid })
            .sign(key.privateKey)
            .catch(() => 'x.y.z'),
        ],
        ['garbage', 'not-a-jwt'],
        ['three garbage parts', 'aaa.bbb.ccc'],
        ['empty sub', await f.apple.token({ sub: '' })],
      ];
      const before = await f.counts();
      for (const [name, t] of cases) {
        tok(t);
        const r = await f.login('apple', { identityToken: t, clientId: 'app' });
        assert.equal(r.status, 401, `${name}: ${r.text}`);
        assert.equal(r.body.error, 'unauthorized', name);
      }
      const g = await grpcCall(f.srv.grpc, 'AuthService', 'NativeLogin', { realmId: REALM, provider: 'apple', identityToken: cases[0]![1], clientId: 'app' });
      assert.ok(!g.ok);
      assert.equal(g.error.code, status.UNAUTHENTICATED);
      assert.equal(g.error.reason, 'unauthorized');
      assert.deepEqual(await f.counts(), before, 'a refused token writes no user, link or session');
    });

    it('accepts a small clock skew', async () => {
      const now = Math.floor(Date.now() / 1000);
      const idt = tok(await f.apple.token({ sub: 'apple-skew', iat: now + 20, exp: now + 600 }));
      assert.equal((await f.login('apple', { identityToken: idt, clientId: 'app' })).status, 200);
    });

    it('checks the nonce: the claim must be the SHA-256 hex of the raw nonce', async () => {
      const raw = 'raw-nonce-value-123';
      const good = tok(await f.apple.token({ sub: 'apple-nonce', nonce: nonceHash(raw) }));
      assert.equal(createHash('sha256').update(raw).digest('hex'), nonceHash(raw));
      assert.equal((await f.login('apple', { identityToken: good, clientId: 'app', nonce: raw })).status, 200);
      assert.equal((await f.login('apple', { identityToken: good, clientId: 'app', nonce: 'other' })).status, 401);
      const none = tok(await f.apple.token({ sub: 'apple-nonce' }));
      assert.equal((await f.login('apple', { identityToken: none, clientId: 'app', nonce: raw })).status, 401);
      const rawInClaim = tok(await f.apple.token({ sub: 'apple-nonce', nonce: raw }));
      assert.equal((await f.login('apple', { identityToken: rawInClaim, clientId: 'app', nonce: raw })).status, 401);
    });

    it("refuses Apple's token at the Google endpoint and the other way round", async () => {
      const a = tok(await f.apple.token({ sub: 'cross-1', aud: GOOGLE_AUD }));
      assert.equal((await f.login('google', { identityToken: a, clientId: 'app' })).status, 401);
      const g = tok(await f.google.token({ sub: 'cross-2', aud: APPLE_AUD }));
      assert.equal((await f.login('apple', { identityToken: g, clientId: 'app' })).status, 401);
    });
  });

  describe('accounts (email rules)', () => {
    const users = () => api(f.srv.http, f.srv.adminKey);
    const getUser = async (id: string) => (await users().get(`/api/admin/realms/${REALM}/users/${id}`)).body;

    it('stores a private-relay email as the real email', async () => {
      const idt = tok(await f.apple.token({ sub: 'apple-relay', email: 'abc123@privaterelay.appleid.com', email_verified: 'true', is_private_email: 'true' }));
      const r = await f.login('apple', { identityToken: idt, clientId: 'app' });
      assert.equal(r.status, 200);
      const u = await getUser(r.body.userId);
      assert.equal(u.email, 'abc123@privaterelay.appleid.com');
      assert.equal(u.emailVerified, true);
    });

    it('creates {sub}@apple.placeholder, unverified, when a first token has no email', async () => {
      const idt = tok(await f.apple.token({ sub: '001234.abcdef.0099' }));
      const r = await f.login('apple', { identityToken: idt, clientId: 'app' });
      assert.equal(r.status, 200);
      const u = await getUser(r.body.userId);
      assert.equal(u.email, '001234.abcdef.0099@apple.placeholder');
      assert.equal(u.emailVerified, false);
      assert.deepEqual(
        u.identities.map((i: { provider: string; subject: string }) => [i.provider, i.subject]),
        [['apple', '001234.abcdef.0099']],
      );
    });

    it('matches a returning user by sub alone when the token has no email', async () => {
      const first = tok(await f.apple.token({ sub: 'apple-returning', email: 'returning@example.com' }));
      const a = await f.login('apple', { identityToken: first, clientId: 'app' });
      const before = await f.counts();
      const again = tok(await f.apple.token({ sub: 'apple-returning' }));
      const b = await f.login('apple', { identityToken: again, clientId: 'app' });
      assert.equal(b.status, 200);
      assert.equal(b.body.userId, a.body.userId);
      assert.equal((await f.counts()).users, before.users);
      assert.equal((await f.counts()).identities, before.identities);
      assert.equal((await getUser(b.body.userId)).email, 'returning@example.com');
    });

    it('logs in without email_verified and links an existing account by email (one account for web and native)', async () => {
      // The account an earlier web-redirect login (or an operator) created.
      const existing = await users().post(`/api/admin/realms/${REALM}/users`, { email: 'Web.User@Example.com', emailVerified: true });
      assert.equal(existing.status, 200, existing.text);
      const idt = tok(await f.apple.token({ sub: 'apple-web-native', email: 'web.user@example.com', email_verified: false }));
      const r = await f.login('apple', { identityToken: idt, clientId: 'app' });
      assert.equal(r.status, 200);
      assert.equal(r.body.userId, existing.body.id);
      const u = await getUser(r.body.userId);
      assert.deepEqual(
        u.identities.map((i: { provider: string }) => i.provider),
        ['apple'],
      );
      // and the next native login finds it by sub
      const again = tok(await f.apple.token({ sub: 'apple-web-native' }));
      assert.equal((await f.login('apple', { identityToken: again, clientId: 'app' })).body.userId, existing.body.id);
    });

    it('stores fullName only while the account has no name', async () => {
      const idt = tok(await f.apple.token({ sub: 'apple-name', email: 'name@example.com' }));
      const r = await f.login('apple', { identityToken: idt, clientId: 'app', fullName: { givenName: 'Ada', familyName: 'Lovelace' } });
      assert.equal(r.status, 200, r.text);
      const again = tok(await f.apple.token({ sub: 'apple-name' }));
      await f.login('apple', { identityToken: again, clientId: 'app', fullName: { givenName: 'Someone', familyName: 'Else' } });
      const u = await getUser(r.body.userId);
      assert.equal(u.givenName, 'Ada');
      assert.equal(u.familyName, 'Lovelace');
      const noName = tok(await f.apple.token({ sub: 'apple-name-later', email: 'later@example.com' }));
      const n = await f.login('apple', { identityToken: noName, clientId: 'app' });
      const named = tok(await f.apple.token({ sub: 'apple-name-later' }));
      await f.login('apple', { identityToken: named, clientId: 'app', fullName: { givenName: 'Grace', familyName: '' } });
      assert.equal((await getUser(n.body.userId)).givenName, 'Grace');
    });
  });

  describe('Google', () => {
    const users = () => api(f.srv.http, f.srv.adminKey);

    it('accepts both issuer spellings', async () => {
      for (const iss of [GOOGLE_ISSUER, GOOGLE_ISSUER.replace('https://', '')]) {
        const idt = tok(await f.google.token({ iss, sub: `g-iss-${iss.length}`, email: `g${iss.length}@gmail.example`, email_verified: true }));
        const r = await f.login('google', { identityToken: idt, clientId: 'app' });
        assert.equal(r.status, 200, `${iss}: ${r.text}`);
      }
      const bad = tok(await f.google.token({ iss: 'http://accounts.google.test', sub: 'g-iss-bad' }));
      assert.equal((await f.login('google', { identityToken: bad, clientId: 'app' })).status, 401);
    });

    it('links an existing account by email only when email_verified is true', async () => {
      const existing = await users().post(`/api/admin/realms/${REALM}/users`, { email: 'shared@gmail.example', emailVerified: true });
      const unverified = tok(await f.google.token({ sub: 'g-unverified', email: 'shared@gmail.example', email_verified: false }));
      const a = await f.login('google', { identityToken: unverified, clientId: 'app' });
      assert.equal(a.status, 200);
      assert.notEqual(a.body.userId, existing.body.id);
      const ua = (await users().get(`/api/admin/realms/${REALM}/users/${a.body.userId}`)).body;
      assert.equal(ua.email, 'g-unverified@google.placeholder');
      assert.equal(ua.emailVerified, false);
      const verified = tok(await f.google.token({ sub: 'g-verified', email: 'shared@gmail.example', email_verified: true }));
      const b = await f.login('google', { identityToken: verified, clientId: 'app' });
      assert.equal(b.body.userId, existing.body.id);
    });

    it('puts Apple and Google logins with the same email on one account', async () => {
      const a = tok(await f.apple.token({ sub: 'both-apple', email: 'both@example.com', email_verified: 'true' }));
      const ra = await f.login('apple', { identityToken: a, clientId: 'app' });
      const g = tok(await f.google.token({ sub: 'both-google', email: 'both@example.com', email_verified: true }));
      const rg = await f.login('google', { identityToken: g, clientId: 'app' });
      assert.equal(rg.body.userId, ra.body.userId);
    });
  });

  it('never writes an identity token or a gatehouse token to the log', async () => {
    assert.ok(used.length > 20);
    const logs = f.srv.logs();
    assert.match(logs, /native login/);
    for (const t of used) {
      if (t.length < 12) continue;
      assert.ok(!logs.includes(t), 'a token appears in the log');
      const sig = t.split('.')[2];
      if (sig && sig.length > 20) assert.ok(!logs.includes(sig), 'a token signature appears in the log');
    }
    assert.match(logs, /"category":"token_/);
  });
});
