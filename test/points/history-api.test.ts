// Over the wire: refunds of consumes and settlements (partial and whole, last-drawn first, what each
// line took back, refund_exceeds, sources that can no longer take points back) and a user's history
// (newest first, pages, the kind filter, the page token refused when it is not this listing's).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../server/lib/clock.ts';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { api } from '../helpers/http.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';
import { type Api, createKey, createMapping, createRealm, createUser, subscribe, w } from './helpers.ts';

describe('refunds and history over the wire', () => {
  const S = 1000;
  const H = 3_600_000;
  const T0 = Date.UTC(2026, 6, 6, 8); // a Monday, 08:00 UTC
  const iso = (ms: number) => new Date(ms).toISOString();
  const REALM = 'ledger';

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

  /** A new user with a subscription of these windows (if any) and a top-up (never expiring unless
   *  `topupExpiresAt`); answers the user and the top-up's balance id. */
  async function user(opts: { windows?: Array<{ windowSeconds: number; limit: number }>; topup?: number; topupExpiresAt?: number } = {}) {
    const n = ++users;
    const u = await createUser(h, REALM, `ledger-${n}@example.com`);
    if (opts.windows) {
      const m = await createMapping(h, REALM, { entitlementKey: `plan-${n}`, quotaWindows: opts.windows }, `plan-${n}`);
      await subscribe(h, REALM, u, m.mappingId);
    }
    let topupId = '';
    if (opts.topup) {
      const g = await h.post(`/api/points/${REALM}/users/${u}/grants`, {
        kind: 'topup_credit',
        amount: opts.topup,
        ...(opts.topupExpiresAt ? { expiresAt: iso(opts.topupExpiresAt) } : {}),
      });
      assert.equal(g.status, 200, g.text);
      topupId = g.body.grantId;
    }
    return { u, topupId };
  }
  const summary = async (u: string) => {
    const r = await h.get(`/api/points/${REALM}/users/${u}/summary`);
    assert.equal(r.status, 200, r.text);
    return r.body;
  };
  async function consume(body: object) {
    const r = await h.post(`/api/points/${REALM}/consume`, body);
    assert.equal(r.status, 200, r.text);
    return r.body;
  }
  const refund = (transactionId: string, body: object = {}, key?: string) => h.post(`/api/points/${REALM}/transactions/${transactionId}/refund`, body, { key });
  const lines = (allocations: any[]) => allocations.map((a) => [a.creditKind, a.amount, ...('returned' in a ? [a.returned] : [])]);
  const refusal = (r: { status: number; body: any }, status: number, error: string) => {
    assert.equal(r.status, status, JSON.stringify(r.body));
    assert.equal(r.body.error, error);
  };

  describe('refunds', () => {
    it('refunds part, then part again, then the rest, last-drawn first; each line says what went back, and quota returns to its original time', async () => {
      clock.set(T0);
      const { u, topupId } = await user({ windows: [w(18000, 30)], topup: 50 });
      const tx = await consume({ userId: u, amount: 45 });
      const quotaSource = tx.allocations[0].sourceId;
      clock.advance(H);

      const first = await refund(tx.transactionId, { amount: 10, reason: 'job failed' });
      assert.equal(first.status, 200, first.text);
      assert.match(first.body.refundId, /^rfd_/);
      assert.deepEqual(
        [first.body.transactionId, first.body.userId, first.body.amount, first.body.refunded, first.body.createdAt],
        [tx.transactionId, u, 10, 10, iso(T0 + H)],
      );
      assert.deepEqual(first.body.allocations, [{ creditKind: 'topup_credit', sourceId: topupId, amount: 10, returned: 10 }]);
      assert.deepEqual(first.body.remaining, { quota: 0, pool: 45, total: 45 });

      const second = await refund(tx.transactionId, { amount: 10 });
      assert.equal(second.status, 200, second.text);
      assert.deepEqual(second.body.allocations, [
        { creditKind: 'subscription_credit', sourceId: quotaSource, amount: 5, returned: 5 },
        { creditKind: 'topup_credit', sourceId: topupId, amount: 5, returned: 5 },
      ]);
      let s = await summary(u);
      assert.deepEqual([s.balances.topup, s.windows[0].used, s.windows[0].nextRecoveryAt], [50, 25, iso(T0 + 5 * H)]);

      const rest = await refund(tx.transactionId);
      assert.equal(rest.status, 200, rest.text);
      assert.deepEqual([rest.body.amount, rest.body.refunded, lines(rest.body.allocations)], [25, 25, [['subscription_credit', 25, 25]]]);
      s = await summary(u);
      assert.deepEqual([s.balances.topup, s.windows[0].used, s.windows[0].remaining, s.total], [50, 0, 30, 80]);

      const more = await refund(tx.transactionId, { amount: 1 });
      refusal(more, 409, 'refund_exceeds');
      assert.deepEqual(await summary(u), s);
    });

    it('refuses more than is still refundable with 409 refund_exceeds, returning nothing', async () => {
      clock.set(T0);
      const { u } = await user({ topup: 50 });
      const tx = await consume({ userId: u, amount: 10 });
      const before = await summary(u);
      const r = await refund(tx.transactionId, { amount: 11 });
      refusal(r, 409, 'refund_exceeds');
      assert.deepEqual(await summary(u), before);
      assert.equal((await refund(tx.transactionId, { amount: 10 })).status, 200);
      assert.equal((await summary(u)).total, 50);
    });

    it('counts a refund to a balance that has expired, and to quota whose time has left every window, with nothing returned', async () => {
      clock.set(T0);
      const { u } = await user({ topup: 20, topupExpiresAt: T0 + H });
      const tx = await consume({ userId: u, amount: 10 });
      clock.set(T0 + H);
      const r = await refund(tx.transactionId);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual([r.body.amount, r.body.refunded, lines(r.body.allocations)], [10, 0, [['topup_credit', 10, 0]]]);
      assert.equal((await summary(u)).total, 0);
      refusal(await refund(tx.transactionId, { amount: 1 }), 409, 'refund_exceeds');

      clock.set(T0);
      const q = await user({ windows: [w(18000, 30)] });
      const used = await consume({ userId: q.u, amount: 5 });
      clock.set(T0 + 5 * H - 1);
      const inside = await refund(used.transactionId, { amount: 2 });
      assert.deepEqual([inside.body.refunded, lines(inside.body.allocations)], [2, [['subscription_credit', 2, 2]]]);
      clock.set(T0 + 5 * H);
      const outside = await refund(used.transactionId);
      assert.deepEqual([outside.body.amount, outside.body.refunded, lines(outside.body.allocations)], [3, 0, [['subscription_credit', 3, 0]]]);
      const s = await summary(q.u);
      assert.deepEqual([s.windows[0].used, s.windows[0].remaining], [0, 30], 'nothing is returned beyond the limit');
    });

    it('refunds a settlement; a hold, a grant, an unknown transaction or one of another realm is 404', async () => {
      clock.set(T0);
      const { u, topupId } = await user({ windows: [w(18000, 30)], topup: 10 });
      const held = (await h.post(`/api/points/${REALM}/holds`, { userId: u, amount: 20 })).body;
      const settled = (await h.post(`/api/points/${REALM}/holds/${held.holdId}/settle`, { amount: 12 })).body;
      const r = await refund(settled.transactionId, { amount: 5 });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(lines(r.body.allocations), [['subscription_credit', 5, 5]]);
      assert.equal((await summary(u)).windows[0].used, 7);
      refusal(await refund(settled.transactionId, { amount: 8 }), 409, 'refund_exceeds');
      refusal(await refund(held.holdId), 404, 'not_found');
      refusal(await refund(topupId), 404, 'not_found');
      refusal(await refund('ptx_nope'), 404, 'not_found');
      await createRealm(h, 'ledger-other');
      refusal(await h.post(`/api/points/ledger-other/transactions/${settled.transactionId}/refund`, {}), 404, 'not_found');
    });

    it('replays the first answer for the same idempotency key and body, refunding once; another body is 409 idempotency_conflict', async () => {
      clock.set(T0);
      const { u } = await user({ topup: 50 });
      const a = await consume({ userId: u, amount: 10 });
      const b = await consume({ userId: u, amount: 10 });
      const first = await refund(a.transactionId, { amount: 4, idempotencyKey: 'rf-1' });
      assert.equal(first.status, 200, first.text);
      clock.advance(S);
      const again = await refund(a.transactionId, { amount: 4, idempotencyKey: 'rf-1' });
      assert.deepEqual(again.body, first.body);
      const viaGrpc = await grpcCall(
        srv.grpc,
        'PointsService',
        'RefundTransaction',
        { realmId: REALM, transactionId: a.transactionId, amount: 4, idempotencyKey: 'rf-1' },
        srv.adminKey,
      );
      assert.ok(viaGrpc.ok);
      assert.equal(viaGrpc.value.refundId, first.body.refundId);
      assert.equal((await summary(u)).total, 34);
      refusal(await refund(a.transactionId, { amount: 5, idempotencyKey: 'rf-1' }), 409, 'idempotency_conflict');
      refusal(await refund(a.transactionId, { amount: 4, reason: 'other', idempotencyKey: 'rf-1' }), 409, 'idempotency_conflict');
      refusal(await refund(b.transactionId, { amount: 4, idempotencyKey: 'rf-1' }), 409, 'idempotency_conflict');
      assert.equal((await summary(u)).total, 34);
    });

    it('needs points.manage: a points.consume or points.view key is refused (403)', async () => {
      const { u } = await user({ topup: 50 });
      const tx = await consume({ userId: u, amount: 10 });
      const consumer = await createKey(h, REALM, ['points.consume']);
      const viewer = await createKey(h, REALM, ['points.view']);
      const manager = await createKey(h, REALM, ['points.manage']);
      refusal(await refund(tx.transactionId, {}, consumer), 403, 'forbidden');
      refusal(await refund(tx.transactionId, {}, viewer), 403, 'forbidden');
      assert.equal((await summary(u)).total, 40);
      assert.equal((await refund(tx.transactionId, {}, manager)).status, 200);
      assert.equal((await summary(u)).total, 50);
    });

    describe('refuses bad input with a 400 naming the field', () => {
      const cases: Array<[string, Record<string, unknown>, string]> = [
        ['a zero amount', { amount: 0 }, 'amount'],
        ['a negative amount', { amount: -2 }, 'amount'],
        ['a fractional amount', { amount: 1.5 }, 'amount'],
        ['a reason over 500 characters', { reason: 'x'.repeat(501) }, 'reason'],
        ['an empty idempotencyKey', { idempotencyKey: '' }, 'idempotencyKey'],
        ['an idempotencyKey over 200 characters', { idempotencyKey: 'k'.repeat(201) }, 'idempotencyKey'],
        ['an unknown field', { refundAll: true }, 'refundAll'],
      ];
      for (const [what, body, field] of cases) {
        it(what, async () => {
          const { u } = await user({ topup: 5 });
          const tx = await consume({ userId: u, amount: 5 });
          const r = await refund(tx.transactionId, body);
          refusal(r, 400, 'bad_request');
          assert.equal(r.body.field, field, r.text);
          assert.equal((await summary(u)).total, 0, 'nothing went back');
        });
      }
    });
  });

  describe('the history', () => {
    // One user's movements, one second apart: every kind the history knows.
    let u = '';
    const ids: Record<string, string> = {};
    const list = async (query = '', key?: string, user = u) => h.get(`/api/points/${REALM}/users/${user}/transactions${query}`, undefined, { key });
    before(async () => {
      clock.set(T0);
      await createRealm(h, 'story');
      assert.equal((await h.put('/api/points/story/default-config', { registrationBonusPoints: 7 })).status, 200);
      const post = async (path: string, body: object) => {
        clock.advance(S);
        const r = await h.post(path, body);
        assert.equal(r.status, 200, `${path}: ${r.text}`);
        return r.body;
      };
      u = await createUser(h, 'story', 'story@example.com');
      ids.topup = (await post(`/api/points/story/users/${u}/grants`, { kind: 'topup_credit', amount: 100 })).grantId;
      ids.consume = (await post('/api/points/story/consume', { userId: u, amount: 5, description: 'chat' })).transactionId;
      ids.hold1 = (await post('/api/points/story/holds', { userId: u, amount: 10, description: 'render' })).holdId;
      ids.settle = (await post(`/api/points/story/holds/${ids.hold1}/settle`, { amount: 4 })).transactionId;
      ids.hold2 = (await post('/api/points/story/holds', { userId: u, amount: 3 })).holdId;
      await post(`/api/points/story/holds/${ids.hold2}/release`, {});
      ids.refund = (await post(`/api/points/story/transactions/${ids.consume}/refund`, { amount: 2, reason: 'answer was cut off' })).refundId;
      ids.hold3 = (await post('/api/points/story/holds', { userId: u, amount: 1, ttlSeconds: 1 })).holdId;
      clock.advance(5 * S);
    });
    const story = async (query = '') => {
      const r = await h.get(`/api/points/story/users/${u}/transactions${query}`);
      assert.equal(r.status, 200, r.text);
      return r.body;
    };

    it('lists every movement newest first: what each moved, what it drew, and what it relates to', async () => {
      const page = await story();
      assert.equal(page.nextPageToken, '', 'one page holds them all');
      const rows = page.transactions;
      assert.deepEqual(
        rows.map((r: any) => [r.kind, r.amount, r.relatedId ?? null]),
        [
          ['expire', 1, ids.hold3],
          ['hold', 1, null],
          ['refund', 2, ids.consume],
          ['release', 3, ids.hold2],
          ['hold', 3, null],
          ['settle', 4, ids.hold1],
          ['hold', 10, null],
          ['consume', 5, null],
          ['grant', 100, null],
          ['grant', 7, null],
        ],
      );
      const times = rows.map((r: any) => Date.parse(r.createdAt));
      assert.deepEqual(
        times,
        [...times].sort((a, b) => b - a),
        'newest first',
      );
      assert.equal(rows[0].createdAt, iso(Date.parse(rows[1].createdAt) + S), 'the expiry is recorded at expiresAt');
      assert.deepEqual(
        [
          rows[1].transactionId,
          rows[2].transactionId,
          rows[4].transactionId,
          rows[5].transactionId,
          rows[6].transactionId,
          rows[7].transactionId,
          rows[8].transactionId,
        ],
        [ids.hold3, ids.refund, ids.hold2, ids.settle, ids.hold1, ids.consume, ids.topup],
      );
      assert.deepEqual([rows[2].description, rows[6].description, rows[7].description], ['answer was cut off', 'render', 'chat']);
      assert.ok(!('description' in rows[1]) && !('relatedId' in rows[1]), 'absent, not empty, when there is none');
      assert.deepEqual(lines(rows[9].allocations), [['registration_credit', 7]]);
      assert.deepEqual(lines(rows[7].allocations), [['registration_credit', 5]]);
      assert.deepEqual(lines(rows[2].allocations), [['registration_credit', 2]]);
    });

    it('pages with pageToken: every movement once, in order, even when new ones arrive meanwhile', async () => {
      const all = (await story()).transactions.map((r: any) => r.transactionId);
      const seen: string[] = [];
      const sizes: number[] = [];
      let token = '';
      let pages = 0;
      do {
        const page = await story(`?pageSize=3${token ? `&pageToken=${token}` : ''}`);
        seen.push(...page.transactions.map((r: any) => r.transactionId));
        sizes.push(page.transactions.length);
        token = page.nextPageToken;
        if (pages++ === 0) {
          // A movement after the first page comes first in a new listing, not in this one's next page.
          clock.advance(S);
          assert.equal((await h.post('/api/points/story/consume', { userId: u, amount: 1 })).status, 200);
        }
      } while (token);
      assert.deepEqual(sizes, [3, 3, 3, 1]);
      assert.deepEqual(seen, all);
      assert.equal((await story('?pageSize=11')).nextPageToken, '', 'a page that ends the history says so');
      assert.notEqual((await story('?pageSize=10')).nextPageToken, '');
      assert.equal((await story()).transactions[0].kind, 'consume');
    });

    it('filters by kind, and pages within the filter', async () => {
      const holds = await story('?kind=hold');
      assert.deepEqual(
        holds.transactions.map((r: any) => r.transactionId),
        [ids.hold3, ids.hold2, ids.hold1],
      );
      const first = await story('?kind=hold&pageSize=2');
      assert.equal(first.transactions.length, 2);
      const second = await story(`?kind=hold&pageSize=2&pageToken=${first.nextPageToken}`);
      assert.deepEqual([second.transactions.map((r: any) => r.transactionId), second.nextPageToken], [[ids.hold1], '']);
      assert.deepEqual(
        (await story('?kind=grant')).transactions.map((r: any) => r.amount),
        [100, 7],
      );
      assert.deepEqual((await story('?kind=refund')).transactions.length, 1);
    });

    it('refuses a bad pageSize, pageToken or kind with a 400 naming it', async () => {
      const other = await createUser(h, 'story', 'story-other@example.com');
      const token = (await story('?pageSize=1')).nextPageToken;
      const holdToken = (await story('?pageSize=1&kind=hold')).nextPageToken;
      const cases: Array<[string, string]> = [
        ['?pageSize=0', 'pageSize'],
        ['?pageSize=201', 'pageSize'],
        ['?pageSize=-1', 'pageSize'],
        ['?pageSize=ten', 'pageSize'],
        ['?pageSize=1.5', 'pageSize'],
        ['?pageSize=2&pageSize=3', 'pageSize'],
        ['?pageToken=not-a-token', 'pageToken'],
        [`?pageToken=${token.slice(0, -2)}`, 'pageToken'],
        [`?pageToken=${holdToken}`, 'pageToken'],
        ['?kind=bogus', 'kind'],
        ['?kind=CONSUME', 'kind'],
      ];
      for (const [query, field] of cases) {
        const raw = await h.get(`/api/points/story/users/${u}/transactions${query}`);
        refusal(raw, 400, 'bad_request');
        assert.equal(raw.body.field, field, `${query}: ${raw.text}`);
      }
      const foreign = await h.get(`/api/points/story/users/${other}/transactions?pageToken=${token}`);
      refusal(foreign, 400, 'bad_request');
      assert.equal(foreign.body.field, 'pageToken', 'a token of another user’s listing');
      assert.equal((await story('?pageSize=200')).transactions.length > 0, true);
      refusal(await h.get('/api/points/story/users/usr_nope/transactions'), 404, 'not_found');
    });

    it('over gRPC: the same listing, and page tokens work across transports', async () => {
      const viaHttp = await story('?pageSize=4');
      const g = await grpcCall(srv.grpc, 'PointsService', 'ListTransactions', { realmId: 'story', userId: u, pageSize: 4 }, srv.adminKey);
      assert.ok(g.ok, JSON.stringify(g));
      assert.deepEqual(
        g.value.transactions.map((r: any) => [r.transactionId, r.kind, r.amount]),
        viaHttp.transactions.map((r: any) => [r.transactionId, r.kind, r.amount]),
      );
      assert.equal(g.value.nextPageToken, viaHttp.nextPageToken);
      const next = await grpcCall(
        srv.grpc,
        'PointsService',
        'ListTransactions',
        { realmId: 'story', userId: u, pageSize: 4, pageToken: viaHttp.nextPageToken },
        srv.adminKey,
      );
      assert.ok(next.ok);
      assert.deepEqual(
        next.value.transactions.map((r: any) => r.transactionId),
        (await story(`?pageSize=4&pageToken=${viaHttp.nextPageToken}`)).transactions.map((r: any) => r.transactionId),
      );
      const bad = await grpcCall(srv.grpc, 'PointsService', 'ListTransactions', { realmId: 'story', userId: u, pageSize: 500 }, srv.adminKey);
      assert.ok(!bad.ok);
      assert.deepEqual([bad.error.code, bad.error.metadata.field], [3, 'pageSize']);
    });

    it('needs points.view: a points.consume key or a key of another realm is refused (403)', async () => {
      const viewer = await createKey(h, 'story', ['points.view']);
      const consumer = await createKey(h, 'story', ['points.consume']);
      const elsewhere = await createKey(h, REALM, ['*']);
      const get = (key: string) => h.get(`/api/points/story/users/${u}/transactions`, undefined, { key });
      assert.equal((await get(viewer)).status, 200);
      refusal(await get(consumer), 403, 'forbidden');
      refusal(await get(elsewhere), 403, 'forbidden');
      assert.equal((await list('', viewer, 'usr_x')).status, 403, 'a key of realm story asking another realm’s listing');
    });
  });
});
