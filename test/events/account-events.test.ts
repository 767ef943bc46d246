// The events of the login and account paths reach a webhook endpoint (docs/events.md): a
// native login that creates an account, an operator's CreateUser, disable and
// sign-out everywhere (with their audit records), RFC 7009 revocation, refresh token
// reuse, and subscriptions an operator activates and cancels. Delivered to a
// receiver on loopback and verified with the standardwebhooks package; the queue's round is run
// by the test (its interval is an hour).
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { ManualClock } from '../../server/lib/clock.ts';
import { type AuthFixture, authFixture, REALM } from '../auth/fixture.ts';
import { describeEachBackend } from '../helpers/backends.ts';
import { http } from '../helpers/http.ts';
import type { InProcessServer } from '../helpers/server.ts';
import { receiver } from '../helpers/webhook-receiver.ts';
import { createMapping, createUser, subscribe } from '../points/helpers.ts';

describeEachBackend('account events delivered to webhooks', (backend) => {
  let f: AuthFixture;
  let r: Awaited<ReturnType<typeof receiver>>;
  let secret: string;
  const runQueue = () => (f.srv as InProcessServer).running.app.jobs.runOnce();

  before(async () => {
    f = await authFixture({ backend, inProcess: { clock: new ManualClock(Date.now()), tuning: { jobIntervalMs: 3_600_000 } } });
    r = await receiver();
    const hook = await f.admin.post(`/api/admin/realms/${REALM}/webhooks`, {
      url: r.url,
      eventTypes: ['user.created', 'session.revoked', 'subscription.activated', 'subscription.cancelled'],
    });
    assert.equal(hook.status, 200, hook.text);
    secret = hook.body.secret;
  });
  after(async () => {
    await r.close();
    await f.close();
  });

  /** The events delivered since `from`, verified. */
  const deliveredSince = (from: number) => r.received.slice(from).map((got) => new Webhook(secret).verify(got.body, got.headers) as Record<string, any>);

  it('sends user.created once for the native login that creates the account, not for the next one', async () => {
    const from = r.received.length;
    const token = () => f.apple.token({ sub: 'events-new', email: 'events-new@example.com' });
    const first = await f.login('apple', { identityToken: await token(), clientId: 'app' });
    assert.equal(first.status, 200, first.text);
    assert.equal((await f.login('apple', { identityToken: await token(), clientId: 'app' })).status, 200);
    await runQueue();
    const events = deliveredSince(from);
    assert.equal(events.length, 1, JSON.stringify(events));
    assert.equal(events[0]!.type, 'user.created');
    assert.equal(events[0]!.realmId, REALM);
    assert.deepEqual(events[0]!.data, { userId: first.body.userId, provider: 'apple' });
  });

  it("sends user.created for an operator's CreateUser, with its user.create audit record", async () => {
    const from = r.received.length;
    const created = await f.admin.post(`/api/admin/realms/${REALM}/users`, { email: 'made@example.com', emailVerified: true, givenName: '', familyName: '' });
    assert.equal(created.status, 200, created.text);
    await runQueue();
    assert.deepEqual(
      deliveredSince(from).map((e) => [e.type, e.data]),
      [['user.created', { userId: created.body.id, provider: null }]],
    );
    const audit = await f.admin.get(`/api/admin/realms/${REALM}/audit?action=user.create&targetId=${created.body.id}`);
    assert.equal(audit.body.records.length, 1, audit.text);
    assert.equal(audit.body.records[0].actor.type, 'api_key');
  });

  const auditOf = async (userId: string) => {
    const res = await f.admin.get(`/api/admin/realms/${REALM}/audit?targetId=${userId}`);
    assert.equal(res.status, 200, res.text);
    return res.body.records.map((a: Record<string, any>) => [a.action, a.actor.type, JSON.parse(a.changesJson)]);
  };
  const signIn = async (sub: string, clientId = 'app') => {
    const res = await f.login('apple', { identityToken: await f.apple.token({ sub, email: `${sub}@example.com` }), clientId });
    assert.equal(res.status, 200, res.text);
    return res.body as { userId: string; accessToken: string; refreshToken: string };
  };

  it('sends session.revoked (admin) for each live session an operator ends by disabling, and records disable and enable once each', async () => {
    await signIn('events-disabled');
    const { userId } = await signIn('events-disabled');
    await runQueue(); // its user.created out of the way
    const from = r.received.length;
    const users = `/api/admin/realms/${REALM}/users/${userId}`;
    assert.equal((await f.admin.post(`${users}/disable`, {})).status, 200);
    assert.equal((await f.admin.post(`${users}/disable`, {})).status, 200, 'disabled already');
    await runQueue();
    const revoked = deliveredSince(from);
    assert.deepEqual(
      revoked.map((e) => [e.type, e.data.userId, e.data.reason]),
      [
        ['session.revoked', userId, 'admin'],
        ['session.revoked', userId, 'admin'],
      ],
    );
    assert.notEqual(revoked[0]!.data.sessionId, revoked[1]!.data.sessionId);
    assert.equal((await f.admin.post(`${users}/enable`, {})).status, 200);
    const [enable, disable, ...rest] = await auditOf(userId);
    assert.deepEqual(rest, [], 'the second disable changed nothing and recorded nothing');
    assert.equal(disable[0], 'user.disable');
    assert.equal(disable[1], 'api_key');
    assert.equal(disable[2].disabledAt.before, null);
    assert.deepEqual([enable[0], enable[2].disabledAt.after], ['user.enable', null]);
  });

  it('sends session.revoked (client_disabled) for each live session of a client an operator disables, which enabling it again does not bring back', async () => {
    const clients = `/api/admin/realms/${REALM}/clients`;
    const made = await f.admin.post(clients, { clientId: 'app-disabling', name: 'Disabling', type: 'first_party', redirectUris: [], ipBinding: 'off' });
    assert.equal(made.status, 200, made.text);
    const a1 = await signIn('events-client-a', 'app-disabling');
    const a2 = await signIn('events-client-a', 'app-disabling');
    const b = await signIn('events-client-b', 'app-disabling');
    const gone = await signIn('events-client-b', 'app-disabling');
    assert.equal((await http(f.srv.http, 'POST', `/api/oauth/${REALM}/revoke`, { form: { token: gone.refreshToken } })).status, 200);
    const other = await signIn('events-client-b');
    await runQueue();
    const from = r.received.length;
    const patch = (enabled: boolean) => f.admin.patch(`${clients}/app-disabling`, { enabled });
    assert.equal((await patch(false)).status, 200);
    assert.equal((await patch(false)).status, 200, 'disabled already: nothing more ends');
    await runQueue();
    const revoked = deliveredSince(from).map((e) => [e.type, e.data.userId, e.data.reason]);
    assert.deepEqual(
      revoked.sort(),
      [
        ['session.revoked', a1.userId, 'client_disabled'],
        ['session.revoked', a2.userId, 'client_disabled'],
        ['session.revoked', b.userId, 'client_disabled'],
      ].sort(),
    );
    assert.equal(new Set(deliveredSince(from).map((e) => e.data.sessionId)).size, 3, 'one per session');
    assert.equal((await patch(true)).status, 200);
    const refresh = (token: string) => http(f.srv.http, 'POST', `/api/oauth/${REALM}/token`, { form: { grant_type: 'refresh_token', refresh_token: token } });
    for (const s of [a1, a2, b]) {
      assert.equal((await http(f.srv.http, 'GET', `/api/oauth/${REALM}/userinfo`, { token: s.accessToken })).status, 401);
      assert.equal((await refresh(s.refreshToken)).status, 400);
    }
    assert.equal(
      (await http(f.srv.http, 'GET', `/api/oauth/${REALM}/userinfo`, { token: other.accessToken })).status,
      200,
      "another client's session lives on",
    );
  });

  it('sends session.revoked (admin) for a sign-out everywhere, with its user.sign_out audit record', async () => {
    const { userId } = await signIn('events-signed-out');
    await runQueue();
    const from = r.received.length;
    const out = await f.admin.post(`/api/admin/realms/${REALM}/users/${userId}/sign-out`, {});
    assert.equal(out.status, 200, out.text);
    await runQueue();
    assert.deepEqual(
      deliveredSince(from).map((e) => [e.type, e.data.reason]),
      [['session.revoked', 'admin']],
    );
    assert.deepEqual(await auditOf(userId), [['user.sign_out', 'api_key', { liveSessions: { before: 1, after: 0 } }]]);
  });

  it('sends session.revoked (signed_out) once for an RFC 7009 revocation, however often the token is revoked', async () => {
    const s = await signIn('events-revoked');
    await runQueue();
    const from = r.received.length;
    const revoke = (token: string) => http(f.srv.http, 'POST', `/api/oauth/${REALM}/revoke`, { form: { token } });
    assert.equal((await revoke(s.refreshToken)).status, 200);
    assert.equal((await revoke(s.accessToken)).status, 200);
    await runQueue();
    assert.deepEqual(
      deliveredSince(from).map((e) => [e.type, e.data.userId, e.data.reason]),
      [['session.revoked', s.userId, 'signed_out']],
    );
  });

  it('sends session.revoked (refresh_reuse) when a rotated refresh token comes back', async () => {
    const s = await signIn('events-reused');
    await runQueue();
    const from = r.received.length;
    const refresh = (token: string) => http(f.srv.http, 'POST', `/api/oauth/${REALM}/token`, { form: { grant_type: 'refresh_token', refresh_token: token } });
    assert.equal((await refresh(s.refreshToken)).status, 200);
    assert.equal((await refresh(s.refreshToken)).status, 400, 'the rotated token is refused');
    await runQueue();
    assert.deepEqual(
      deliveredSince(from).map((e) => [e.type, e.data.userId, e.data.reason]),
      [['session.revoked', s.userId, 'refresh_reuse']],
    );
  });

  it("sends subscription.activated and subscription.cancelled for an operator's calls, each with its audit record, and nothing for a second cancel", async () => {
    const mapping = await createMapping(f.admin, REALM, { entitlementKey: 'pro', pointsPerPeriod: 10 }, 'events-pro');
    const userId = await createUser(f.admin, REALM, 'subscriber@example.com');
    await runQueue();
    const from = r.received.length;
    const subscriptionId = await subscribe(f.admin, REALM, userId, mapping.mappingId);
    const cancel = () => f.admin.post(`/api/bill/${REALM}/subscriptions/${subscriptionId}/cancel`, {});
    assert.equal((await cancel()).status, 200);
    assert.equal((await cancel()).status, 200, 'canceled already');
    await runQueue();
    const ids = { userId, subscriptionId, mappingId: mapping.mappingId, externalSubscriptionId: null };
    // Both at one instant of the server's clock: their order between them is not defined.
    assert.deepEqual(
      deliveredSince(from)
        .map((e) => [e.type, e.data])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      [
        ['subscription.activated', ids],
        ['subscription.cancelled', ids],
      ],
    );
    assert.deepEqual(
      (await auditOf(subscriptionId)).map(([action, actor, changes]: [string, string, Record<string, any>]) => [action, actor, changes.status]),
      [
        ['subscription.cancel', 'api_key', { before: 'active', after: 'canceled' }],
        ['subscription.create', 'api_key', { before: null, after: 'active' }],
      ],
    );
  });
});
