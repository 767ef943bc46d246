// Over the wire: consume (HTTP and gRPC), grants, expiry at the instant, lazily
// materialised periodic grants, the summary and its exact recovery times, idempotency.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../server/lib/clock.ts';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { api } from '../helpers/http.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';
import { type Api, createKey, createMapping, createRealm, createUser, subscribe, w } from './helpers.ts';

const H = 3_600_000;
const DAY = 24 * H;
const T0 = Date.UTC(2026, 6, 6, 8); // a Monday, 08:00 UTC
const iso = (ms: number) => new Date(ms).toISOString();

describe('consume, grants and the points summary', () => {
  let srv: InProcessServer;
  let h: Api;
  const clock = new ManualClock(T0);
  before(async () => {
    srv = await startInProcess({ clock });
    h = api(srv.http, srv.adminKey);
    await createRealm(h, 'pts');
    await h.put('/api/points/pts/default-config', { registrationBonusPoints: 20 });
  });
  after(async () => {
    closeGrpcClients();
    await srv.stop();
  });

  const summary = async (u: string) => (await h.get(`/api/points/pts/users/${u}/summary`)).body;
  const consume = (body: object) => h.post('/api/points/pts/consume', body);

  it('takes window quota first, then balances by earliest expiry, never-expiring last', async () => {
    clock.set(T0);
    const u = await createUser(h, 'pts', 'order@example.com');
    const m = await createMapping(h, 'pts', { entitlementKey: 'order', quotaWindows: [w(18000, 30), w(604800, 100)] }, 'order');
    await subscribe(h, 'pts', u, m.mappingId);
    const late = await h.post(`/api/points/pts/users/${u}/grants`, { kind: 'topup_credit', amount: 10, expiresAt: iso(T0 + 10 * DAY) });
    const soon = await h.post(`/api/points/pts/users/${u}/grants`, { kind: 'granted_credit', amount: 10, expiresAt: iso(T0 + 2 * DAY) });
    clock.advance(1); // the never-expiring top-up is younger than the registration credit
    const forever = await h.post(`/api/points/pts/users/${u}/grants`, { kind: 'topup_credit', amount: 10 });
    assert.equal(late.status, 200, late.text);
    const r = await consume({ userId: u, amount: 65, description: 'chat' });
    assert.equal(r.status, 200, r.text);
    const alloc = r.body.allocations.map((a: any) => [a.creditKind, a.amount]);
    assert.deepEqual(alloc, [
      ['subscription_credit', 30],
      ['granted_credit', 10],
      ['topup_credit', 10],
      ['registration_credit', 15],
    ]);
    assert.equal(r.body.allocations[1].sourceId, soon.body.grantId);
    assert.equal(r.body.allocations[2].sourceId, late.body.grantId);
    assert.deepEqual(r.body.remaining, { quota: 0, pool: 15, total: 15 });
    assert.ok(forever.body.grantId);
    const more = await consume({ userId: u, amount: 12 });
    assert.deepEqual(
      more.body.allocations.map((a: any) => [a.sourceId, a.amount]),
      [
        [r.body.allocations[3].sourceId, 5],
        [forever.body.grantId, 7],
      ],
    );
  });

  it('409 insufficient_points with have and need, and nothing changes', async () => {
    clock.set(T0);
    const u = await createUser(h, 'pts', 'poor@example.com');
    const m = await createMapping(h, 'pts', { entitlementKey: 'poor', quotaWindows: [w(3600, 5)] }, 'poor');
    await subscribe(h, 'pts', u, m.mappingId);
    const before = await summary(u);
    assert.equal(before.total, 25);
    const r = await consume({ userId: u, amount: 26 });
    assert.equal(r.status, 409);
    assert.equal(r.body.error, 'insufficient_points');
    assert.equal(r.body.have, 25);
    assert.equal(r.body.need, 26);
    assert.deepEqual(await summary(u), before);
    const g = await grpcCall(srv.grpc, 'PointsService', 'Consume', { realmId: 'pts', userId: u, amount: 1000 }, srv.adminKey);
    assert.ok(!g.ok);
    assert.equal(g.error.code, 9);
    assert.equal(g.error.reason, 'insufficient_points');
    assert.equal(g.error.metadata.have, '25');
    assert.equal(g.error.metadata.need, '1000');
    assert.deepEqual(await summary(u), before);
    const ok = await grpcCall(srv.grpc, 'PointsService', 'Consume', { realmId: 'pts', userId: u, amount: 25 }, srv.adminKey);
    assert.ok(ok.ok);
    assert.deepEqual(ok.value.remaining, { quota: 0, pool: 0, total: 0 });
  });

  it('amount must be a positive integer; unknown user is 404', async () => {
    const u = await createUser(h, 'pts', 'amount@example.com');
    for (const amount of [0, -3]) {
      const r = await consume({ userId: u, amount });
      assert.equal(r.status, 400);
      assert.match(r.body.message, /^amount:/);
    }
    assert.equal((await consume({ userId: u, amount: 1.5 })).status, 400);
    assert.equal((await consume({ userId: 'usr_nope', amount: 1 })).status, 404);
    assert.equal((await h.get('/api/points/pts/users/usr_nope/summary')).status, 404);
    assert.equal((await h.post('/api/points/pts/users/usr_nope/grants', { kind: 'topup_credit', amount: 1 })).status, 404);
  });

  it('an idempotency key replays the first answer and deducts nothing; another body is 409', async () => {
    clock.set(T0);
    const u = await createUser(h, 'pts', 'idem@example.com');
    const first = await consume({ userId: u, amount: 7, idempotencyKey: 'order-1' });
    assert.equal(first.status, 200);
    const again = await consume({ userId: u, amount: 7, idempotencyKey: 'order-1' });
    assert.deepEqual(again.body, first.body);
    const viaGrpc = await grpcCall(srv.grpc, 'PointsService', 'Consume', { realmId: 'pts', userId: u, amount: 7, idempotencyKey: 'order-1' }, srv.adminKey);
    assert.ok(viaGrpc.ok);
    assert.equal(viaGrpc.value.transactionId, first.body.transactionId);
    assert.equal((await summary(u)).balances.registration, 13);
    const other = await consume({ userId: u, amount: 8, idempotencyKey: 'order-1' });
    assert.equal(other.status, 409);
    assert.equal(other.body.error, 'idempotency_conflict');
    const g = await grpcCall(
      srv.grpc,
      'PointsService',
      'Consume',
      { realmId: 'pts', userId: u, amount: 7, description: 'x', idempotencyKey: 'order-1' },
      srv.adminKey,
    );
    assert.ok(!g.ok);
    assert.equal(g.error.reason, 'idempotency_conflict');
    assert.equal((await summary(u)).balances.registration, 13);
    // A grant key is replayed the same way.
    const g1 = await h.post(`/api/points/pts/users/${u}/grants`, { kind: 'granted_credit', amount: 5, idempotencyKey: 'gift-1' });
    const g2 = await h.post(`/api/points/pts/users/${u}/grants`, { kind: 'granted_credit', amount: 5, idempotencyKey: 'gift-1' });
    assert.deepEqual(g2.body, g1.body);
    assert.equal((await summary(u)).balances.granted, 5);
  });

  it('window rows carry exact used, remaining, nextRecoveryAt and resetsAt, and recover at the instant', async () => {
    clock.set(T0);
    const u = await createUser(h, 'pts', 'windows@example.com');
    const m = await createMapping(h, 'pts', { entitlementKey: 'win', quotaWindows: [w(18000, 10), w(86400, 25)] }, 'win');
    await subscribe(h, 'pts', u, m.mappingId);
    await consume({ userId: u, amount: 4 });
    clock.advance(H);
    await consume({ userId: u, amount: 6 });
    const s = await summary(u);
    const [fiveH, day] = s.windows;
    assert.deepEqual(fiveH, {
      creditKind: 'subscription_credit',
      key: '5h',
      windowSeconds: 18000,
      limit: 10,
      used: 10,
      remaining: 0,
      nextRecoveryAt: iso(T0 + 5 * H),
      resetsAt: iso(T0 + 6 * H),
      isTightest: true,
      exhausted: true,
    });
    assert.deepEqual(day, {
      creditKind: 'subscription_credit',
      key: 'day',
      windowSeconds: 86400,
      limit: 25,
      used: 10,
      remaining: 15,
      nextRecoveryAt: iso(T0 + DAY),
      resetsAt: iso(T0 + H + DAY),
      isTightest: false,
      exhausted: false,
    });
    assert.equal(s.spendableFromQuota, 0, 'the tightest window exhausted means 0 even though the day has room');
    clock.set(T0 + 5 * H - 1);
    assert.equal((await summary(u)).windows[0].used, 10);
    clock.set(T0 + 5 * H);
    const back = await summary(u);
    assert.equal(back.windows[0].used, 6);
    assert.equal(back.windows[0].nextRecoveryAt, iso(T0 + 6 * H));
    assert.equal(back.spendableFromQuota, 4);
    clock.set(T0 + H + DAY);
    const all = await summary(u);
    assert.deepEqual(
      all.windows.map((x: any) => [x.used, x.nextRecoveryAt, x.resetsAt]),
      [
        [0, null, null],
        [0, null, null],
      ],
    );
    const g = await grpcCall(srv.grpc, 'PointsService', 'GetSummary', { realmId: 'pts', userId: u }, srv.adminKey);
    assert.ok(g.ok);
    assert.equal(g.value.windows.length, 2);
    assert.equal(g.value.windows[0].nextRecoveryAt, null);
  });

  it('a balance expires at the instant its expiresAt passes', async () => {
    clock.set(T0);
    const u = await createUser(h, 'pts', 'expiry@example.com');
    await h.post(`/api/points/pts/users/${u}/grants`, { kind: 'topup_credit', amount: 50, expiresAt: iso(T0 + H) });
    clock.set(T0 + H - 1);
    assert.equal((await summary(u)).balances.topup, 50);
    clock.set(T0 + H);
    assert.equal((await summary(u)).balances.topup, 0);
    const r = await consume({ userId: u, amount: 21 });
    assert.equal(r.status, 409);
    assert.equal(r.body.have, 20);
    assert.equal((await h.post(`/api/points/pts/users/${u}/grants`, { kind: 'topup_credit', amount: 1, expiresAt: iso(T0) })).status, 400);
    assert.equal((await h.post(`/api/points/pts/users/${u}/grants`, { kind: 'registration_credit', amount: 1 })).status, 400);
  });

  it('materialises free periodic grants lazily, one per period, expiring after validityDays', async () => {
    await createRealm(h, 'free');
    clock.set(T0);
    await h.put('/api/points/free/default-config', {
      freePeriodicPointsAmount: 30,
      freePeriodicGrantPeriodType: 'daily',
      freePeriodicValidityDays: 1,
      registrationBonusPoints: 5,
    });
    const u = await createUser(h, 'free', 'daily@example.com');
    const s0 = (await h.get(`/api/points/free/users/${u}/summary`)).body;
    assert.deepEqual([s0.balances.freePeriodic, s0.balances.registration], [30, 5]);
    await h.post('/api/points/free/consume', { userId: u, amount: 10 });
    clock.set(Date.UTC(2026, 6, 7) - 1);
    assert.equal((await h.get(`/api/points/free/users/${u}/summary`)).body.balances.freePeriodic, 20);
    clock.set(Date.UTC(2026, 6, 7));
    assert.equal((await h.get(`/api/points/free/users/${u}/summary`)).body.balances.freePeriodic, 30, 'yesterday’s grant expired, today’s is new');
    clock.set(Date.UTC(2026, 6, 9, 13));
    assert.equal((await h.get(`/api/points/free/users/${u}/summary`)).body.balances.freePeriodic, 30, 'missed days are not back-filled');
  });

  it('materialises a subscription’s fixed grants per period up to maxPeriods', async () => {
    clock.set(T0);
    const u = await createUser(h, 'pts', 'periods@example.com');
    const m = await createMapping(
      h,
      'pts',
      { entitlementKey: 'weekly', pointsPerPeriod: 100, grantPeriodType: 'weekly', validityDays: 0, maxPeriods: 3 },
      'weekly',
    );
    await subscribe(h, 'pts', u, m.mappingId);
    const sub = async () => (await summary(u)).balances.subscription;
    assert.equal(await sub(), 100);
    clock.set(T0 + 7 * DAY - 1);
    assert.equal(await sub(), 100);
    clock.set(T0 + 7 * DAY);
    assert.equal(await sub(), 200);
    clock.set(T0 + 40 * DAY);
    assert.equal(await sub(), 300, 'at most maxPeriods grants');
  });

  describe('permissions and the caller’s own summary', () => {
    it('consume needs points.consume, grants points.manage, summary points.view', async () => {
      const u = await createUser(h, 'pts', 'perm@example.com');
      const consumer = await createKey(h, 'pts', ['points.consume']);
      const viewer = await createKey(h, 'pts', ['points.view']);
      assert.equal((await h.post('/api/points/pts/consume', { userId: u, amount: 1 }, { key: consumer })).status, 200);
      assert.equal((await h.post('/api/points/pts/consume', { userId: u, amount: 1 }, { key: viewer })).status, 403);
      assert.equal((await h.get(`/api/points/pts/users/${u}/summary`, undefined, { key: viewer })).status, 200);
      assert.equal((await h.get(`/api/points/pts/users/${u}/summary`, undefined, { key: consumer })).status, 403);
      assert.equal((await h.post(`/api/points/pts/users/${u}/grants`, { kind: 'topup_credit', amount: 1 }, { key: viewer })).status, 403);
    });

    it('GET …/me needs the user’s own access token and answers that user’s summary', async () => {
      assert.equal((await h.get('/api/points/pts/me', undefined, { key: 'nope' })).status, 401);
      const u = await createUser(h, 'pts', 'me@example.com');
      const handler = srv.running.app.services['gatehouse.v1.PointsService'].getMySummary;
      const ctx = { principal: { kind: 'user', realmId: 'pts', userId: u, clientId: 'app', sid: 's' } } as any;
      const mine = await handler({ realmId: 'pts' }, ctx);
      assert.equal(mine.userId, u);
      assert.equal(mine.balances?.registration, 20);
    });
  });
});
