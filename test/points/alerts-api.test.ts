// Points alerts end to end (docs/events.md): the configuration over HTTP and gRPC,
// and a webhook receiver on loopback getting points.balance_low, points.quota_exhausted and
// points.quota_recovered at the right moments. The server's clock is manual: the test moves it and
// runs the queue's rounds itself (the recovery check is a job due at the window's nextRecoveryAt).
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../server/lib/clock.ts';
import { describeEachBackend } from '../helpers/backends.ts';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { api } from '../helpers/http.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';
import { receiver } from '../helpers/webhook-receiver.ts';
import { type Api, createKey, createRealm, createUser } from './helpers.ts';

const REALM = 'alerts';
const HOUR = 3_600_000;
const ALERT_TYPES = ['points.balance_low', 'points.quota_exhausted', 'points.quota_recovered'];

describeEachBackend('points alerts', (backend) => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1));
  let server: InProcessServer;
  let admin: Api;
  let hook: Awaited<ReturnType<typeof receiver>>;
  const alerts = `/api/points/${REALM}/alerts`;

  /** The relay hands out what the last round wrote (a recovery check's event) on the next. */
  const deliver = async () => {
    await server.running.app.jobs.runOnce();
    await server.running.app.jobs.runOnce();
  };
  /** What the receiver got, in the order it happened (deliveries of one round may arrive in any). */
  const received = () =>
    hook.received
      .map((r) => JSON.parse(r.body) as { type: string; createdAt: string; data: Record<string, any> })
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));

  before(async () => {
    server = await startInProcess({ backend, clock, tuning: { jobIntervalMs: 3_600_000, sweepIntervalMs: 3_600_000 } });
    admin = api(server.http, server.adminKey);
    await createRealm(admin, REALM);
    hook = await receiver();
    const created = await admin.post(`/api/admin/realms/${REALM}/webhooks`, { url: hook.url, eventTypes: ALERT_TYPES });
    assert.equal(created.status, 200, created.text);
    const cfg = await admin.put(`/api/points/${REALM}/default-config`, {
      registrationBonusPoints: 100,
      freePeriodicPointsAmount: 0,
      freePeriodicGrantPeriodType: 'once',
      freePeriodicQuotaWindows: [{ windowSeconds: 3600, limit: 10 }],
    });
    assert.equal(cfg.status, 200, cfg.text);
  });
  after(async () => {
    closeGrpcClients();
    await hook.close();
    await server.stop();
  });

  it('answers all alerts off before any is set, then the configuration as saved', async () => {
    const first = await admin.get(alerts);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body.lowBalanceThresholds, []);
    assert.equal(first.body.quotaExhausted, false);
    const put = await admin.put(alerts, { lowBalanceThresholds: [50, 20, 50], quotaExhausted: true, quotaRecovered: true });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.body.lowBalanceThresholds, [20, 50]);
    assert.equal(put.body.updatedAt, new Date(clock.now()).toISOString());
    const read = await grpcCall(server.grpc, 'PointsService', 'GetAlerts', { realmId: REALM }, server.adminKey);
    assert.ok(read.ok);
    assert.deepEqual(read.value.lowBalanceThresholds.map(Number), [20, 50]);
    assert.equal(read.value.quotaRecovered, true);
  });

  it('refuses bad thresholds with a 400 naming the field and changes nothing', async () => {
    for (const lowBalanceThresholds of [[1, 2, 3, 4, 5, 6, 7, 8, 9], [0], [-3]]) {
      const res = await admin.put(alerts, { lowBalanceThresholds, quotaExhausted: false, quotaRecovered: false });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.error, 'bad_request');
      assert.match(res.body.field, /^lowBalanceThresholds/);
    }
    assert.deepEqual((await admin.get(alerts)).body.lowBalanceThresholds, [20, 50]);
  });

  it('needs points.manage, and 404s for an unknown realm', async () => {
    const viewer = api(server.http, await createKey(admin, REALM, ['points.view', 'points.consume']));
    assert.equal((await viewer.get(alerts)).status, 403);
    assert.equal((await viewer.put(alerts, { lowBalanceThresholds: [] })).status, 403);
    assert.equal((await admin.get('/api/points/nowhere/alerts')).status, 404);
  });

  it('sends quota_exhausted, balance_low and quota_recovered to a webhook at the right moments', async () => {
    const userId = await createUser(admin, REALM, 'alerted@example.com');
    const t0 = clock.now();
    const consume = async (amount: number) => {
      const r = await admin.post(`/api/points/${REALM}/consume`, { userId, amount });
      assert.equal(r.status, 200, r.text);
      return r.body;
    };
    // 10 of window quota and 100 registration credit: the window runs out, the total stays at 100.
    await consume(10);
    await deliver();
    assert.deepEqual(received(), [
      {
        ...received()[0]!,
        type: 'points.quota_exhausted',
        data: {
          userId,
          creditKind: 'free_periodic_credit',
          windowKey: '1h',
          windowSeconds: 3600,
          limit: 10,
          nextRecoveryAt: t0 + HOUR,
          resetsAt: t0 + HOUR,
        },
      },
    ]);
    clock.advance(1000);
    await consume(55); // 100 → 45: below 50, not below 20
    await consume(1); // 45 → 44: the 50 alert is not armed again
    await deliver();
    assert.deepEqual(
      received()
        .slice(1)
        .map((e) => [e.type, e.data]),
      [['points.balance_low', { userId, threshold: 50, total: 44 + 1 }]],
    );
    // One millisecond before the window recovers: nothing; at it: the recovery, at its exact instant.
    clock.set(t0 + HOUR - 1);
    await deliver();
    assert.equal(received().length, 2);
    clock.set(t0 + HOUR + 2000);
    await deliver();
    assert.deepEqual(
      received()
        .slice(2)
        .map((e) => [e.type, e.data]),
      [['points.quota_recovered', { userId, creditKind: 'free_periodic_credit', windowKey: '1h', remaining: 10, at: t0 + HOUR }]],
    );
    await deliver();
    assert.equal(received().length, 3, 'once per exhaustion');

    // Exhausted again, then a refund gives the quota back first: recovered at the refund, and the
    // check due at nextRecoveryAt reports nothing more.
    const spent = await consume(10);
    clock.advance(5000);
    const refund = await admin.post(`/api/points/${REALM}/transactions/${spent.transactionId}/refund`, { amount: 4 });
    assert.equal(refund.status, 200, refund.text);
    await deliver();
    const t1 = clock.now();
    assert.deepEqual(
      received()
        .slice(3)
        .map((e) => [e.type, e.data.at ?? e.data.nextRecoveryAt]),
      [
        ['points.quota_exhausted', t0 + HOUR + 2000 + HOUR],
        ['points.quota_recovered', t1],
      ],
    );
    clock.set(t0 + 3 * HOUR);
    await deliver();
    assert.equal(received().length, 5);
  });

  // A hold that takes the whole window of a new user exhausts it, recovering an hour on; closing
  // the hold early gives back what it does not keep.
  for (const close of [
    { at: 'the release of a hold that exhausted the window', email: 'released@example.com', action: 'release', body: {}, remaining: 10 },
    { at: 'a settlement below the held amount that gives quota back', email: 'settled@example.com', action: 'settle', body: { amount: 6 }, remaining: 4 },
  ]) {
    it(`sends quota_recovered at ${close.at}, once, and the check at nextRecoveryAt sends nothing more`, async () => {
      const userId = await createUser(admin, REALM, close.email);
      const opened = await admin.post(`/api/points/${REALM}/holds`, { userId, amount: 10 });
      assert.equal(opened.status, 200, opened.text);
      assert.equal(opened.body.remaining.quota, 0);
      const heldAt = clock.now();
      await deliver();
      const events = () => received().filter((e) => e.data.userId === userId);
      assert.deepEqual(
        events().map((e) => [e.type, e.data.nextRecoveryAt]),
        [['points.quota_exhausted', heldAt + HOUR]],
      );
      clock.advance(5000);
      const closed = await admin.post(`/api/points/${REALM}/holds/${opened.body.holdId}/${close.action}`, close.body);
      assert.equal(closed.status, 200, closed.text);
      await deliver();
      assert.deepEqual(
        events()
          .slice(1)
          .map((e) => [e.type, e.data]),
        [['points.quota_recovered', { userId, creditKind: 'free_periodic_credit', windowKey: '1h', remaining: close.remaining, at: heldAt + 5000 }]],
      );
      clock.set(heldAt + HOUR + 2000);
      await deliver();
      assert.equal(events().length, 2, 'once per exhaustion');
    });
  }

  it('records each put in the audit log as points_alerts.update, with the calling key, the request and each changed field, and a refused put not at all', async () => {
    const adminKeyId = (await admin.get('/api/admin/whoami')).body.keyId;
    const put = await admin.put(alerts, { lowBalanceThresholds: [20], quotaExhausted: true, quotaRecovered: false });
    assert.equal(put.status, 200, put.text);
    const res = await admin.get(`/api/admin/realms/${REALM}/audit?action=points_alerts.update`);
    assert.equal(res.status, 200, res.text);
    const [last, first, ...rest] = res.body.records as Array<Record<string, any>>;
    assert.deepEqual(rest, [], 'one record per accepted put: the refused ones (400) wrote none');
    assert.deepEqual(JSON.parse(first!.changesJson), {
      lowBalanceThresholds: { before: [], after: [20, 50] },
      quotaExhausted: { before: false, after: true },
      quotaRecovered: { before: false, after: true },
    });
    assert.equal(last!.targetId, REALM);
    assert.equal(last!.realmId, REALM);
    assert.deepEqual(last!.actor, { type: 'api_key', id: adminKeyId });
    assert.equal(last!.requestId, put.headers.get('x-request-id'));
    assert.equal(last!.at, new Date(clock.now()).toISOString());
    assert.deepEqual(JSON.parse(last!.changesJson), {
      lowBalanceThresholds: { before: [20, 50], after: [20] },
      quotaRecovered: { before: true, after: false },
    });
  });
});
