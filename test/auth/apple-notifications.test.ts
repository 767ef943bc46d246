// Sign in with Apple server-to-server notifications (docs/login.md, "Apple server notifications"):
// POST /api/oauth/{realmId}/apple/notifications with {"payload": "<JWS>"} signed by the local Apple
// stand-in, over real HTTP against a real server (in this process): each event type's effect, the once-per-jti rule,
// and every bad payload answered with the contract's error body and nothing changed.

import assert from 'node:assert/strict';
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { JWTPayload } from 'jose';
import { describeEachBackend } from '../helpers/backends.ts';
import { http } from '../helpers/http.ts';
import { b64url } from '../helpers/idp.ts';
import { openStoresAt, type Stores, subscribeToEveryEvent } from '../helpers/stores.ts';
import { APPLE_AUD, type AuthFixture, authFixture, REALM } from './fixture.ts';

describeEachBackend('Apple server-to-server notifications', (backend) => {
  let f: AuthFixture;
  let stores: Stores & { close(): Promise<void> };
  before(async () => {
    f = await authFixture({ backend, inProcess: {} });
    stores = await openStoresAt(f.srv.dbPath);
    await subscribeToEveryEvent(stores, REALM);
  });
  after(async () => {
    await stores.close();
    await f.close();
  });

  const post = (body: unknown, realm = REALM) => http(f.srv.http, 'POST', `/api/oauth/${realm}/apple/notifications`, { body });
  /** A notification as Apple signs it: no `sub`, a `jti`, the events as a JSON-encoded string. */
  const signed = (events: Record<string, unknown> | string, claims: JWTPayload & Record<string, unknown> = {}, opts = {}) =>
    f.apple.token({ sub: undefined, jti: randomUUID(), events: typeof events === 'string' ? events : JSON.stringify(events), ...claims }, opts);
  const event = (type: string, sub: string, extra: Record<string, unknown> = {}) => ({ type, sub, event_time: Date.now(), ...extra });
  const notify = async (type: string, sub: string, claims: JWTPayload & Record<string, unknown> = {}) => {
    const r = await post({ payload: await signed(event(type, sub), claims) });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, {});
    return r;
  };
  const appleLogin = async (sub: string, email?: string) => {
    const r = await f.login('apple', { identityToken: await f.apple.token({ sub, ...(email ? { email, email_verified: true } : {}) }), clientId: 'app' });
    assert.equal(r.status, 200, r.text);
    return r.body as { userId: string; accessToken: string; refreshToken: string };
  };
  const identities = async (accessToken: string) => {
    const r = await http(f.srv.http, 'GET', `/api/oauth/${REALM}/me/identities`, { token: accessToken });
    assert.equal(r.status, 200, r.text);
    return r.body.identities as Array<Record<string, unknown>>;
  };
  const refresh = (refreshToken: string) =>
    http(f.srv.http, 'POST', `/api/oauth/${REALM}/token`, { form: { grant_type: 'refresh_token', refresh_token: refreshToken } });
  /** Everything a notification may change, to check a refusal changed none of it. */
  const snapshot = async () => ({
    counts: await f.counts(),
    events: (await stores.records.events(REALM, { limit: 10_000 })).length,
    audit: (await stores.records.audit(REALM, { limit: 10_000 })).length,
  });

  it('turns email forwarding off and on, shown in /me/identities and in the admin user', async () => {
    const s = await appleLogin('notify-forwarding', 'relay-1@privaterelay.appleid.com');
    assert.equal((await identities(s.accessToken))[0]!.emailForwarding, undefined, 'absent until Apple says');
    await notify('email-disabled', 'notify-forwarding', {});
    assert.equal((await identities(s.accessToken))[0]!.emailForwarding, 'disabled');
    const user = await f.admin.get(`/api/admin/realms/${REALM}/users/${s.userId}`);
    assert.equal(user.status, 200, user.text);
    assert.deepEqual(user.body.identities[0].emailForwarding, 'disabled');
    await notify('email-enabled', 'notify-forwarding');
    assert.equal((await identities(s.accessToken))[0]!.emailForwarding, 'enabled');
    const events = await stores.records.events(REALM, { type: 'user.email_forwarding_changed', limit: 100 });
    assert.deepEqual(
      events.filter((e) => e.data.userId === s.userId).map((e) => e.data.emailForwarding),
      ['enabled', 'disabled'],
    );
    const audit = await stores.records.audit(REALM, { targetId: s.userId, limit: 100 });
    assert.deepEqual(
      audit.map((a) => [a.actor.type, a.action]),
      [
        ['apple', 'user.email_forwarding'],
        ['apple', 'user.email_forwarding'],
      ],
    );
  });

  it("revokes on consent-revoked the sessions Apple's sign-in opened, and no other; the identity stays", async () => {
    const apple = await appleLogin('notify-consent');
    const apple2 = await appleLogin('notify-consent');
    // The same account signs in with Google too (linked), a session Apple has no say over.
    const googleToken = await f.google.token({ sub: 'notify-consent-google' });
    const linked = await http(f.srv.http, 'POST', `/api/oauth/${REALM}/me/identities`, {
      token: apple.accessToken,
      body: { provider: 'google', identityToken: googleToken },
    });
    assert.equal(linked.status, 200, linked.text);
    const google = await f.login('google', { identityToken: await f.google.token({ sub: 'notify-consent-google' }), clientId: 'app' });
    assert.equal(google.body.userId, apple.userId);

    await notify('consent-revoked', 'notify-consent');
    for (const s of [apple, apple2]) {
      const r = await refresh(s.refreshToken);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.error, 'invalid_grant');
      assert.equal((await http(f.srv.http, 'GET', `/api/oauth/${REALM}/userinfo`, { token: s.accessToken })).status, 401);
    }
    assert.equal((await http(f.srv.http, 'GET', `/api/oauth/${REALM}/userinfo`, { token: google.body.accessToken })).status, 200);
    assert.equal((await refresh(google.body.refreshToken)).status, 200);
    assert.deepEqual(
      (await identities(google.body.accessToken)).map((i) => i.provider),
      ['apple', 'google'],
    );
    const revoked = await stores.records.events(REALM, { type: 'session.revoked', limit: 100 });
    assert.equal(revoked.filter((e) => e.data.userId === apple.userId && e.data.reason === 'apple_consent_revoked').length, 2);
    const audit = await stores.records.audit(REALM, { targetId: apple.userId, action: 'user.sessions_revoke', limit: 10 });
    assert.deepEqual(
      audit.map((a) => [a.actor.type, a.changes]),
      [['apple', { sessionsRevoked: { before: 0, after: 2 } }]],
      "audited as Apple's, the sessions it revoked counted",
    );
    // Signing in with Apple again works (and asks the user's consent at Apple).
    await appleLogin('notify-consent');
  });

  it("revokes on consent-revoked a partner's session that began with an Apple sign-in (the downstream code)", async () => {
    const verifier = 'consent-downstream-'.padEnd(64, 'v');
    const state = 'consent-downstream-state';
    const started = await http(
      f.srv.http,
      'GET',
      `/api/oauth/${REALM}/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: 'partner2',
        redirect_uri: 'https://partner2.example/cb',
        state,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      })}`,
    );
    assert.equal(started.status, 200, started.text);
    const login = await f.login('apple', {
      identityToken: await f.apple.token({ sub: 'notify-consent-partner' }),
      clientId: 'partner2',
      downstreamState: state,
    });
    assert.equal(login.status, 200, login.text);
    const code = new URL(login.body.redirectUri).searchParams.get('code')!;
    const tokens = await http(f.srv.http, 'POST', `/api/oauth/${REALM}/token`, {
      form: { grant_type: 'authorization_code', code, redirect_uri: 'https://partner2.example/cb', client_id: 'partner2', code_verifier: verifier },
    });
    assert.equal(tokens.status, 200, tokens.text);
    const alive = await refresh(tokens.body.refresh_token);
    assert.equal(alive.status, 200, alive.text);
    await notify('consent-revoked', 'notify-consent-partner');
    const r = await refresh(alive.body.refresh_token);
    assert.equal(r.body.error, 'invalid_grant', r.text);
  });

  it('unlinks Apple on account-delete when the account has another identity', async () => {
    const s = await appleLogin('notify-delete-linked');
    const linked = await http(f.srv.http, 'POST', `/api/oauth/${REALM}/me/identities`, {
      token: s.accessToken,
      body: { provider: 'google', identityToken: await f.google.token({ sub: 'notify-delete-linked-google' }) },
    });
    assert.equal(linked.status, 200, linked.text);
    await notify('account-delete', 'notify-delete-linked');
    assert.deepEqual(
      (await identities(s.accessToken)).map((i) => i.provider),
      ['google'],
    );
    assert.equal((await f.admin.get(`/api/admin/realms/${REALM}/users/${s.userId}`)).status, 200, 'the account stays');
    const unlinked = await stores.records.events(REALM, { type: 'user.identity_unlinked', limit: 100 });
    assert.deepEqual(
      unlinked.filter((e) => e.data.userId === s.userId).map((e) => e.data),
      [{ userId: s.userId, provider: 'apple' }],
    );
    const audit = await stores.records.audit(REALM, { targetId: s.userId, action: 'user.identity_unlink', limit: 10 });
    assert.deepEqual(
      audit.map((a) => [a.actor.type, a.changes]),
      [['apple', { identities: { before: ['apple', 'google'], after: ['google'] } }]],
    );
    assert.equal((await stores.records.events(REALM, { type: 'user.deleted', limit: 100 })).filter((e) => e.data.userId === s.userId).length, 0);
    // The Apple subject is free again: a sign-in with it makes a new account.
    assert.notEqual((await appleLogin('notify-delete-linked')).userId, s.userId);
  });

  it('deletes the account on account-delete of its only identity, as the deletion use case does; a replay deletes no later account', async () => {
    const s = await appleLogin('notify-delete-only');
    const payload = await signed(event('account-delete', 'notify-delete-only'));
    const r = await post({ payload });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, {});
    assert.equal((await f.admin.get(`/api/admin/realms/${REALM}/users/${s.userId}`)).status, 404);
    assert.equal((await http(f.srv.http, 'GET', `/api/oauth/${REALM}/userinfo`, { token: s.accessToken })).status, 401);
    assert.equal((await refresh(s.refreshToken)).body.error, 'invalid_grant');
    const audit = await stores.records.audit(REALM, { targetId: s.userId, limit: 10 });
    assert.deepEqual(
      audit.map((a) => [a.actor.type, a.action]),
      [['apple', 'user.delete']],
    );
    assert.equal((await stores.records.events(REALM, { type: 'user.deleted', limit: 100 })).filter((e) => e.data.userId === s.userId).length, 1);
    // The subject signs in again: a new account, which the old notification, replayed, leaves alone.
    const again = await appleLogin('notify-delete-only');
    assert.notEqual(again.userId, s.userId);
    const before = await snapshot();
    assert.equal((await post({ payload })).status, 200);
    assert.deepEqual(await snapshot(), before);
    assert.equal((await f.admin.get(`/api/admin/realms/${REALM}/users/${again.userId}`)).status, 200);
  });

  it('processes a jti once: a replay answers 200 and changes nothing', async () => {
    const s = await appleLogin('notify-replay');
    const payload = await signed(event('email-disabled', 'notify-replay'));
    assert.equal((await post({ payload })).status, 200);
    await notify('email-enabled', 'notify-replay');
    const before = await snapshot();
    const replay = await post({ payload });
    assert.equal(replay.status, 200, replay.text);
    assert.deepEqual(replay.body, {});
    assert.equal((await identities(s.accessToken))[0]!.emailForwarding, 'enabled');
    assert.deepEqual(await snapshot(), before);
  });

  it('answers 200 for an unknown subject or type and records only the notification', async () => {
    const before = await snapshot();
    await notify('consent-revoked', 'nobody-we-know');
    await notify('some-future-type', 'notify-unknown-type');
    const after = await snapshot();
    assert.deepEqual(after.counts, before.counts);
    assert.equal(after.events, before.events + 2);
    assert.equal(after.audit, before.audit);
    const [latest] = await stores.records.events(REALM, { type: 'apple.notification', limit: 1 });
    assert.deepEqual(latest!.data, { type: 'some-future-type', eventTime: latest!.data.eventTime, userId: null });
  });

  it('accepts the events claim as an object', async () => {
    const s = await appleLogin('notify-object');
    const r = await post({ payload: await f.apple.token({ sub: undefined, jti: randomUUID(), events: event('email-disabled', 'notify-object') }) });
    assert.equal(r.status, 200, r.text);
    assert.equal((await identities(s.accessToken))[0]!.emailForwarding, 'disabled');
  });

  it('answers 404 for a realm without an enabled Apple provider', async () => {
    assert.equal((await f.admin.post('/api/admin/realms', { id: 'no-apple', name: 'No Apple' })).status, 200);
    const r = await post({ payload: await signed(event('consent-revoked', 'x')) }, 'no-apple');
    assert.equal(r.status, 404, r.text);
    assert.equal(r.body.error, 'not_found');
    assert.equal(r.body.message, 'apple provider not configured or not enabled');
  });

  it('logs realm, type and outcome only, never the payload, the subject or an email', async () => {
    const payload = await signed(event('email-disabled', 'notify-log-subject', { email: 'log-relay@privaterelay.appleid.com' }));
    assert.equal((await post({ payload })).status, 200);
    const logged = (l: Record<string, unknown>) => l.msg === 'apple notification' && l.type === 'email-disabled' && l.outcome === 'unknown_subject';
    const lines = () =>
      f.srv
        .logs()
        .split('\n')
        .filter((l) => l.includes('"apple notification"'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    // The line may be written after the answer: wait for it.
    await f.srv.logged(() => lines().some(logged));
    const line = lines().find(logged);
    assert.deepEqual(line && Object.keys(line).sort(), ['level', 'msg', 'outcome', 'realmId', 'requestId', 'time', 'type']);
    const logs = f.srv.logs();
    for (const secret of [payload, payload.split('.')[1]!, 'notify-log-subject', 'log-relay@privaterelay.appleid.com']) {
      assert.equal(logs.includes(secret), false, 'the log holds none of the notification');
    }
  });

  describe('bad input: the contract error body, nothing changed', () => {
    it('refuses every forged, expired, misaddressed or non-canonical payload with 401', async () => {
      const s = await appleLogin('notify-attack');
      const now = Math.floor(Date.now() / 1000);
      const key = f.apple.keys[0]!;
      const good = await signed(event('consent-revoked', 'notify-attack'));
      const [gh, gp, gs] = good.split('.');
      const unpublished = await f.apple.addKey({ publish: false });
      const claims = {
        iss: f.apple.issuer,
        aud: APPLE_AUD,
        iat: now,
        exp: now + 600,
        jti: randomUUID(),
        events: JSON.stringify(event('consent-revoked', 'notify-attack')),
      };
      const hmacWithPublicKey = (() => {
        const h = b64url({ alg: 'HS256', kid: key.kid, typ: 'JWT' });
        const p = b64url(claims);
        return `${h}.${p}.${createHmac('sha256', JSON.stringify(key.publicJwk)).update(`${h}.${p}`).digest('base64url')}`;
      })();
      const consent = event('consent-revoked', 'notify-attack');
      const cases: Array<[string, string]> = [
        ['forged (a key Apple never published)', await signed(consent, {}, { key: unpublished })],
        ['forged (a published kid, another key)', await signed(consent, {}, { key: unpublished, header: { kid: key.kid } })],
        ['tampered payload', `${gh}.${b64url({ ...claims, events: JSON.stringify(event('account-delete', 'notify-attack')) })}.${gs}`],
        ['expired', await signed(consent, { iat: now - 7200, exp: now - 3600 })],
        ['no exp', await signed(consent, { exp: undefined })],
        ['wrong audience', await signed(consent, { aud: 'com.evil.app' })],
        ["another realm's audience", await signed(consent, { aud: 'com.other.app' })],
        ['wrong issuer', await signed(consent, { iss: 'https://evil.example' })],
        ['no jti', await signed(consent, { jti: undefined })],
        ['a jti that is not a string', await signed(consent, { jti: 42 as never })],
        ['alg none', `${b64url({ alg: 'none', kid: key.kid })}.${gp}.`],
        ['HS256 keyed with the public key', hmacWithPublicKey],
        ['padded base64url (non-canonical)', `${gh}.${gp}=.${gs}`],
        ['four segments', `${good}.${gs}`],
        ['whitespace inside', `${gh}.${gp} .${gs}`],
        ['standard base64 alphabet', `${gh}.${Buffer.from(gp!, 'base64url').toString('base64')}.${gs}`],
        ['garbage', 'not-a-jws'],
      ];
      const before = await snapshot();
      for (const [name, payload] of cases) {
        const r = await post({ payload });
        assert.equal(r.status, 401, `${name}: ${r.text}`);
        assert.equal(r.body.error, 'unauthorized', name);
        assert.equal(r.body.status, 401, name);
        assert.equal(typeof r.body.requestId, 'string', name);
      }
      assert.deepEqual(await snapshot(), before);
      assert.equal((await refresh(s.refreshToken)).status, 200, 'the session lives');
    });

    it('refuses an events claim that is not JSON, or JSON of the wrong shape, with 400', async () => {
      const cases: Array<[string, Record<string, unknown> | string]> = [
        ['not JSON', '{"type":"consent-revoked",'],
        ['a JSON array', '[]'],
        ['a JSON string', '"consent-revoked"'],
        ['no type', { sub: 'x', event_time: 1 }],
        ['no sub', { type: 'consent-revoked', event_time: 1 }],
        ['a numeric sub', { type: 'consent-revoked', sub: 5, event_time: 1 }],
        ['event_time as text', { type: 'consent-revoked', sub: 'x', event_time: 'yesterday' }],
        ['is_private_email of another kind', { type: 'email-disabled', sub: 'x', event_time: 1, is_private_email: 'maybe' }],
      ];
      const before = await snapshot();
      for (const [name, events] of cases) {
        const r = await post({ payload: await signed(events) });
        assert.equal(r.status, 400, `${name}: ${r.text}`);
        assert.equal(r.body.error, 'bad_request', name);
        assert.equal(r.body.field, 'payload', name);
      }
      const noEvents = await post({ payload: await f.apple.token({ sub: undefined, jti: randomUUID() }) });
      assert.equal(noEvents.status, 400, noEvents.text);
      assert.deepEqual(await snapshot(), before);
    });

    it('refuses a body without a string payload with 400, and one over 64 KiB with 413', async () => {
      const before = await snapshot();
      for (const [name, body] of [
        ['no payload', {}],
        ['an empty payload', { payload: '' }],
        ['a numeric payload', { payload: 42 }],
        ['an object payload', { payload: { jws: 'x' } }],
        ['an unknown field', { payload: 'a.b.c', extra: true }],
      ] as const) {
        const r = await post(body);
        assert.equal(r.status, 400, `${name}: ${r.text}`);
        assert.equal(r.body.error, 'bad_request', name);
      }
      // 64 KiB is the most a body may be: a payload that fills it is read, and is no JWS Apple signed.
      const frame = (size: number) => `{"payload":"${'a'.repeat(size - '{"payload":""}'.length)}"}`;
      const full = await http(f.srv.http, 'POST', `/api/oauth/${REALM}/apple/notifications`, {
        raw: frame(64 * 1024),
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(full.status, 401, full.text);
      const over = await http(f.srv.http, 'POST', `/api/oauth/${REALM}/apple/notifications`, {
        raw: frame(64 * 1024 + 1),
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(over.status, 413, over.text);
      assert.equal(over.body.error, 'payload_too_large');
      assert.deepEqual(await snapshot(), before);
    });
  });
});

describe("Apple notifications while Apple's keys cannot be had", () => {
  it('answers 503 and changes nothing', async () => {
    // A server of its own: after a failed fetch its key cache waits before fetching again.
    const f = await authFixture({ inProcess: {} });
    const stores = await openStoresAt(f.srv.dbPath);
    try {
      const payload = await f.apple.token({ sub: undefined, jti: randomUUID(), events: JSON.stringify({ type: 'consent-revoked', sub: 'x', event_time: 1 }) });
      const post = () => http(f.srv.http, 'POST', `/api/oauth/${REALM}/apple/notifications`, { body: { payload } });
      f.apple.setMode('down');
      const r = await post();
      assert.equal(r.status, 503, r.text);
      assert.equal(r.body.error, 'service_unavailable');
      assert.equal(r.body.message, 'Upstream service unavailable');
      assert.deepEqual(await stores.records.events(REALM, { limit: 10 }), []);
    } finally {
      await stores.close();
      await f.close();
    }
  });
});
