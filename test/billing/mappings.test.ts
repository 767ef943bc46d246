// Entitlement mapping batches and subscriptions over HTTP and gRPC — create/update rows,
// window rules naming the row and field, the all-or-nothing 409 on disabling a mapping in use,
// the snapshot rule across a mapping change, and permissions.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../server/lib/clock.ts';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { api } from '../helpers/http.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';
import { type Api, createKey, createMapping, createRealm, createUser, subscribe, w, windows } from '../points/helpers.ts';

describe('entitlement mappings and subscriptions', () => {
  let srv: InProcessServer;
  let h: Api;
  const clock = new ManualClock(Date.UTC(2026, 4, 1, 12));
  before(async () => {
    srv = await startInProcess({ clock });
    h = api(srv.http, srv.adminKey);
    await createRealm(h, 'bill');
  });
  after(async () => {
    closeGrpcClients();
    await srv.stop();
  });

  const batch = (updates: object[], product = 'pro') =>
    h.put('/api/bill/bill/entitlement-mappings/batch', { paymentProvider: 'stripe', externalProductId: product, updates });
  const list = async (product = 'pro') =>
    (await h.get(`/api/bill/bill/entitlement-mappings?paymentProvider=stripe&externalProductId=${product}`)).body.mappings as any[];

  it('creates rows without mappingId and updates only the given fields of rows with one', async () => {
    const created = await batch([
      { entitlementKey: 'pro-monthly', pointsPerPeriod: 1000, grantPeriodType: 'monthly', validityDays: 31, billingPeriod: 'monthly' },
      { entitlementKey: 'pro-window', quotaWindows: [w(18000, 100), w(604800, 1000)] },
    ]);
    assert.equal(created.status, 200, created.text);
    assert.equal(created.body.saved, 2);
    const [a, b] = created.body.mappings;
    assert.equal(a.quotaWindows, null);
    assert.equal(a.enabled, true);
    assert.equal(a.grantOnSubscribe, true);
    assert.deepEqual(b.quotaWindows, [w(18000, 100), w(604800, 1000)]);
    const upd = await batch([
      { mappingId: a.mappingId, pointsPerPeriod: 1200 },
      { mappingId: b.mappingId, enabled: false },
    ]);
    assert.equal(upd.status, 200, upd.text);
    const [a2, b2] = upd.body.mappings;
    assert.deepEqual({ ...a2, updatedAt: null }, { ...a, pointsPerPeriod: 1200, updatedAt: null });
    assert.equal(b2.enabled, false);
    assert.deepEqual(b2.quotaWindows, b.quotaWindows, 'absent quotaWindows leaves them');
    const kept = await batch([{ mappingId: b.mappingId, quotaWindows: null, enabled: true }]);
    assert.deepEqual(kept.body.mappings[0].quotaWindows, b.quotaWindows, 'null quotaWindows leaves them');
    const cleared = await batch([{ mappingId: b.mappingId, quotaWindows: [] }]);
    assert.equal(cleared.body.mappings[0].quotaWindows, null, '[] clears them');
    const replaced = await batch([{ mappingId: b.mappingId, quotaWindows: [w(3600, 5)] }]);
    assert.deepEqual(replaced.body.mappings[0].quotaWindows, [w(3600, 5)]);
    const all = await list();
    assert.deepEqual(all.map((m) => m.mappingId).sort(), [a.mappingId, b.mappingId].sort());
  });

  it('answers 404 for an unknown mappingId and saves nothing of the batch', async () => {
    const before = await list();
    const r = await batch([{ entitlementKey: 'ghost-new' }, { mappingId: 'map_nope', enabled: false }]);
    assert.equal(r.status, 404);
    assert.match(r.body.message, /^updates\[1\]\.mappingId:/);
    assert.deepEqual(await list(), before);
  });

  it('requires entitlementKey on a create row and validates enumerations', async () => {
    const a = await batch([{ pointsPerPeriod: 5 }]);
    assert.equal(a.status, 400);
    assert.match(a.body.message, /^updates\[0\]\.entitlementKey:/);
    const b = await batch([{ entitlementKey: 'x', grantPeriodType: 'yearly' }]);
    assert.equal(b.status, 400);
    assert.match(b.body.message, /^updates\[0\]\.grantPeriodType:/);
    const c = await batch([{ entitlementKey: 'x', validityDays: -1 }]);
    assert.equal(c.status, 400);
    assert.match(c.body.message, /^updates\[0\]\.validityDays:/);
  });

  describe('window rules name the row and the field', () => {
    const cases: Array<[string, unknown, number, string | null]> = [
      ['0 rows', [], 200, null],
      ['1 row', windows(1), 200, null],
      ['8 rows', windows(8), 200, null],
      ['9 rows', windows(9), 400, 'updates[1].quotaWindows: at most 8'],
      ['windowSeconds 0', [w(0, 5)], 400, 'updates[1].quotaWindows[0].windowSeconds: must be > 0'],
      ['windowSeconds 1', [w(1, 5)], 200, null],
      ['limit -1', [w(60, 5), w(120, -1)], 400, 'updates[1].quotaWindows[1].limit: must be ≥ 0'],
      ['limit 0', [w(60, 0)], 200, null],
      ['non-integer windowSeconds', [{ windowSeconds: 60.5, limit: 1 }], 400, 'updates[1].quotaWindows[0].windowSeconds'],
      ['non-integer limit', [{ windowSeconds: 60, limit: 2.25 }], 400, 'updates[1].quotaWindows[0].limit'],
      ['duplicate windowSeconds', [w(60, 1), w(120, 1), w(60, 3)], 400, 'updates[1].quotaWindows[2].windowSeconds: duplicate'],
    ];
    for (const [name, quotaWindows, status, message] of cases) {
      it(`${name}: ${status}`, async () => {
        const before = await list('rules');
        const r = await batch([{ entitlementKey: 'ok-row' }, { entitlementKey: 'windowed', quotaWindows }], 'rules');
        assert.equal(r.status, status, r.text);
        if (message) {
          assert.ok(String(r.body.message).startsWith(message), r.body.message);
          assert.deepEqual(await list('rules'), before, 'nothing of the batch is saved');
        } else {
          assert.deepEqual(r.body.mappings[1].quotaWindows, (quotaWindows as unknown[]).length ? quotaWindows : null);
        }
      });
    }
    it('the same rules hold over gRPC', async () => {
      const call = (list: object[]) =>
        grpcCall(
          srv.grpc,
          'BillingService',
          'BatchUpdateEntitlementMappings',
          {
            realmId: 'bill',
            paymentProvider: 'stripe',
            externalProductId: 'rules-grpc',
            updates: [{ entitlementKey: 'a' }, { entitlementKey: 'b', quotaWindows: { windows: list } }],
          },
          srv.adminKey,
        );
      const ok8 = await call(windows(8));
      assert.ok(ok8.ok);
      assert.equal(ok8.value.mappings[1].quotaWindows.windows.length, 8);
      for (const [list, msg] of [
        [windows(9), 'updates[1].quotaWindows: at most 8'],
        [[w(0, 1)], 'updates[1].quotaWindows[0].windowSeconds: must be > 0'],
        [[w(5, -1)], 'updates[1].quotaWindows[0].limit: must be ≥ 0'],
      ] as Array<[object[], string]>) {
        const r = await call(list);
        assert.ok(!r.ok);
        assert.equal(r.error.reason, 'bad_request');
        assert.ok(r.error.message.startsWith(msg), r.error.message);
      }
    });
  });

  it('409 mapping_in_use with the count of active subscriptions, and nothing of the batch saved', async () => {
    const inUse = await createMapping(h, 'bill', { entitlementKey: 'busy', quotaWindows: [w(18000, 50)] }, 'busy');
    const other = await createMapping(h, 'bill', { entitlementKey: 'other', pointsPerPeriod: 10 }, 'busy');
    const u1 = await createUser(h, 'bill', 'busy1@example.com');
    const u2 = await createUser(h, 'bill', 'busy2@example.com');
    const u3 = await createUser(h, 'bill', 'busy3@example.com');
    const active = [await subscribe(h, 'bill', u1, inUse.mappingId), await subscribe(h, 'bill', u2, inUse.mappingId)];
    const gone = await subscribe(h, 'bill', u3, inUse.mappingId);
    assert.equal((await h.post(`/api/bill/bill/subscriptions/${gone}/cancel`, {})).status, 200);
    const before = await list('busy');
    const r = await batch(
      [
        { mappingId: other.mappingId, pointsPerPeriod: 99, entitlementKey: 'renamed' },
        { entitlementKey: 'brand-new' },
        { mappingId: inUse.mappingId, enabled: false, quotaWindows: [w(60, 1)] },
      ],
      'busy',
    );
    assert.equal(r.status, 409, r.text);
    assert.equal(r.body.error, 'mapping_in_use');
    assert.equal(r.body.mappingId, inUse.mappingId);
    assert.equal(r.body.activeSubscriptions, 2);
    assert.deepEqual(await list('busy'), before, 'every row of the batch is unchanged');
    assert.equal(before.find((m) => m.mappingId === inUse.mappingId).activeSubscriptions, 2);

    const g = await grpcCall(
      srv.grpc,
      'BillingService',
      'BatchUpdateEntitlementMappings',
      {
        realmId: 'bill',
        paymentProvider: 'stripe',
        externalProductId: 'busy',
        updates: [
          { mappingId: other.mappingId, enabled: false },
          { mappingId: inUse.mappingId, enabled: false },
        ],
      },
      srv.adminKey,
    );
    assert.ok(!g.ok);
    assert.equal(g.error.code, 9); // FAILED_PRECONDITION
    assert.equal(g.error.reason, 'mapping_in_use');
    assert.equal(g.error.metadata.mappingId, inUse.mappingId);
    assert.equal(g.error.metadata.activeSubscriptions, '2');
    assert.deepEqual(await list('busy'), before);

    // Other changes to a mapping in use are allowed, and so is disabling it once nothing is active.
    assert.equal((await batch([{ mappingId: inUse.mappingId, entitlementKey: 'busy-2' }], 'busy')).status, 200);
    for (const id of active) assert.equal((await h.post(`/api/bill/bill/subscriptions/${id}/cancel`, {})).status, 200);
    const off = await batch([{ mappingId: inUse.mappingId, enabled: false }], 'busy');
    assert.equal(off.status, 200, off.text);
    assert.equal(off.body.mappings[0].enabled, false);
    const refused = await h.post('/api/bill/bill/subscriptions', { userId: u1, mappingId: inUse.mappingId });
    assert.equal(refused.status, 409, 'a disabled mapping takes no new subscriptions');
  });

  it('a subscription keeps the windows it was granted with when the mapping changes (snapshot rule)', async () => {
    const m = await createMapping(h, 'bill', { entitlementKey: 'snap', quotaWindows: [w(18000, 100)] }, 'snap');
    const early = await createUser(h, 'bill', 'snap-early@example.com');
    const late = await createUser(h, 'bill', 'snap-late@example.com');
    await subscribe(h, 'bill', early, m.mappingId);
    assert.equal((await batch([{ mappingId: m.mappingId, quotaWindows: [w(18000, 10), w(86400, 20)] }], 'snap')).status, 200);
    const lateSub = await subscribe(h, 'bill', late, m.mappingId);
    const rows = async (u: string) =>
      ((await h.get(`/api/points/bill/users/${u}/summary`)).body.windows as any[])
        .filter((x) => x.creditKind === 'subscription_credit')
        .map((x) => [x.key, x.limit]);
    assert.deepEqual(await rows(early), [['5h', 100]]);
    assert.deepEqual(await rows(late), [
      ['5h', 10],
      ['day', 20],
    ]);
    // Cancel ends the entitlement: its window rows disappear.
    const c = await grpcCall(srv.grpc, 'BillingService', 'CancelSubscription', { realmId: 'bill', subscriptionId: lateSub }, srv.adminKey);
    assert.ok(c.ok);
    assert.equal(c.value.status, 'canceled');
    assert.deepEqual(await rows(late), []);
  });

  it('a fixed mapping grants pointsPerPeriod on subscribe; cancel ends that balance', async () => {
    const m = await createMapping(h, 'bill', { entitlementKey: 'fixed', pointsPerPeriod: 300, validityDays: 30 }, 'fixed');
    const u = await createUser(h, 'bill', 'fixed@example.com');
    const s = await grpcCall(srv.grpc, 'BillingService', 'CreateSubscription', { realmId: 'bill', userId: u, mappingId: m.mappingId }, srv.adminKey);
    assert.ok(s.ok, JSON.stringify(s));
    assert.equal(s.value.entitlement, 'fixed');
    const sum = (await h.get(`/api/points/bill/users/${u}/summary`)).body;
    assert.equal(sum.balances.subscription, 300);
    assert.deepEqual(sum.windows, []);
    await h.post(`/api/bill/bill/subscriptions/${s.value.subscriptionId}/cancel`, {});
    assert.equal((await h.get(`/api/points/bill/users/${u}/summary`)).body.balances.subscription, 0);
  });

  it('404 for an unknown user or mapping when subscribing', async () => {
    const m = (await list())[0];
    assert.equal((await h.post('/api/bill/bill/subscriptions', { userId: 'usr_nope', mappingId: m.mappingId })).status, 404);
    const u = await createUser(h, 'bill', 'nomap@example.com');
    assert.equal((await h.post('/api/bill/bill/subscriptions', { userId: u, mappingId: 'map_nope' })).status, 404);
  });

  describe('permissions', () => {
    it('billing.manage alone may change non-points fields; rows with points fields need points.manage', async () => {
      const billing = await createKey(h, 'bill', ['billing.manage']);
      const both = await createKey(h, 'bill', ['billing.manage', 'points.manage']);
      const viewer = await createKey(h, 'bill', ['points.view', 'settings.view']);
      const call = (key: string, updates: object[]) =>
        h.put('/api/bill/bill/entitlement-mappings/batch', { paymentProvider: 'stripe', externalProductId: 'perm', updates }, { key });
      assert.equal((await call(billing, [{ entitlementKey: 'plain', billingType: 'one_time' }])).status, 200);
      const denied = await call(billing, [{ entitlementKey: 'plain' }, { entitlementKey: 'pts', quotaWindows: [w(60, 1)] }]);
      assert.equal(denied.status, 403);
      assert.equal(denied.body.error, 'forbidden');
      assert.equal((await call(billing, [{ entitlementKey: 'pts', pointsPerPeriod: 5 }])).status, 403);
      assert.equal((await call(both, [{ entitlementKey: 'pts', quotaWindows: [w(60, 1)] }])).status, 200);
      assert.equal((await call(viewer, [{ entitlementKey: 'x' }])).status, 403);
      assert.equal((await h.get('/api/bill/bill/entitlement-mappings', undefined, { key: viewer })).status, 403);
      assert.equal((await h.get('/api/bill/bill/entitlement-mappings', undefined, { key: billing })).status, 200);
      const g = await grpcCall(
        srv.grpc,
        'BillingService',
        'BatchUpdateEntitlementMappings',
        {
          realmId: 'bill',
          paymentProvider: 'stripe',
          externalProductId: 'perm',
          updates: [{ entitlementKey: 'g', maxPeriods: 3 }],
        },
        billing,
      );
      assert.ok(!g.ok);
      assert.equal(g.error.reason, 'forbidden');
    });
  });
});
