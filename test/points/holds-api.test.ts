// Over the wire: holds (HTTP and gRPC) — opened like a consume, settled below, at or above the held
// amount, released, released by themselves at expiresAt without any sweep, the 409s of closed and
// expired holds, idempotent replays, every bad input naming its field, and who may call.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../server/lib/clock.ts';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { api } from '../helpers/http.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';
import { type Api, createKey, createMapping, createRealm, createUser, subscribe, w } from './helpers.ts';

const S = 1000;
const H = 3_600_000;
const T0 = Date.UTC(2026, 6, 6, 8); // a Monday, 08:00 UTC
const iso = (ms: number) => new Date(ms).toISOString();
const REALM = 'hold';

describe('holds', () => {
  let srv: InProcessServer;
  let h: Api;
  const clock = new ManualClock(T0);
  let users = 0;
  before(async () => {
    srv = await startInProcess({ clock });
    h = api(srv.http, srv.adminKey);
    await createRealm(h, REALM);
    assert.equal((await h.put(`/api/points/${REALM}/default-config`, { registrationBonusPoints: 0 })).status, 200);
  });
  after(async () => {
    closeGrpcClients();
    await srv.stop();
  });

  /** A new user with a subscription of these windows (if any) and a never-expiring top-up. */
  async function user(opts: { windows?: Array<{ windowSeconds: number; limit: number }>; topup?: number } = {}): Promise<string> {
    const n = ++users;
    const u = await createUser(h, REALM, `holder-${n}@example.com`);
    if (opts.windows) {
      const m = await createMapping(h, REALM, { entitlementKey: `plan-${n}`, quotaWindows: opts.windows }, `plan-${n}`);
      await subscribe(h, REALM, u, m.mappingId);
    }
    if (opts.topup) assert.equal((await h.post(`/api/points/${REALM}/users/${u}/grants`, { kind: 'topup_credit', amount: opts.topup })).status, 200);
    return u;
  }
  const summary = async (u: string) => {
    const r = await h.get(`/api/points/${REALM}/users/${u}/summary`);
    assert.equal(r.status, 200, r.text);
    return r.body;
  };
  const hold = (body: object, key?: string) => h.post(`/api/points/${REALM}/holds`, body, { key });
  const settle = (id: string, body: object, key?: string) => h.post(`/api/points/${REALM}/holds/${id}/settle`, body, { key });
  const release = (id: string, body: object = {}, key?: string) => h.post(`/api/points/${REALM}/holds/${id}/release`, body, { key });
  const getHold = (id: string, key?: string) => h.get(`/api/points/${REALM}/holds/${id}`, undefined, { key });
  const lines = (allocations: any[]) => allocations.map((a) => [a.creditKind, a.amount]);
  async function open(body: object) {
    const r = await hold(body);
    assert.equal(r.status, 200, r.text);
    return r.body;
  }
  const refusal = (r: { status: number; body: any }, status: number, error: string) => {
    assert.equal(r.status, status, JSON.stringify(r.body));
    assert.equal(r.body.error, error);
  };

  it('opens like a consume, quota first: held points leave the balances and the total and count as used in every window', async () => {
    clock.set(T0);
    const u = await user({ windows: [w(18000, 30), w(604800, 100)], topup: 50 });
    const r = await hold({ userId: u, amount: 40, description: 'render' });
    assert.equal(r.status, 200, r.text);
    assert.match(r.body.holdId, /^hld_/);
    assert.equal(r.body.userId, u);
    assert.equal(r.body.amount, 40);
    assert.deepEqual(lines(r.body.allocations), [
      ['subscription_credit', 30],
      ['topup_credit', 10],
    ]);
    assert.equal(r.body.status, 'open');
    assert.equal(r.body.description, 'render');
    assert.equal(r.body.createdAt, iso(T0));
    assert.equal(r.body.expiresAt, iso(T0 + 600 * S), 'ttlSeconds defaults to 600');
    assert.equal(r.body.closedAt, null);
    assert.ok(!('settledAmount' in r.body), 'no settled amount while open');
    assert.deepEqual(r.body.remaining, { quota: 0, pool: 40, total: 40 });

    const s = await summary(u);
    assert.equal(s.held, 40);
    assert.deepEqual(s.holds, [{ holdId: r.body.holdId, amount: 40, expiresAt: iso(T0 + 600 * S) }]);
    assert.equal(s.balances.topup, 40);
    assert.deepEqual([s.spendableFromQuota, s.spendableFromPool, s.total], [0, 40, 40]);
    assert.deepEqual(
      s.windows.map((x: any) => [x.key, x.used, x.remaining, x.nextRecoveryAt]),
      [
        ['5h', 30, 0, iso(T0 + 5 * H)],
        ['week', 30, 70, iso(T0 + 168 * H)],
      ],
    );
    const got = await getHold(r.body.holdId);
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.body, r.body);

    clock.advance(S);
    const second = await open({ userId: u, amount: 5, ttlSeconds: 30 });
    assert.equal(second.expiresAt, iso(T0 + S + 30 * S));
    assert.ok(!('description' in second), 'no description when none was given');
    const both = await summary(u);
    assert.deepEqual([both.held, both.holdCount], [45, 2]);
    assert.deepEqual(
      both.holds.map((x: any) => x.holdId),
      [second.holdId, r.body.holdId],
      'soonest to expire first',
    );
  });

  it('refuses a hold the user cannot cover with 409 insufficient_points, holding nothing', async () => {
    clock.set(T0);
    const u = await user({ windows: [w(18000, 30)], topup: 5 });
    const before = await summary(u);
    const r = await hold({ userId: u, amount: 36 });
    refusal(r, 409, 'insufficient_points');
    assert.deepEqual([r.body.have, r.body.need], [35, 36]);
    assert.deepEqual(await summary(u), before);
  });

  it('settles below the held amount: the difference goes back last-drawn first, and the window answers as if only the settled amount was consumed at the hold’s time', async () => {
    clock.set(T0);
    const u = await user({ windows: [w(18000, 30)], topup: 50 });
    const held = await open({ userId: u, amount: 40, description: 'render', ttlSeconds: 7200 });
    assert.deepEqual(lines(held.allocations), [
      ['subscription_credit', 30],
      ['topup_credit', 10],
    ]);
    clock.advance(H);
    const r = await settle(held.holdId, { amount: 25, description: 'render done' });
    assert.equal(r.status, 200, r.text);
    assert.match(r.body.transactionId, /^ptx_/);
    assert.equal(r.body.holdId, held.holdId);
    assert.equal(r.body.userId, u);
    assert.equal(r.body.amount, 25);
    assert.deepEqual(lines(r.body.allocations), [['subscription_credit', 25]], 'the top-up went back first, then 5 of quota');
    assert.deepEqual(r.body.remaining, { quota: 5, pool: 50, total: 55 });
    assert.equal(r.body.createdAt, iso(T0 + H));

    const s = await summary(u);
    assert.deepEqual([s.held, s.holds, s.balances.topup, s.total], [0, [], 50, 55]);
    const [fiveH] = s.windows;
    assert.deepEqual(
      [fiveH.used, fiveH.remaining, fiveH.nextRecoveryAt, fiveH.resetsAt],
      [25, 5, iso(T0 + 5 * H), iso(T0 + 5 * H)],
      'used equals the settled amount, recorded at the hold’s time',
    );

    const got = (await getHold(held.holdId)).body;
    assert.deepEqual(
      [got.status, got.settledAmount, got.closedAt, got.amount, lines(got.allocations)],
      [
        'settled',
        25,
        iso(T0 + H),
        40,
        [
          ['subscription_credit', 30],
          ['topup_credit', 10],
        ],
      ],
    );

    // Settling 0 gives all of it back.
    const before = await summary(u);
    const zero = await open({ userId: u, amount: 10 });
    const none = await settle(zero.holdId, { amount: 0 });
    assert.equal(none.status, 200, none.text);
    assert.deepEqual([none.body.amount, none.body.allocations], [0, []]);
    assert.deepEqual(await summary(u), before);
  });

  it('settles the held amount exactly: every held line stays charged', async () => {
    clock.set(T0);
    const u = await user({ windows: [w(18000, 30)], topup: 50 });
    const held = await open({ userId: u, amount: 35, ttlSeconds: 7200 });
    clock.advance(H);
    const r = await settle(held.holdId, { amount: 35 });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.allocations, held.allocations);
    const s = await summary(u);
    assert.deepEqual([s.held, s.balances.topup, s.windows[0].used, s.windows[0].nextRecoveryAt], [0, 45, 30, iso(T0 + 5 * H)]);
  });

  it('settles above the held amount: the extra is consumed at settle time like a consume', async () => {
    clock.set(T0);
    const u = await user({ windows: [w(18000, 30)], topup: 50 });
    const held = await open({ userId: u, amount: 20, ttlSeconds: 7200 });
    clock.advance(H);
    const r = await settle(held.holdId, { amount: 35 });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(lines(r.body.allocations), [
      ['subscription_credit', 20],
      ['subscription_credit', 10],
      ['topup_credit', 5],
    ]);
    assert.deepEqual(r.body.remaining, { quota: 0, pool: 45, total: 45 });
    const s = await summary(u);
    const [fiveH] = s.windows;
    assert.deepEqual([fiveH.used, fiveH.nextRecoveryAt, fiveH.resetsAt], [30, iso(T0 + 5 * H), iso(T0 + H + 5 * H)]);
    assert.deepEqual([s.held, s.balances.topup], [0, 45]);
  });

  it('refuses an extra that cannot be covered with 409 insufficient_points (have and need of the extra); the hold stays open and unchanged', async () => {
    clock.set(T0);
    const u = await user({ windows: [w(18000, 30)], topup: 5 });
    const held = await open({ userId: u, amount: 20 });
    const before = await summary(u);
    const holdBefore = (await getHold(held.holdId)).body;
    const r = await settle(held.holdId, { amount: 100 });
    refusal(r, 409, 'insufficient_points');
    assert.deepEqual([r.body.have, r.body.need], [15, 80]);
    const g = await grpcCall(srv.grpc, 'PointsService', 'SettleHold', { realmId: REALM, holdId: held.holdId, amount: 50 }, srv.adminKey);
    assert.ok(!g.ok);
    assert.equal(g.error.code, 9);
    assert.equal(g.error.reason, 'insufficient_points');
    assert.deepEqual([g.error.metadata.have, g.error.metadata.need], ['15', '30']);
    assert.deepEqual(await summary(u), before);
    assert.deepEqual((await getHold(held.holdId)).body, holdBefore);
    assert.equal(holdBefore.status, 'open');
    // Exactly what is left is still covered.
    const ok = await settle(held.holdId, { amount: 35 });
    assert.equal(ok.status, 200, ok.text);
    assert.equal((await summary(u)).total, 0);
  });

  it('releases all of a hold; a settled or released hold is closed to settle and release (409 hold_closed)', async () => {
    clock.set(T0);
    const u = await user({ windows: [w(18000, 30)], topup: 50 });
    const before = await summary(u);
    const held = await open({ userId: u, amount: 40 });
    clock.advance(60 * S);
    const r = await release(held.holdId);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      [r.body.holdId, r.body.status, r.body.closedAt, r.body.amount, 'settledAmount' in r.body],
      [held.holdId, 'released', iso(T0 + 60 * S), 40, false],
    );
    assert.deepEqual(r.body.allocations, held.allocations);
    assert.deepEqual(r.body.remaining, { quota: 30, pool: 50, total: 80 });
    assert.deepEqual(await summary(u), before, 'everything went back, the window as if nothing was used');
    assert.equal((await getHold(held.holdId)).body.status, 'released');
    refusal(await release(held.holdId), 409, 'hold_closed');
    refusal(await settle(held.holdId, { amount: 1 }), 409, 'hold_closed');

    const settled = await open({ userId: u, amount: 3 });
    assert.equal((await settle(settled.holdId, { amount: 3 })).status, 200);
    refusal(await release(settled.holdId), 409, 'hold_closed');
    refusal(await settle(settled.holdId, { amount: 3 }), 409, 'hold_closed');
    assert.equal((await summary(u)).total, 77);
  });

  it('releases a hold by itself at expiresAt: listings and summaries show it without any sweep, and settle or release are 409 hold_expired', async () => {
    clock.set(T0);
    const u = await user({ windows: [w(18000, 30)] });
    const held = await open({ userId: u, amount: 10, ttlSeconds: 60 });
    assert.equal(held.expiresAt, iso(T0 + 60 * S));
    clock.set(T0 + 60 * S - 1);
    assert.equal((await summary(u)).held, 10);
    clock.set(T0 + 60 * S);
    // The first call after expiresAt is the listing itself.
    const list = await h.get(`/api/points/${REALM}/users/${u}/transactions`);
    assert.equal(list.status, 200, list.text);
    const [newest, opened] = list.body.transactions;
    assert.deepEqual(
      [newest.kind, newest.amount, newest.relatedId, newest.createdAt, lines(newest.allocations)],
      ['expire', 10, held.holdId, iso(T0 + 60 * S), [['subscription_credit', 10]]],
    );
    assert.deepEqual([opened.kind, opened.transactionId], ['hold', held.holdId]);
    const got = (await getHold(held.holdId)).body;
    assert.deepEqual([got.status, got.closedAt], ['expired', iso(T0 + 60 * S)]);
    const s = await summary(u);
    assert.deepEqual([s.held, s.holds, s.windows[0].used, s.windows[0].nextRecoveryAt], [0, [], 0, null]);
    refusal(await settle(held.holdId, { amount: 10 }), 409, 'hold_expired');
    refusal(await release(held.holdId), 409, 'hold_expired');

    // Another hold whose first call after expiresAt is a settle.
    const other = await open({ userId: u, amount: 4, ttlSeconds: 1 });
    clock.advance(S);
    const late = await settle(other.holdId, { amount: 4 });
    refusal(late, 409, 'hold_expired');
    assert.equal(late.body.holdId, other.holdId);
    const g = await grpcCall(srv.grpc, 'PointsService', 'ReleaseHold', { realmId: REALM, holdId: other.holdId }, srv.adminKey);
    assert.ok(!g.ok);
    assert.deepEqual([g.error.code, g.error.reason], [9, 'hold_expired']);
    assert.equal((await summary(u)).spendableFromQuota, 30);
  });

  it('replays the first answer for the same idempotency key and body, holding, settling or releasing nothing more; another body is 409 idempotency_conflict', async () => {
    clock.set(T0);
    const u = await user({ topup: 100 });
    const first = await hold({ userId: u, amount: 10, idempotencyKey: 'job-1' });
    assert.equal(first.status, 200, first.text);
    clock.advance(S);
    const again = await hold({ userId: u, amount: 10, idempotencyKey: 'job-1' });
    assert.deepEqual(again.body, first.body);
    assert.equal((await summary(u)).held, 10);
    refusal(await hold({ userId: u, amount: 11, idempotencyKey: 'job-1' }), 409, 'idempotency_conflict');
    refusal(await hold({ userId: u, amount: 10, ttlSeconds: 30, idempotencyKey: 'job-1' }), 409, 'idempotency_conflict');

    const settled = await settle(first.body.holdId, { amount: 4, idempotencyKey: 'job-1-done' });
    assert.equal(settled.status, 200, settled.text);
    clock.advance(S);
    const replay = await settle(first.body.holdId, { amount: 4, idempotencyKey: 'job-1-done' });
    assert.deepEqual(replay.body, settled.body, 'a replay answers even though the hold is closed now');
    const viaGrpc = await grpcCall(
      srv.grpc,
      'PointsService',
      'SettleHold',
      { realmId: REALM, holdId: first.body.holdId, amount: 4, idempotencyKey: 'job-1-done' },
      srv.adminKey,
    );
    assert.ok(viaGrpc.ok);
    assert.equal(viaGrpc.value.transactionId, settled.body.transactionId);
    refusal(await settle(first.body.holdId, { amount: 5, idempotencyKey: 'job-1-done' }), 409, 'idempotency_conflict');
    refusal(await settle(first.body.holdId, { amount: 4 }), 409, 'hold_closed');
    assert.equal((await summary(u)).balances.topup, 96);

    const second = await open({ userId: u, amount: 7 });
    const released = await release(second.holdId, { idempotencyKey: 'job-2-cancel' });
    assert.equal(released.status, 200, released.text);
    clock.advance(S);
    assert.deepEqual((await release(second.holdId, { idempotencyKey: 'job-2-cancel' })).body, released.body);
    const third = await open({ userId: u, amount: 2 });
    refusal(await release(third.holdId, { idempotencyKey: 'job-2-cancel' }), 409, 'idempotency_conflict');
    assert.deepEqual([(await summary(u)).balances.topup, (await summary(u)).held], [94, 2]);
  });

  it('answers 404 for an unknown user or hold, and for a hold of another realm', async () => {
    const u = await user({ topup: 10 });
    refusal(await hold({ userId: 'usr_nope', amount: 1 }), 404, 'not_found');
    refusal(await settle('hld_nope', { amount: 1 }), 404, 'not_found');
    refusal(await release('hld_nope'), 404, 'not_found');
    refusal(await getHold('hld_nope'), 404, 'not_found');
    const held = await open({ userId: u, amount: 1 });
    await createRealm(h, 'hold-other');
    refusal(await h.get(`/api/points/hold-other/holds/${held.holdId}`), 404, 'not_found');
    refusal(await h.post(`/api/points/hold-other/holds/${held.holdId}/settle`, { amount: 1 }), 404, 'not_found');
    refusal(await h.post(`/api/points/hold-other/holds/${held.holdId}/release`, {}), 404, 'not_found');
    assert.equal((await getHold(held.holdId)).body.status, 'open');
  });

  describe('refuses bad input with a 400 naming the field', () => {
    const long = (n: number) => 'x'.repeat(n);
    let u = '';
    let holdId = '';
    before(async () => {
      u = await user({ topup: 100 });
      holdId = (await open({ userId: u, amount: 5 })).holdId;
    });

    const holdCases: Array<[string, Record<string, unknown>, string]> = [
      ['a zero amount', { amount: 0 }, 'amount'],
      ['a negative amount', { amount: -1 }, 'amount'],
      ['a fractional amount', { amount: 1.5 }, 'amount'],
      ['no amount', { amount: undefined }, 'amount'],
      ['no userId', { userId: undefined }, 'userId'],
      ['a zero ttlSeconds', { ttlSeconds: 0 }, 'ttlSeconds'],
      ['a ttlSeconds over a day', { ttlSeconds: 86_401 }, 'ttlSeconds'],
      ['a fractional ttlSeconds', { ttlSeconds: 2.5 }, 'ttlSeconds'],
      ['a description over 500 characters', { description: long(501) }, 'description'],
      ['an empty idempotencyKey', { idempotencyKey: '' }, 'idempotencyKey'],
      ['an idempotencyKey over 200 characters', { idempotencyKey: long(201) }, 'idempotencyKey'],
      ['an unknown field', { holdSeconds: 3 }, 'holdSeconds'],
    ];
    for (const [what, patch, field] of holdCases) {
      it(`hold: ${what}`, async () => {
        const r = await hold({ userId: u, amount: 5, ...patch });
        refusal(r, 400, 'bad_request');
        assert.equal(r.body.field, field, r.text);
      });
    }
    it('hold: the longest ttlSeconds and description and idempotencyKey are accepted', async () => {
      const r = await hold({ userId: u, amount: 1, ttlSeconds: 86_400, description: long(500), idempotencyKey: long(200) });
      assert.equal(r.status, 200, r.text);
      assert.equal(Date.parse(r.body.expiresAt) - Date.parse(r.body.createdAt), 86_400 * S);
    });

    const settleCases: Array<[string, Record<string, unknown>, string]> = [
      ['no amount', {}, 'amount'],
      ['a negative amount', { amount: -1 }, 'amount'],
      ['a fractional amount', { amount: 0.5 }, 'amount'],
      ['an amount as a word', { amount: 'five' }, 'amount'],
      ['a description over 500 characters', { amount: 1, description: long(501) }, 'description'],
      ['an empty idempotencyKey', { amount: 1, idempotencyKey: '' }, 'idempotencyKey'],
    ];
    for (const [what, body, field] of settleCases) {
      it(`settle: ${what}`, async () => {
        const r = await settle(holdId, body);
        refusal(r, 400, 'bad_request');
        assert.equal(r.body.field, field, r.text);
      });
    }
    it('release: an empty idempotencyKey or an unknown field', async () => {
      for (const [body, field] of [
        [{ idempotencyKey: '' }, 'idempotencyKey'],
        [{ amount: 1 }, 'amount'],
      ] as const) {
        const r = await release(holdId, body);
        refusal(r, 400, 'bad_request');
        assert.equal(r.body.field, field);
      }
      assert.equal((await getHold(holdId)).body.status, 'open', 'nothing was settled or released');
    });
    it('over gRPC too', async () => {
      const g = await grpcCall(srv.grpc, 'PointsService', 'CreateHold', { realmId: REALM, userId: u, amount: 5, ttlSeconds: 0 }, srv.adminKey);
      assert.ok(!g.ok);
      assert.deepEqual([g.error.code, g.error.reason, g.error.metadata.field], [3, 'bad_request', 'ttlSeconds']);
      const s = await grpcCall(srv.grpc, 'PointsService', 'SettleHold', { realmId: REALM, holdId }, srv.adminKey);
      assert.ok(!s.ok);
      assert.deepEqual([s.error.code, s.error.metadata.field], [3, 'amount']);
    });
  });

  it('lets a points.consume key hold, settle and release, a points.view key only read, and no key of another realm', async () => {
    const u = await user({ topup: 100 });
    const consumer = await createKey(h, REALM, ['points.consume']);
    const viewer = await createKey(h, REALM, ['points.view']);
    await createRealm(h, 'hold-elsewhere');
    const elsewhere = await createKey(h, 'hold-elsewhere', ['*']);

    const a = await hold({ userId: u, amount: 5 }, consumer);
    assert.equal(a.status, 200, a.text);
    assert.equal((await settle(a.body.holdId, { amount: 2 }, consumer)).status, 200);
    const b = await hold({ userId: u, amount: 5 }, consumer);
    assert.equal((await release(b.body.holdId, {}, consumer)).status, 200);
    refusal(await getHold(a.body.holdId, consumer), 403, 'forbidden');

    const c = await open({ userId: u, amount: 5 });
    refusal(await hold({ userId: u, amount: 5 }, viewer), 403, 'forbidden');
    refusal(await settle(c.holdId, { amount: 1 }, viewer), 403, 'forbidden');
    refusal(await release(c.holdId, {}, viewer), 403, 'forbidden');
    assert.equal((await getHold(c.holdId, viewer)).status, 200);

    refusal(await hold({ userId: u, amount: 5 }, elsewhere), 403, 'forbidden');
    refusal(await settle(c.holdId, { amount: 1 }, elsewhere), 403, 'forbidden');
    refusal(await getHold(c.holdId, elsewhere), 403, 'forbidden');
    assert.equal((await hold({ userId: u, amount: 5 }, 'gh_not_a_key')).status, 401);
    const s = await summary(u);
    assert.deepEqual([s.held, s.total], [5, 93]);
  });

  it('over gRPC: opens, reads, settles and releases with the same answers as HTTP', async () => {
    clock.set(T0);
    const u = await user({ windows: [w(18000, 30)], topup: 50 });
    const call = (method: string, req: object) => grpcCall(srv.grpc, 'PointsService', method, { realmId: REALM, ...req }, srv.adminKey);
    const opened = await call('CreateHold', { userId: u, amount: 40, ttlSeconds: 120, description: 'job' });
    assert.ok(opened.ok, JSON.stringify(opened));
    const v = opened.value;
    assert.equal(v.status, 'open');
    assert.deepEqual(lines(v.allocations), [
      ['subscription_credit', 30],
      ['topup_credit', 10],
    ]);
    assert.deepEqual(v.expiresAt, { seconds: (T0 + 120 * S) / 1000, nanos: 0 });
    assert.equal(v.closedAt, null);
    assert.equal(v.settledAmount, undefined);
    assert.deepEqual(v.remaining, { quota: 0, pool: 40, total: 40 });
    const viaHttp = (await getHold(v.holdId)).body;
    assert.deepEqual([viaHttp.status, viaHttp.amount, viaHttp.expiresAt], ['open', 40, iso(T0 + 120 * S)]);
    const read = await call('GetHold', { holdId: v.holdId });
    assert.ok(read.ok);
    assert.deepEqual(read.value, v);
    const s = await grpcCall(srv.grpc, 'PointsService', 'GetSummary', { realmId: REALM, userId: u }, srv.adminKey);
    assert.ok(s.ok);
    assert.equal(s.value.held, 40);
    assert.deepEqual(s.value.holds, [{ holdId: v.holdId, amount: 40, expiresAt: { seconds: (T0 + 120 * S) / 1000, nanos: 0 } }]);

    clock.advance(S);
    const done = await call('SettleHold', { holdId: v.holdId, amount: 12 });
    assert.ok(done.ok);
    assert.deepEqual([done.value.amount, lines(done.value.allocations)], [12, [['subscription_credit', 12]]]);
    const closed = await call('SettleHold', { holdId: v.holdId, amount: 12 });
    assert.ok(!closed.ok);
    assert.deepEqual([closed.error.code, closed.error.reason], [9, 'hold_closed']);
    const after = await call('GetHold', { holdId: v.holdId });
    assert.ok(after.ok);
    assert.deepEqual([after.value.status, after.value.settledAmount], ['settled', 12]);

    const other = await call('CreateHold', { userId: u, amount: 3 });
    assert.ok(other.ok);
    const released = await call('ReleaseHold', { holdId: other.value.holdId });
    assert.ok(released.ok);
    assert.equal(released.value.status, 'released');
    const denied = await grpcCall(srv.grpc, 'PointsService', 'CreateHold', { realmId: REALM, userId: u, amount: 1 });
    assert.ok(!denied.ok);
    assert.equal(denied.error.code, 16);
  });

  it('keeps at most 1 000 holds open per user: the next is 409 too_many_holds and changes nothing, and the summary counts them all but lists the 20 soonest to expire', async () => {
    clock.set(T0);
    const u = await user({ topup: 5000 });
    // 999 holds of an hour, then one of a minute: the soonest to expire, though the newest.
    for (let i = 0; i < 999; i += 37) {
      const n = Math.min(37, 999 - i);
      const opened = await Promise.all(Array.from({ length: n }, () => hold({ userId: u, amount: 2, ttlSeconds: 3600 })));
      for (const r of opened) assert.equal(r.status, 200, r.text);
    }
    const soonest = await open({ userId: u, amount: 1, ttlSeconds: 60 });
    const full = await summary(u);
    assert.deepEqual([full.holdCount, full.held, full.total, full.holds.length], [1000, 1999, 5000 - 1999, 20]);
    assert.deepEqual(full.holds[0], { holdId: soonest.holdId, amount: 1, expiresAt: iso(T0 + 60 * S) });
    for (const [i, x] of full.holds.entries()) if (i > 0) assert.ok(x.expiresAt >= full.holds[i - 1].expiresAt && x.holdId !== soonest.holdId);
    const history = async () => (await h.get(`/api/points/${REALM}/users/${u}/transactions?pageSize=1`)).body.transactions[0].transactionId;
    const newest = await history();

    const refused = await hold({ userId: u, amount: 5, idempotencyKey: 'too-many-1' });
    refusal(refused, 409, 'too_many_holds');
    assert.deepEqual([refused.body.status, refused.body.limit, typeof refused.body.message, typeof refused.body.requestId], [409, 1000, 'string', 'string']);
    const g = await grpcCall(srv.grpc, 'PointsService', 'CreateHold', { realmId: REALM, userId: u, amount: 5 }, srv.adminKey);
    assert.ok(!g.ok);
    assert.deepEqual([g.error.code, g.error.reason], [9, 'too_many_holds']);
    // Nothing changed: the same holds, points and history; the key was not taken by the refusal.
    assert.deepEqual(await summary(u), full);
    assert.equal(await history(), newest);

    // A hold past its expiresAt counts no more: its place is free without any sweep.
    clock.set(T0 + 60 * S);
    const again = await hold({ userId: u, amount: 5, idempotencyKey: 'too-many-1' });
    assert.equal(again.status, 200, again.text);
    refusal(await hold({ userId: u, amount: 5 }), 409, 'too_many_holds');
    // So does a released one.
    assert.equal((await release(again.body.holdId)).status, 200);
    assert.equal((await hold({ userId: u, amount: 5 })).status, 200);
    const after = await summary(u);
    assert.deepEqual([after.holdCount, after.held, after.holds.length], [1000, 1998 + 5, 20]);
  });

  it('counts hold and settle outcomes at /metrics', async () => {
    const metric = async (name: string, outcome: string) => {
      const text = (await h.get('/metrics')).text;
      const m = new RegExp(`^${name}\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(text);
      assert.ok(m, `${name}{outcome="${outcome}"} is missing`);
      return Number(m[1]);
    };
    const series = [
      ['gatehouse_points_holds_total', 'ok'],
      ['gatehouse_points_holds_total', 'idempotent_replay'],
      ['gatehouse_points_holds_total', 'insufficient_points'],
      ['gatehouse_points_holds_total', 'too_many_holds'],
      ['gatehouse_points_settles_total', 'ok'],
      ['gatehouse_points_settles_total', 'hold_closed'],
      ['gatehouse_points_settles_total', 'hold_expired'],
    ] as const;
    const before = await Promise.all(series.map(([n, o]) => metric(n, o)));
    clock.set(T0);
    const u = await user({ topup: 10 });
    const a = await open({ userId: u, amount: 3, ttlSeconds: 1, idempotencyKey: 'm-1' });
    await hold({ userId: u, amount: 3, ttlSeconds: 1, idempotencyKey: 'm-1' });
    await hold({ userId: u, amount: 100 });
    const b = await open({ userId: u, amount: 2 });
    await settle(b.holdId, { amount: 2 });
    await settle(b.holdId, { amount: 2 });
    clock.advance(S);
    await settle(a.holdId, { amount: 3 });
    const afterwards = await Promise.all(series.map(([n, o]) => metric(n, o)));
    assert.deepEqual(
      afterwards.map((v, i) => v - before[i]!),
      [2, 1, 1, 0, 1, 1, 1],
    );
  });
});
