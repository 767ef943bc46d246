// The realm default points configuration over HTTP and gRPC — partial PUT, the
// null / [] / list semantics of freePeriodicQuotaWindows, the window rules at their boundaries,
// the snapshot rule and permissions.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../server/lib/clock.ts';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { api } from '../helpers/http.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';
import { withStores } from '../helpers/stores.ts';
import { type Api, createKey, createRealm, createUser, w, windows } from './helpers.ts';

describe('realm default points configuration', () => {
  let srv: InProcessServer;
  let h: Api;
  const clock = new ManualClock(Date.UTC(2026, 2, 10, 9));
  before(async () => {
    srv = await startInProcess({ clock });
    h = api(srv.http, srv.adminKey);
    await createRealm(h, 'dc');
  });
  after(async () => {
    closeGrpcClients();
    await srv.stop();
  });

  const put = (body: Record<string, unknown>) => h.put('/api/points/dc/default-config', body);

  it('returns every field, with freePeriodicQuotaWindows null, before anything is set', async () => {
    const r = await h.get('/api/points/dc/default-config');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, {
      realmId: 'dc',
      registrationBonusPoints: 0,
      freePeriodicPointsAmount: 0,
      freePeriodicGrantPeriodType: 'monthly',
      freePeriodicValidityDays: 0,
      freePeriodicQuotaWindows: null,
      updatedAt: null,
    });
  });

  it('PUT is a partial update and answers the whole configuration', async () => {
    const a = await put({ registrationBonusPoints: 100, freePeriodicGrantPeriodType: 'daily' });
    assert.equal(a.status, 200, a.text);
    const b = await put({ freePeriodicPointsAmount: 5 });
    assert.equal(b.status, 200);
    assert.equal(b.body.registrationBonusPoints, 100);
    assert.equal(b.body.freePeriodicGrantPeriodType, 'daily');
    assert.equal(b.body.freePeriodicPointsAmount, 5);
    assert.equal(b.body.freePeriodicQuotaWindows, null);
    assert.deepEqual((await h.get('/api/points/dc/default-config')).body, b.body);
  });

  it('null leaves the stored windows, [] clears them and a list replaces them (HTTP)', async () => {
    const set = await put({ freePeriodicQuotaWindows: [w(18000, 10), w(86400, 30)] });
    assert.deepEqual(set.body.freePeriodicQuotaWindows, [w(18000, 10), w(86400, 30)]);
    const kept = await put({ freePeriodicQuotaWindows: null, freePeriodicValidityDays: 2 });
    assert.deepEqual(kept.body.freePeriodicQuotaWindows, [w(18000, 10), w(86400, 30)]);
    const absent = await put({ freePeriodicValidityDays: 0 });
    assert.deepEqual(absent.body.freePeriodicQuotaWindows, [w(18000, 10), w(86400, 30)]);
    const replaced = await put({ freePeriodicQuotaWindows: [w(3600, 7)] });
    assert.deepEqual(replaced.body.freePeriodicQuotaWindows, [w(3600, 7)]);
    const cleared = await put({ freePeriodicQuotaWindows: [] });
    assert.deepEqual(cleared.body.freePeriodicQuotaWindows, []);
    assert.deepEqual((await h.get('/api/points/dc/default-config')).body.freePeriodicQuotaWindows, []);
  });

  it('unset message, empty list and list behave the same over gRPC', async () => {
    const call = (req: object) => grpcCall(srv.grpc, 'PointsService', 'PutDefaultConfig', { realmId: 'dc', ...req }, srv.adminKey);
    const set = await call({ freePeriodicQuotaWindows: { windows: [w(600, 3)] } });
    assert.ok(set.ok);
    assert.deepEqual(set.value.freePeriodicQuotaWindows.windows, [w(600, 3)]);
    const kept = await call({ registrationBonusPoints: 7 });
    assert.ok(kept.ok);
    assert.deepEqual(kept.value.freePeriodicQuotaWindows.windows, [w(600, 3)]);
    assert.equal(kept.value.registrationBonusPoints, 7);
    assert.equal(kept.value.freePeriodicPointsAmount, 5, 'unset optional fields are left untouched over gRPC too');
    assert.equal(kept.value.freePeriodicGrantPeriodType, 'daily');
    const cleared = await call({ freePeriodicQuotaWindows: { windows: [] } });
    assert.ok(cleared.ok);
    assert.deepEqual(cleared.value.freePeriodicQuotaWindows.windows, []);
    const got = await grpcCall(srv.grpc, 'PointsService', 'GetDefaultConfig', { realmId: 'dc' }, srv.adminKey);
    assert.ok(got.ok);
    assert.deepEqual(got.value.freePeriodicQuotaWindows.windows, []);
  });

  describe('window rules at their boundaries', () => {
    const cases: Array<[string, unknown, number, string | null]> = [
      ['0 rows (clears)', [], 200, null],
      ['1 row', windows(1), 200, null],
      ['8 rows', windows(8), 200, null],
      ['9 rows', windows(9), 400, 'freePeriodicQuotaWindows: at most 8'],
      ['windowSeconds 0', [w(60, 1), w(0, 1)], 400, 'freePeriodicQuotaWindows[1].windowSeconds: must be > 0'],
      ['windowSeconds 1', [w(1, 1)], 200, null],
      ['windowSeconds negative', [w(-5, 1)], 400, 'freePeriodicQuotaWindows[0].windowSeconds'],
      ['limit -1', [w(60, 1), w(120, 5), w(180, -1)], 400, 'freePeriodicQuotaWindows[2].limit: must be ≥ 0'],
      ['limit 0', [w(60, 0)], 200, null],
      ['non-integer windowSeconds', [{ windowSeconds: 1.5, limit: 1 }], 400, 'freePeriodicQuotaWindows[0].windowSeconds'],
      ['non-integer limit', [{ windowSeconds: 60, limit: 0.5 }], 400, 'freePeriodicQuotaWindows[0].limit'],
      ['non-numeric string limit', [{ windowSeconds: 60, limit: 'five' }], 400, 'freePeriodicQuotaWindows[0].limit'], // a decimal string is an integer (proto3 JSON)
      ['missing windowSeconds', [{ limit: 5 }], 400, 'freePeriodicQuotaWindows[0].windowSeconds'],
      ['duplicate windowSeconds', [w(60, 1), w(60, 2)], 400, 'freePeriodicQuotaWindows[1].windowSeconds: duplicate'],
      ['unknown field in a row', [{ windowSeconds: 60, limit: 1, extra: 1 }], 400, 'freePeriodicQuotaWindows[0].extra'],
    ];
    for (const [name, list, status, message] of cases) {
      it(`${name}: ${status}`, async () => {
        const before = (await h.get('/api/points/dc/default-config')).body;
        const r = await put({ freePeriodicQuotaWindows: list });
        assert.equal(r.status, status, r.text);
        if (message) {
          assert.equal(r.body.error, 'bad_request');
          assert.ok(String(r.body.message).startsWith(message), r.body.message);
          assert.deepEqual((await h.get('/api/points/dc/default-config')).body, before, 'a rejected PUT changes nothing');
        } else {
          assert.deepEqual(r.body.freePeriodicQuotaWindows, list);
        }
      });
    }

    it('the same rules hold over gRPC (INVALID_ARGUMENT naming the row and field)', async () => {
      const call = (list: object[]) =>
        grpcCall(srv.grpc, 'PointsService', 'PutDefaultConfig', { realmId: 'dc', freePeriodicQuotaWindows: { windows: list } }, srv.adminKey);
      for (const [list, ok, msg] of [
        [windows(8), true, ''],
        [windows(9), false, 'freePeriodicQuotaWindows: at most 8'],
        [[w(0, 1)], false, 'freePeriodicQuotaWindows[0].windowSeconds: must be > 0'],
        [[w(1, 0)], true, ''],
        [[w(60, 1), w(120, -1)], false, 'freePeriodicQuotaWindows[1].limit: must be ≥ 0'],
      ] as Array<[object[], boolean, string]>) {
        const r = await call(list);
        assert.equal(r.ok, ok, JSON.stringify(r));
        if (!r.ok) {
          assert.equal(r.error.code, 3);
          assert.equal(r.error.reason, 'bad_request');
          assert.ok(r.error.message.startsWith(msg), r.error.message);
        }
      }
    });
  });

  it('rejects a negative integer and an unknown period type, naming the field', async () => {
    const a = await put({ registrationBonusPoints: -1 });
    assert.equal(a.status, 400);
    assert.match(a.body.message, /^registrationBonusPoints:/);
    const b = await put({ freePeriodicGrantPeriodType: 'hourly' });
    assert.equal(b.status, 400);
    assert.match(b.body.message, /^freePeriodicGrantPeriodType:/);
  });

  it('404 for an unknown realm', async () => {
    const r = await h.get('/api/points/nope/default-config');
    assert.equal(r.status, 404);
  });

  it('a config change never changes a free periodic entitlement already granted (snapshot rule)', async () => {
    await createRealm(h, 'snap');
    await h.put('/api/points/snap/default-config', { freePeriodicGrantPeriodType: 'monthly', freePeriodicQuotaWindows: [w(18000, 10)] });
    const early = await createUser(h, 'snap', 'early@example.com');
    await h.put('/api/points/snap/default-config', { freePeriodicQuotaWindows: [w(18000, 25), w(86400, 40)] });
    const late = await createUser(h, 'snap', 'late@example.com');
    const e = (await h.get(`/api/points/snap/users/${early}/summary`)).body;
    const l = (await h.get(`/api/points/snap/users/${late}/summary`)).body;
    assert.deepEqual(
      e.windows.map((x: any) => [x.key, x.limit]),
      [['5h', 10]],
    );
    assert.deepEqual(
      l.windows.map((x: any) => [x.key, x.limit]),
      [
        ['5h', 25],
        ['day', 40],
      ],
    );
    // The next period's grant takes the configuration of its time.
    clock.set(Date.UTC(2026, 3, 1, 0, 0, 1));
    const next = (await h.get(`/api/points/snap/users/${early}/summary`)).body;
    assert.deepEqual(
      next.windows.map((x: any) => [x.key, x.limit]),
      [
        ['5h', 25],
        ['day', 40],
      ],
    );
    clock.set(Date.UTC(2026, 2, 10, 9));
  });

  it('a change committed by another connection is seen on the next call (the server caches the row)', async () => {
    assert.equal((await put({ registrationBonusPoints: 3 })).status, 200);
    assert.equal((await h.get('/api/points/dc/default-config')).body.registrationBonusPoints, 3); // cached now
    // Another replica's write: the PointsStore over a connection of its own.
    await withStores(srv.dbPath, (other) => other.points.putDefaultConfig('dc', { registrationBonusPoints: 42 }, clock.now()));
    await new Promise((r) => setImmediate(r)); // the next turn of the server's event loop
    assert.equal((await h.get('/api/points/dc/default-config')).body.registrationBonusPoints, 42);
  });

  describe('permissions', () => {
    it('reads need settings.view; writes need settings.manage and points.manage', async () => {
      const viewer = await createKey(h, 'dc', ['settings.view']);
      const settingsOnly = await createKey(h, 'dc', ['settings.manage', 'settings.view']);
      const manager = await createKey(h, 'dc', ['settings.manage', 'points.manage']);
      const other = await createKey(h, 'snap', ['*']);
      assert.equal((await h.get('/api/points/dc/default-config', undefined, { key: viewer })).status, 200);
      assert.equal((await h.put('/api/points/dc/default-config', { registrationBonusPoints: 1 }, { key: viewer })).status, 403);
      const s = await h.put('/api/points/dc/default-config', { registrationBonusPoints: 1 }, { key: settingsOnly });
      assert.equal(s.status, 403);
      assert.equal(s.body.error, 'forbidden');
      assert.equal((await h.put('/api/points/dc/default-config', { registrationBonusPoints: 1 }, { key: manager })).status, 200);
      assert.equal((await h.get('/api/points/dc/default-config', undefined, { key: other })).status, 403);
      const g = await grpcCall(srv.grpc, 'PointsService', 'PutDefaultConfig', { realmId: 'dc', registrationBonusPoints: 2 }, settingsOnly);
      assert.ok(!g.ok);
      assert.equal(g.error.reason, 'forbidden');
    });
  });
});
