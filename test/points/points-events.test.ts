// Every points event from every path that causes it (docs/events.md), seen as a
// webhook receiver on loopback sees them, and the audit records of grants and refunds through the
// audit API. The server's clock is manual; the test runs the queue's rounds itself.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../server/lib/clock.ts';
import { describeEachBackend } from '../helpers/backends.ts';
import { api } from '../helpers/http.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';
import { receiver } from '../helpers/webhook-receiver.ts';
import { type Api, createMapping, createRealm, createUser, subscribe } from './helpers.ts';

const REALM = 'pevents';

describeEachBackend('points events', (backend) => {
  const clock = new ManualClock(Date.UTC(2026, 6, 1));
  let server: InProcessServer;
  let admin: Api;
  let hook: Awaited<ReturnType<typeof receiver>>;
  let userId: string;

  const deliver = () => server.running.app.jobs.runOnce();
  type Seen = { id: string; type: string; realmId: string; createdAt: string; data: Record<string, any> };
  const seen = () => hook.received.map((r) => JSON.parse(r.body) as Seen);
  /** The events delivered since `from` (an index into everything received), of `type`. */
  const ofType = (type: string, from = 0) =>
    seen()
      .slice(from)
      .filter((e) => e.type === type);
  /** Deliveries of one round arrive in any order: compared as sets. */
  const sameSet = (actual: unknown[], expected: unknown[]) =>
    assert.deepEqual(actual.map((x) => JSON.stringify(x)).sort(), expected.map((x) => JSON.stringify(x)).sort());

  before(async () => {
    server = await startInProcess({ backend, clock, tuning: { jobIntervalMs: 3_600_000, sweepIntervalMs: 3_600_000 } });
    admin = api(server.http, server.adminKey);
    await createRealm(admin, REALM);
    hook = await receiver();
    const created = await admin.post(`/api/admin/realms/${REALM}/webhooks`, {
      url: hook.url,
      eventTypes: ['points.granted', 'points.consumed', 'points.hold_expired', 'points.refunded'],
    });
    assert.equal(created.status, 200, created.text);
    const cfg = await admin.put(`/api/points/${REALM}/default-config`, {
      registrationBonusPoints: 50,
      freePeriodicGrantPeriodType: 'daily',
      freePeriodicQuotaWindows: [{ windowSeconds: 86_400, limit: 5 }],
    });
    assert.equal(cfg.status, 200, cfg.text);
    userId = await createUser(admin, REALM, 'events@example.com');
    await deliver();
  });
  after(async () => {
    await hook.close();
    await server.stop();
  });

  it('reports the registration credit and the free periodic window entitlement of a new user', () => {
    const granted = ofType('points.granted');
    assert.deepEqual(granted.map((e) => [e.data.origin, e.data.creditKind, e.data.amount, e.data.windows]).sort(), [
      ['free_periodic', 'free_periodic_credit', null, [{ windowSeconds: 86_400, limit: 5 }]],
      ['registration', 'registration_credit', 50, null],
    ]);
    for (const e of granted) {
      assert.equal(e.realmId, REALM);
      assert.equal(e.data.userId, userId);
      assert.match(e.data.grantId, /^(bal|ent)_/);
    }
  });

  it('reports a grant through the API with its audit record, the API key as actor', async () => {
    const from = seen().length;
    const r = await admin.post(`/api/points/${REALM}/users/${userId}/grants`, { kind: 'granted_credit', amount: 30 });
    assert.equal(r.status, 200, r.text);
    await deliver();
    assert.deepEqual(
      ofType('points.granted', from).map((e) => e.data),
      [{ userId, grantId: r.body.grantId, creditKind: 'granted_credit', amount: 30, expiresAt: null, origin: 'api' }],
    );
    const audit = await admin.get(`/api/admin/realms/${REALM}/audit?action=points.grant`);
    assert.equal(audit.status, 200, audit.text);
    assert.equal(audit.body.records.length, 1);
    assert.equal(audit.body.records[0].targetId, userId);
    assert.equal(audit.body.records[0].actor.type, 'api_key');
  });

  it('reports a consume and a settlement (what stays charged), and nothing for a refused consume', async () => {
    const from = seen().length;
    const c = await admin.post(`/api/points/${REALM}/consume`, { userId, amount: 8 });
    assert.equal(c.status, 200, c.text);
    assert.equal((await admin.post(`/api/points/${REALM}/consume`, { userId, amount: 10_000 })).status, 409);
    const h = await admin.post(`/api/points/${REALM}/holds`, { userId, amount: 6 });
    assert.equal(h.status, 200, h.text);
    const s = await admin.post(`/api/points/${REALM}/holds/${h.body.holdId}/settle`, { amount: 4 });
    assert.equal(s.status, 200, s.text);
    await deliver();
    sameSet(
      ofType('points.consumed', from).map((e) => e.data),
      [
        { userId, transactionId: c.body.transactionId, amount: 8, allocations: c.body.allocations, holdId: null },
        { userId, transactionId: s.body.transactionId, amount: 4, allocations: s.body.allocations, holdId: h.body.holdId },
      ],
    );
  });

  it('reports a hold that expired by itself, once it is swept', async () => {
    const from = seen().length;
    const h = await admin.post(`/api/points/${REALM}/holds`, { userId, amount: 3, ttlSeconds: 60 });
    assert.equal(h.status, 200, h.text);
    clock.advance(61_000);
    assert.equal((await admin.get(`/api/points/${REALM}/users/${userId}/summary`)).status, 200);
    await deliver();
    assert.deepEqual(
      ofType('points.hold_expired', from).map((e) => e.data),
      [{ userId, holdId: h.body.holdId, amount: 3, expiredAt: Date.parse(h.body.expiresAt) }],
    );
  });

  it('reports a refund with its audit record', async () => {
    const from = seen().length;
    const c = await admin.post(`/api/points/${REALM}/consume`, { userId, amount: 5 });
    const r = await admin.post(`/api/points/${REALM}/transactions/${c.body.transactionId}/refund`, { amount: 2, reason: 'failed job' });
    assert.equal(r.status, 200, r.text);
    await deliver();
    assert.deepEqual(
      ofType('points.refunded', from).map((e) => e.data),
      [{ userId, refundId: r.body.refundId, transactionId: c.body.transactionId, amount: 2, refunded: r.body.refunded }],
    );
    const audit = await admin.get(`/api/admin/realms/${REALM}/audit?action=points.refund&targetId=${c.body.transactionId}`);
    assert.equal(audit.body.records.length, 1);
    assert.equal(audit.body.records[0].actor.type, 'api_key');
  });

  it("reports a subscription's credits as points.granted of origin subscription: the first on subscribing, the next when its period comes", async () => {
    const subscriber = await createUser(admin, REALM, 'subscriber@example.com');
    const daily = await createMapping(
      admin,
      REALM,
      { entitlementKey: 'daily-ten', pointsPerPeriod: 10, grantPeriodType: 'daily', grantOnSubscribe: true },
      'daily-ten',
    );
    const windowed = await createMapping(admin, REALM, { entitlementKey: 'windowed', quotaWindows: [{ windowSeconds: 3_600, limit: 7 }] }, 'windowed');
    await deliver();
    const fromSubscribe = seen().length;
    await subscribe(admin, REALM, subscriber, daily.mappingId);
    await subscribe(admin, REALM, subscriber, windowed.mappingId);
    await deliver();
    const subscribed = ofType('points.granted', fromSubscribe).map((e) => e.data);
    sameSet(
      subscribed.map(({ grantId, ...rest }) => rest),
      [
        { userId: subscriber, creditKind: 'subscription_credit', amount: 10, expiresAt: null, windows: null, origin: 'subscription' },
        {
          userId: subscriber,
          creditKind: 'subscription_credit',
          amount: null,
          expiresAt: null,
          windows: [{ windowSeconds: 3_600, limit: 7 }],
          origin: 'subscription',
        },
      ],
    );
    // A day later the daily subscription's next credit is materialised by a read of the user's points.
    clock.advance(86_400_000);
    const fromNextDay = seen().length;
    assert.equal((await admin.get(`/api/points/${REALM}/users/${subscriber}/summary`)).status, 200);
    await deliver();
    const nextDay = ofType('points.granted', fromNextDay)
      .map((e) => e.data)
      .filter((d) => d.origin === 'subscription');
    assert.deepEqual(
      nextDay.map(({ grantId, ...rest }) => rest),
      [{ userId: subscriber, creditKind: 'subscription_credit', amount: 10, expiresAt: null, windows: null, origin: 'subscription' }],
    );
    assert.ok(!subscribed.some((d) => d.grantId === nextDay[0]!.grantId), 'a grant of its own');
  });

  it('carries no token or secret in any event', () => {
    for (const e of seen()) assert.doesNotMatch(JSON.stringify(e.data), /whsec_|gh_|eyJ/);
  });
});
