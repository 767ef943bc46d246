// Identity linking (docs/login.md, "Linking providers"): GET/POST …/me/identities and DELETE
// …/me/identities/{provider} with the user's own access token, and the admin's unlink, over real
// HTTP (and gRPC) against a real server; every refusal answers the contract's error body and
// changes nothing. Each link and unlink reaches a webhook receiver as an event (docs/events.md) and
// the audit log as a record.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { status } from '@grpc/grpc-js';
import { Webhook } from 'standardwebhooks';
import { describeEachBackend } from '../helpers/backends.ts';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { http } from '../helpers/http.ts';
import { nonceHash } from '../helpers/idp.ts';
import type { InProcessServer } from '../helpers/server.ts';
import { receiver } from '../helpers/webhook-receiver.ts';
import { type AuthFixture, authFixture, REALM } from './fixture.ts';

describeEachBackend('identity linking', (backend) => {
  let f: AuthFixture;
  before(async () => {
    f = await authFixture({ backend, inProcess: { config: { trustProxy: 1 } } });
  });
  after(async () => {
    closeGrpcClients();
    await f.close();
  });

  const path = `/api/oauth/${REALM}/me/identities`;
  const appleLogin = async (sub: string, claims: Record<string, unknown> = {}) => {
    const r = await f.login('apple', { identityToken: await f.apple.token({ sub, ...claims }), clientId: 'app' });
    assert.equal(r.status, 200, r.text);
    return r.body as { userId: string; accessToken: string };
  };
  const list = (token: string) => http(f.srv.http, 'GET', path, { token });
  const link = (token: string, body: Record<string, unknown>) => http(f.srv.http, 'POST', path, { token, body });
  const unlink = (token: string, provider: string) => http(f.srv.http, 'DELETE', `${path}/${provider}`, { token });
  const userinfo = async (token: string) => (await http(f.srv.http, 'GET', `/api/oauth/${REALM}/userinfo`, { token })).body;

  it('lists the identities of the caller, each with provider, subject, email and linkedAt', async () => {
    const s = await appleLogin('link-list', { email: 'link-list@example.com', email_verified: true });
    const r = await list(s.accessToken);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.identities.length, 1);
    const [i] = r.body.identities;
    assert.deepEqual(Object.keys(i).sort(), ['email', 'linkedAt', 'provider', 'subject']);
    assert.deepEqual([i.provider, i.subject, i.email], ['apple', 'link-list', 'link-list@example.com']);
    assert.equal(typeof i.linkedAt, 'string');
  });

  it('links a Google identity; the placeholder email becomes its verified one; linking again changes nothing', async () => {
    const s = await appleLogin('link-google');
    assert.equal((await userinfo(s.accessToken)).email, 'link-google@apple.placeholder');
    const google = await f.google.token({ sub: 'link-google-g', email: 'Linked.Person@Example.com', email_verified: true });
    const r = await link(s.accessToken, { provider: 'google', identityToken: google });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.body.identities.map((i: { provider: string; subject: string }) => [i.provider, i.subject]),
      [
        ['apple', 'link-google'],
        ['google', 'link-google-g'],
      ],
    );
    const info = await userinfo(s.accessToken);
    assert.deepEqual([info.email, info.email_verified], ['linked.person@example.com', true]);
    // Signing in with Google now lands on the same account.
    const g = await f.login('google', { identityToken: await f.google.token({ sub: 'link-google-g' }), clientId: 'app' });
    assert.equal(g.body.userId, s.userId);
    const counts = await f.counts();
    const again = await link(s.accessToken, { provider: 'google', identityToken: await f.google.token({ sub: 'link-google-g' }) });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.identities.length, 2);
    assert.deepEqual((await f.counts()).identities, counts.identities);
  });

  it('never replaces a verified email', async () => {
    const s = await appleLogin('link-keep-email', { email: 'keep@example.com', email_verified: true });
    const google = await f.google.token({ sub: 'link-keep-email-g', email: 'other-address@example.com', email_verified: true });
    assert.equal((await link(s.accessToken, { provider: 'google', identityToken: google })).status, 200);
    assert.equal((await userinfo(s.accessToken)).email, 'keep@example.com');
  });

  it('applies the nonce rules of native login', async () => {
    const s = await appleLogin('link-nonce');
    const withNonce = await f.google.token({ sub: 'link-nonce-g', nonce: nonceHash('n-123') });
    const without = await link(s.accessToken, { provider: 'google', identityToken: withNonce });
    assert.equal(without.status, 401, without.text);
    const wrong = await link(s.accessToken, { provider: 'google', identityToken: withNonce, nonce: 'n-999' });
    assert.equal(wrong.status, 401, wrong.text);
    const noClaim = await link(s.accessToken, { provider: 'google', identityToken: await f.google.token({ sub: 'link-nonce-g' }), nonce: 'n-123' });
    assert.equal(noClaim.status, 401, noClaim.text);
    const ok = await link(s.accessToken, { provider: 'google', identityToken: withNonce, nonce: 'n-123' });
    assert.equal(ok.status, 200, ok.text);
  });

  describe('bad input: the contract error body, nothing changed', () => {
    it("answers 409 identity_in_use for a subject that is another account's", async () => {
      const a = await appleLogin('link-owner-a');
      const b = await appleLogin('link-owner-b');
      assert.equal((await link(a.accessToken, { provider: 'google', identityToken: await f.google.token({ sub: 'link-taken' }) })).status, 200);
      const before = await f.counts();
      const r = await link(b.accessToken, { provider: 'google', identityToken: await f.google.token({ sub: 'link-taken' }) });
      assert.equal(r.status, 409, r.text);
      assert.equal(r.body.error, 'identity_in_use');
      assert.equal(r.body.status, 409);
      assert.equal(typeof r.body.requestId, 'string');
      assert.deepEqual(await f.counts(), before);
      assert.equal((await list(b.accessToken)).body.identities.length, 1);
      // Another account's Apple subject, too.
      const apple = await link(b.accessToken, { provider: 'apple', identityToken: await f.apple.token({ sub: 'link-owner-a' }) });
      assert.equal(apple.status, 409, apple.text);
    });

    it('answers 409 last_identity when unlinking would leave none, and unlinks otherwise', async () => {
      const s = await appleLogin('link-last');
      assert.equal((await link(s.accessToken, { provider: 'google', identityToken: await f.google.token({ sub: 'link-last-g' }) })).status, 200);
      const r = await unlink(s.accessToken, 'google');
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(
        r.body.identities.map((i: { provider: string }) => i.provider),
        ['apple'],
      );
      const before = await f.counts();
      const last = await unlink(s.accessToken, 'apple');
      assert.equal(last.status, 409, last.text);
      assert.equal(last.body.error, 'last_identity');
      assert.deepEqual(await f.counts(), before);
      const none = await unlink(s.accessToken, 'google');
      assert.equal(none.status, 404, none.text);
      assert.equal(none.body.error, 'not_found');
    });

    it('refuses forged, expired and misaddressed ID tokens with 401, and bodies without what it needs with 400', async () => {
      const s = await appleLogin('link-bad');
      const now = Math.floor(Date.now() / 1000);
      const unpublished = await f.google.addKey({ publish: false });
      const before = await f.counts();
      for (const [name, token] of [
        ['forged', await f.google.token({ sub: 'link-bad-g' }, { key: unpublished })],
        ['expired', await f.google.token({ sub: 'link-bad-g', iat: now - 7200, exp: now - 3600 })],
        ['wrong audience', await f.google.token({ sub: 'link-bad-g', aud: 'someone-else' })],
        ['garbage', 'a.b.c'],
      ] as const) {
        const r = await link(s.accessToken, { provider: 'google', identityToken: token });
        assert.equal(r.status, 401, `${name}: ${r.text}`);
        assert.equal(r.body.error, 'unauthorized', name);
      }
      for (const [name, body, field] of [
        ['no provider', { identityToken: 'x.y.z' }, 'provider'],
        ['no token', { provider: 'google' }, 'identityToken'],
        ['an empty nonce', { provider: 'google', identityToken: 'x.y.z', nonce: '' }, 'nonce'],
      ] as const) {
        const r = await link(s.accessToken, body);
        assert.equal(r.status, 400, `${name}: ${r.text}`);
        assert.equal(r.body.field, field, name);
      }
      const unknown = await link(s.accessToken, { provider: 'github', identityToken: 'x.y.z' });
      assert.equal(unknown.status, 404, unknown.text);
      assert.deepEqual(await f.counts(), before);
    });

    it('answers 401 without the caller’s own access token', async () => {
      assert.equal((await http(f.srv.http, 'GET', path)).status, 401);
      assert.equal((await list('not-a-token')).status, 401);
      assert.equal((await http(f.srv.http, 'GET', path, { key: f.srv.adminKey })).status, 401);
    });
  });

  describe('the admin', () => {
    it('sees the identities and unlinks one (users.manage), never the last', async () => {
      const s = await appleLogin('link-admin');
      assert.equal((await link(s.accessToken, { provider: 'google', identityToken: await f.google.token({ sub: 'link-admin-g' }) })).status, 200);
      const user = await f.admin.get(`/api/admin/realms/${REALM}/users/${s.userId}`);
      assert.equal(user.status, 200, user.text);
      assert.deepEqual(
        user.body.identities.map((i: { provider: string; subject: string }) => [i.provider, i.subject]),
        [
          ['apple', 'link-admin'],
          ['google', 'link-admin-g'],
        ],
      );
      const r = await f.admin.delete(`/api/admin/realms/${REALM}/users/${s.userId}/identities/google`);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(
        r.body.identities.map((i: { provider: string }) => i.provider),
        ['apple'],
      );
      const last = await f.admin.delete(`/api/admin/realms/${REALM}/users/${s.userId}/identities/apple`);
      assert.equal(last.status, 409, last.text);
      assert.equal(last.body.error, 'last_identity');
      const unknownUser = await f.admin.delete(`/api/admin/realms/${REALM}/users/usr_nobody/identities/apple`);
      assert.equal(unknownUser.status, 404, unknownUser.text);
    });

    it('answers over gRPC too, with FAILED_PRECONDITION and the error code for the last identity', async () => {
      const s = await appleLogin('link-grpc');
      const r = await grpcCall(f.srv.grpc, 'AdminService', 'UnlinkUserIdentity', { realmId: REALM, userId: s.userId, provider: 'apple' }, f.srv.adminKey);
      assert.equal(r.ok, false);
      if (r.ok) return;
      assert.equal(r.error.code, status.FAILED_PRECONDITION);
      assert.equal(r.error.reason, 'last_identity');
    });
  });

  describe('events and audit records (docs/events.md)', () => {
    let hook: Awaited<ReturnType<typeof receiver>>;
    let secret: string;
    before(async () => {
      hook = await receiver();
      const created = await f.admin.post(`/api/admin/realms/${REALM}/webhooks`, {
        url: hook.url,
        eventTypes: ['user.identity_linked', 'user.identity_unlinked'],
      });
      assert.equal(created.status, 200, created.text);
      secret = created.body.secret;
    });
    after(() => hook.close());

    /** The one event the receiver gets from the queue's next round, verified as a receiver would
     *  (standardwebhooks). A round waits for one under way, so nothing owed is still in flight. */
    const nextEvent = async () => {
      const from = hook.received.length;
      await (f.srv as InProcessServer).running.app.jobs.runOnce();
      assert.equal(hook.received.length, from + 1, 'one event delivered');
      const got = hook.received[from]!;
      return new Webhook(secret).verify(got.body, got.headers) as Record<string, any>;
    };
    const auditOf = async (userId: string) => {
      const res = await f.admin.get(`/api/admin/realms/${REALM}/audit?targetId=${userId}`);
      assert.equal(res.status, 200, res.text);
      return res.body.records.map((a: Record<string, any>) => [a.action, a.actor.type, a.actor.id, JSON.parse(a.changesJson)]);
    };

    it('sends user.identity_linked and user.identity_unlinked for the user’s link and unlink and an operator’s unlink, each with its audit record', async () => {
      const s = await appleLogin('link-events');
      const google = () => f.google.token({ sub: 'link-events-g' });
      assert.equal((await link(s.accessToken, { provider: 'google', identityToken: await google() })).status, 200);
      const linked = await nextEvent();
      assert.deepEqual([linked.type, linked.realmId, linked.data], ['user.identity_linked', REALM, { userId: s.userId, provider: 'google' }]);
      assert.match(linked.id, /^evt_/);
      // Linking the same subject again, and refused unlinks, change nothing and report nothing.
      assert.equal((await link(s.accessToken, { provider: 'google', identityToken: await google() })).status, 200);
      assert.equal((await unlink(s.accessToken, 'github')).status, 404);
      assert.equal((await unlink(s.accessToken, 'google')).status, 200);
      const unlinked = await nextEvent();
      assert.deepEqual([unlinked.type, unlinked.data], ['user.identity_unlinked', { userId: s.userId, provider: 'google' }]);
      assert.equal((await unlink(s.accessToken, 'apple')).status, 409, 'the last identity stays');
      assert.equal((await link(s.accessToken, { provider: 'google', identityToken: await google() })).status, 200);
      assert.equal((await nextEvent()).type, 'user.identity_linked');
      const byOperator = await grpcCall(
        f.srv.grpc,
        'AdminService',
        'UnlinkUserIdentity',
        { realmId: REALM, userId: s.userId, provider: 'google' },
        f.srv.adminKey,
      );
      assert.equal(byOperator.ok, true, JSON.stringify(byOperator));
      const operatorUnlinked = await nextEvent();
      assert.deepEqual([operatorUnlinked.type, operatorUnlinked.data], ['user.identity_unlinked', { userId: s.userId, provider: 'google' }]);
      const both = { before: ['apple'], after: ['apple', 'google'] };
      const [operator, ...byUser] = await auditOf(s.userId);
      assert.deepEqual(byUser, [
        ['user.identity_link', 'user', s.userId, { identities: both }],
        ['user.identity_unlink', 'user', s.userId, { identities: { before: both.after, after: both.before } }],
        ['user.identity_link', 'user', s.userId, { identities: both }],
      ]);
      assert.deepEqual(
        [operator[0], operator[1], operator[3]],
        ['user.identity_unlink', 'api_key', { identities: { before: both.after, after: both.before } }],
      );
    });
  });
});
