// PointsStore contract, the ledger part: holds that settle below, at or above their amount, release
// and expire by themselves; refunds last-drawn first; the history; every window exact after quota
// goes back; the free periodic grant given once per period whatever its form.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GatehouseError } from '../../server/errors.ts';
import { historyRetention } from '../../server/points/history.ts';
import type { QuotaWindow } from '../../server/points/model.ts';
import type { HoldCommand, RefundCommand, ReleaseCommand, SettleCommand } from '../../server/points/store.ts';
import { DAY, HOUR, MINUTE, rejectsWith, SECOND, type StoreFactory, type StoreFixture, seedRealm, seedUser, T0, unique } from './contract.ts';

const w = (windowSeconds: number, limit: number): QuotaWindow => ({ windowSeconds, limit });
const lines = (r: { allocations: Array<{ creditKind: string; amount: number }> }) => r.allocations.map((a) => [a.creditKind, a.amount]);

export function describeLedgerStore(backend: string, factory: StoreFactory): void {
  describe(`${backend}: PointsStore ledger (holds, refunds, history)`, () => {
    let s: StoreFixture;
    before(async () => (s = await factory()));
    after(() => s.close());

    const holdCmd = (realmId: string, userId: string, amount: number, over: Partial<HoldCommand> = {}): HoldCommand => ({
      realmId,
      userId,
      amount,
      ttlSeconds: 600,
      description: null,
      idempotencyKey: null,
      requestHash: `hold=${amount}`,
      holdId: unique('hld'),
      ...over,
    });
    const settleCmd = (realmId: string, holdId: string, amount: number, over: Partial<SettleCommand> = {}): SettleCommand => ({
      realmId,
      holdId,
      amount,
      description: null,
      idempotencyKey: null,
      requestHash: `settle=${holdId}:${amount}`,
      transactionId: unique('ptx'),
      ...over,
    });
    const releaseCmd = (realmId: string, holdId: string, over: Partial<ReleaseCommand> = {}): ReleaseCommand => ({
      realmId,
      holdId,
      idempotencyKey: null,
      requestHash: `release=${holdId}`,
      transactionId: unique('ptx'),
      ...over,
    });
    const refundCmd = (realmId: string, transactionId: string, amount: number | null, over: Partial<RefundCommand> = {}): RefundCommand => ({
      realmId,
      transactionId,
      amount,
      reason: null,
      idempotencyKey: null,
      requestHash: `refund=${transactionId}:${amount}`,
      refundId: unique('rfd'),
      ...over,
    });
    const consume = (realmId: string, userId: string, amount: number, now: number) =>
      s.points.consume({ realmId, userId, amount, description: null, idempotencyKey: null, requestHash: '', transactionId: unique('ptx') }, now);
    const topup = (realmId: string, userId: string, amount: number, now: number, expiresAt: number | null = null) =>
      s.points.grant({ realmId, userId, kind: 'topup_credit', amount, expiresAt, idempotencyKey: null, requestHash: '', grantId: unique('grt') }, now);
    /** A realm whose free periodic grant is the windows given (once), a user with `topup` bought. */
    const account = async (windows: QuotaWindow[], topupAmount = 0) => {
      const realm = await seedRealm(s);
      if (windows.length) await s.points.putDefaultConfig(realm, { freePeriodicGrantPeriodType: 'once', freePeriodicQuotaWindows: windows }, T0);
      const user = await seedUser(s, realm);
      await s.points.grantRegistration(realm, user.id, T0);
      if (topupAmount) await topup(realm, user.id, topupAmount, T0);
      return { realm, userId: user.id };
    };
    const summary = (realm: string, userId: string, now: number) => s.points.summary(realm, userId, now);
    const used = async (realm: string, userId: string, now: number) => (await summary(realm, userId, now)).windows.map((x) => [x.key, x.used]);

    describe('holds', () => {
      it('draw like a consume: window quota first, counted in every window and gone from balances, shown as held', async () => {
        const { realm, userId } = await account([w(3600, 10)], 100);
        const h = await s.points.hold(holdCmd(realm, userId, 15), T0);
        assert.equal(h.status, 'open');
        assert.equal(h.expiresAt, T0 + 600 * SECOND);
        assert.deepEqual(lines(h), [
          ['free_periodic_credit', 10],
          ['topup_credit', 5],
        ]);
        assert.deepEqual(h.remaining, { quota: 0, pool: 95, total: 95 });
        const sum = await summary(realm, userId, T0 + 1);
        assert.deepEqual([sum.windows[0]!.used, sum.balances.topup, sum.total, sum.held], [10, 95, 95, 15]);
        assert.deepEqual(sum.holds, [{ holdId: h.holdId, amount: 15, expiresAt: h.expiresAt }]);
      });

      it('settled below: the difference goes back last-drawn first, and every window answers as if only the settled amount was consumed at the hold time', async () => {
        const { realm, userId } = await account([w(3600, 10), w(86400, 30)], 100);
        const h = await s.points.hold(holdCmd(realm, userId, 15), T0);
        const r = await s.points.settle(settleCmd(realm, h.holdId, 7), T0 + 5 * MINUTE);
        assert.deepEqual(lines(r), [['free_periodic_credit', 7]]);
        assert.deepEqual(r.remaining, { quota: 3, pool: 100, total: 103 });
        const sum = await summary(realm, userId, T0 + 5 * MINUTE);
        assert.deepEqual(
          sum.windows.map((x) => [x.key, x.used, x.nextRecoveryAt, x.resetsAt]),
          [
            ['1h', 7, T0 + HOUR, T0 + HOUR],
            ['day', 7, T0 + DAY, T0 + DAY],
          ],
        );
        assert.deepEqual([sum.balances.topup, sum.held, sum.holds], [100, 0, []]);
        // The quota comes back at the hold's time plus the window, not the settlement's.
        assert.deepEqual(await used(realm, userId, T0 + HOUR), [
          ['1h', 0],
          ['day', 7],
        ]);
      });

      it('settled at its amount keeps every line; settled above draws the extra at settle time', async () => {
        const { realm, userId } = await account([w(3600, 10)], 100);
        const equal = await s.points.hold(holdCmd(realm, userId, 4), T0);
        assert.deepEqual(lines(await s.points.settle(settleCmd(realm, equal.holdId, 4), T0 + 1)), [['free_periodic_credit', 4]]);
        const above = await s.points.hold(holdCmd(realm, userId, 3), T0 + 2);
        const r = await s.points.settle(settleCmd(realm, above.holdId, 12), T0 + 10 * MINUTE);
        assert.deepEqual(lines(r), [
          ['free_periodic_credit', 3],
          ['free_periodic_credit', 3],
          ['topup_credit', 6],
        ]);
        const sum = await summary(realm, userId, T0 + 10 * MINUTE);
        assert.deepEqual([sum.windows[0]!.used, sum.balances.topup, sum.total], [10, 94, 94]);
        // What was held comes back an hour after the hold; the extra an hour after the settlement.
        assert.deepEqual(await used(realm, userId, T0 + 2 + HOUR), [['1h', 3]]);
        assert.deepEqual(await used(realm, userId, T0 + 10 * MINUTE + HOUR), [['1h', 0]]);
      });

      it('settled above what the user has: 409 insufficient_points with have and need of the extra, and the hold stays open and unchanged', async () => {
        const { realm, userId } = await account([], 10);
        const h = await s.points.hold(holdCmd(realm, userId, 6), T0);
        await rejectsWith(s.points.settle(settleCmd(realm, h.holdId, 20), T0 + 1), 'insufficient_points', { have: 4, need: 14 });
        const again = await s.points.getHold(realm, h.holdId, T0 + 2);
        assert.deepEqual([again.status, again.amount, again.settledAmount], ['open', 6, null]);
        assert.deepEqual([(await summary(realm, userId, T0 + 2)).total, (await summary(realm, userId, T0 + 2)).held], [4, 6]);
        assert.equal((await s.points.settle(settleCmd(realm, h.holdId, 10), T0 + 3)).amount, 10);
        assert.equal((await summary(realm, userId, T0 + 3)).total, 0);
      });

      it('released: all of it goes back; then settle and release are 409 hold_closed, and a replay with the same key answers the first result', async () => {
        const { realm, userId } = await account([w(3600, 10)], 50);
        const h = await s.points.hold(holdCmd(realm, userId, 25), T0);
        const key = { idempotencyKey: 'rel-1', requestHash: 'rel-1' };
        const r = await s.points.release(releaseCmd(realm, h.holdId, key), T0 + MINUTE);
        assert.deepEqual([r.status, r.closedAt, r.remaining.total], ['released', T0 + MINUTE, 60]);
        assert.deepEqual(await used(realm, userId, T0 + MINUTE), [['1h', 0]]);
        assert.deepEqual(await s.points.release(releaseCmd(realm, h.holdId, key), T0 + 2 * MINUTE), r);
        await rejectsWith(s.points.release(releaseCmd(realm, h.holdId), T0 + 2 * MINUTE), 'hold_closed', { holdId: h.holdId });
        await rejectsWith(s.points.settle(settleCmd(realm, h.holdId, 1), T0 + 2 * MINUTE), 'hold_closed');
        await rejectsWith(s.points.release(releaseCmd(realm, h.holdId, { idempotencyKey: 'rel-1', requestHash: 'other' }), T0), 'idempotency_conflict');
      });

      it('a settlement replayed with its key answers the first result; the same key on another request is 409 idempotency_conflict', async () => {
        const { realm, userId } = await account([], 50);
        const h = await s.points.hold(holdCmd(realm, userId, 20), T0);
        const key = { idempotencyKey: 'settle-1', requestHash: 'settle-1' };
        const first = await s.points.settle(settleCmd(realm, h.holdId, 8, key), T0 + 1);
        assert.deepEqual(await s.points.settle(settleCmd(realm, h.holdId, 8, key), T0 + 2), first);
        await rejectsWith(s.points.settle(settleCmd(realm, h.holdId, 9, { idempotencyKey: 'settle-1', requestHash: 'x' }), T0 + 3), 'idempotency_conflict');
        assert.equal((await summary(realm, userId, T0 + 3)).total, 42);
      });

      it('expires by itself at expiresAt: reads show it released from then on without any sweep, and settling it is 409 hold_expired', async () => {
        const { realm, userId } = await account([w(3600, 10)], 20);
        const h = await s.points.hold(holdCmd(realm, userId, 12, { ttlSeconds: 60 }), T0);
        const before = await summary(realm, userId, T0 + 60 * SECOND - 1);
        assert.deepEqual([before.held, before.total], [12, 18]);
        const at = await summary(realm, userId, T0 + 60 * SECOND);
        assert.deepEqual([at.held, at.holds, at.total, at.windows[0]!.used], [0, [], 30, 0]);
        const read = await s.points.getHold(realm, h.holdId, T0 + 2 * HOUR);
        assert.deepEqual([read.status, read.closedAt], ['expired', T0 + 60 * SECOND]);
        await rejectsWith(s.points.settle(settleCmd(realm, h.holdId, 1), T0 + 2 * HOUR), 'hold_expired', { holdId: h.holdId });
        await rejectsWith(s.points.release(releaseCmd(realm, h.holdId), T0 + 2 * HOUR), 'hold_expired');
        const page = await s.points.history({ realmId: realm, userId, pageSize: 10, after: null, kind: 'expire' }, T0 + 2 * HOUR);
        assert.deepEqual(
          page.transactions.map((t) => [t.kind, t.amount, t.createdAt, t.relatedId]),
          [['expire', 12, T0 + 60 * SECOND, h.holdId]],
        );
      });

      it('an unknown hold is 404, in its realm only', async () => {
        const { realm, userId } = await account([], 5);
        const h = await s.points.hold(holdCmd(realm, userId, 1), T0);
        await rejectsWith(s.points.getHold(realm, 'hld-none', T0), 'not_found');
        await rejectsWith(s.points.settle(settleCmd(await seedRealm(s), h.holdId, 1), T0), 'not_found');
      });

      it('concurrent holds and settlements never draw more than there was', async () => {
        const { realm, userId } = await account([w(3600, 30)], 30);
        const peer = await s.peer();
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            (i % 2 ? peer : s).points.hold(holdCmd(realm, userId, 7), T0 + 1).then(
              (h) =>
                (i % 2 ? s : peer).points.settle(settleCmd(realm, h.holdId, 9), T0 + 2).then(
                  (r) => ({ settled: r.amount, held: 0 }),
                  (e: unknown) => {
                    assert.ok(e instanceof GatehouseError && e.code === 'insufficient_points', String(e));
                    return { settled: 0, held: 7 }; // the hold stays open
                  },
                ),
              (e: unknown) => {
                assert.ok(e instanceof GatehouseError && e.code === 'insufficient_points', String(e));
                return { settled: 0, held: 0 };
              },
            ),
          ),
        );
        const settled = results.reduce((a, r) => a + r.settled, 0);
        const held = results.reduce((a, r) => a + r.held, 0);
        assert.ok(settled + held <= 60, `charged ${settled} and held ${held} of 60`);
        const sum = await summary(realm, userId, T0 + 3);
        assert.deepEqual([sum.held, sum.total], [held, 60 - settled - held]);
        assert.equal(sum.windows[0]!.used + (30 - sum.balances.topup), settled + held);
      });
    });

    describe('refunds', () => {
      it('go back last-drawn first, exact in every window, with what each line returned; more than is left is 409 refund_exceeds', async () => {
        const { realm, userId } = await account([w(3600, 10)], 100);
        const c = await consume(realm, userId, 16, T0);
        const r = await s.points.refund(refundCmd(realm, c.transactionId, 8), T0 + MINUTE);
        assert.deepEqual(
          r.allocations.map((l) => [l.creditKind, l.amount, l.returned]),
          [
            ['free_periodic_credit', 2, 2],
            ['topup_credit', 6, 6],
          ],
        );
        assert.deepEqual([r.amount, r.refunded, r.remaining], [8, 8, { quota: 2, pool: 100, total: 102 }]);
        assert.deepEqual(await used(realm, userId, T0 + MINUTE), [['1h', 8]]);
        await rejectsWith(s.points.refund(refundCmd(realm, c.transactionId, 9), T0 + MINUTE), 'refund_exceeds', { refundable: 8, asked: 9 });
        const rest = await s.points.refund(refundCmd(realm, c.transactionId, null), T0 + 2 * MINUTE);
        assert.deepEqual([rest.amount, rest.refunded], [8, 8]);
        assert.deepEqual(await used(realm, userId, T0 + 2 * MINUTE), [['1h', 0]]);
        await rejectsWith(s.points.refund(refundCmd(realm, c.transactionId, null), T0 + 3 * MINUTE), 'refund_exceeds', { refundable: 0 });
      });

      it('quota whose time has left every window and an expired balance take nothing back, and still count against what is refundable', async () => {
        const { realm, userId } = await account([w(3600, 5)]);
        await topup(realm, userId, 10, T0, T0 + 2 * HOUR);
        const c = await consume(realm, userId, 9, T0);
        const r = await s.points.refund(refundCmd(realm, c.transactionId, 9), T0 + 3 * HOUR);
        assert.deepEqual(
          r.allocations.map((l) => [l.creditKind, l.amount, l.returned]),
          [
            ['free_periodic_credit', 5, 0],
            ['topup_credit', 4, 0],
          ],
        );
        assert.equal(r.refunded, 0);
        await rejectsWith(s.points.refund(refundCmd(realm, c.transactionId, 1), T0 + 3 * HOUR), 'refund_exceeds');
      });

      it('a balance takes its share back until the instant it expires, and at that instant no longer counts (balanceIsLive)', async () => {
        const { realm, userId } = await account([]);
        const expiresAt = T0 + HOUR;
        await topup(realm, userId, 10, T0, expiresAt);
        const early = await consume(realm, userId, 4, T0);
        const late = await consume(realm, userId, 4, T0);
        const before = await s.points.refund(refundCmd(realm, early.transactionId, null), expiresAt - 1);
        assert.deepEqual([before.refunded, before.remaining.pool], [4, 6]);
        const at = await s.points.refund(refundCmd(realm, late.transactionId, null), expiresAt);
        assert.deepEqual([at.amount, at.refunded, at.remaining.pool], [4, 0, 0]);
        assert.equal((await summary(realm, userId, expiresAt)).total, 0);
      });

      it('a settlement is refundable too (its extra drawn last goes back first); a hold itself is not a transaction to refund', async () => {
        const { realm, userId } = await account([], 50);
        const h = await s.points.hold(holdCmd(realm, userId, 5), T0);
        const st = await s.points.settle(settleCmd(realm, h.holdId, 8), T0 + 1);
        const r = await s.points.refund(refundCmd(realm, st.transactionId, 4), T0 + 2);
        assert.deepEqual(
          r.allocations.map((l) => [l.amount, l.returned]),
          [
            [1, 1],
            [3, 3],
          ],
        );
        assert.equal((await summary(realm, userId, T0 + 2)).total, 46);
        await rejectsWith(s.points.refund(refundCmd(realm, h.holdId, 1), T0 + 3), 'not_found');
        await rejectsWith(s.points.refund(refundCmd(realm, 'ptx-none', 1), T0 + 3), 'not_found');
      });

      it('a replay with the same key answers the first refund and returns nothing twice', async () => {
        const { realm, userId } = await account([], 20);
        const c = await consume(realm, userId, 10, T0);
        const key = { idempotencyKey: 'rf-1', requestHash: 'rf-1' };
        const first = await s.points.refund(refundCmd(realm, c.transactionId, 3, key), T0 + 1);
        assert.deepEqual(await s.points.refund(refundCmd(realm, c.transactionId, 3, key), T0 + 2), first);
        assert.equal((await summary(realm, userId, T0 + 2)).total, 13);
      });
    });

    describe('exact windows after quota goes back', () => {
      it('hundreds of holds over weeks, every third released and the others settled lower: each window equals a brute-force sum', async () => {
        const windows = [w(3600, 1_000_000), w(86400, 1_000_000), w(7 * 86400, 1_000_000), w(30 * 86400, 1_000_000)];
        const { realm, userId } = await account(windows);
        const consumed: Array<{ at: number; amount: number }> = [];
        let now = T0;
        for (let i = 0; i < 300; i++, now += 97 * MINUTE) {
          const h = await s.points.hold(holdCmd(realm, userId, 10 + (i % 7)), now);
          if (i % 3 === 0) await s.points.release(releaseCmd(realm, h.holdId), now + MINUTE);
          else {
            const keep = i % 10;
            await s.points.settle(settleCmd(realm, h.holdId, keep), now + MINUTE);
            consumed.push({ at: now, amount: keep });
          }
        }
        for (const at of [now, now + 2 * DAY, now + 9 * DAY]) {
          const sum = await summary(realm, userId, at);
          for (const row of sum.windows) {
            const inside = consumed.filter((c) => c.at > at - row.windowSeconds * 1000 && c.at <= at);
            const want = inside.reduce((a, c) => a + c.amount, 0);
            assert.equal(row.used, want, `${row.key} at +${at - T0}`);
            const charged = inside.filter((c) => c.amount > 0);
            assert.equal(row.nextRecoveryAt, charged.length ? charged[0]!.at + row.windowSeconds * 1000 : null, `${row.key} nextRecoveryAt`);
            assert.equal(row.resetsAt, charged.length ? charged[charged.length - 1]!.at + row.windowSeconds * 1000 : null, `${row.key} resetsAt`);
          }
        }
      });
    });

    describe('history', () => {
      it('lists every movement newest first, page by page, and by kind', async () => {
        const { realm, userId } = await account([], 100);
        const c = await consume(realm, userId, 5, T0 + 1);
        const h = await s.points.hold(holdCmd(realm, userId, 9, { description: 'render' }), T0 + 2);
        const st = await s.points.settle(settleCmd(realm, h.holdId, 4), T0 + 3);
        const h2 = await s.points.hold(holdCmd(realm, userId, 2), T0 + 4);
        const rel = await s.points.release(releaseCmd(realm, h2.holdId), T0 + 5);
        const rf = await s.points.refund(refundCmd(realm, c.transactionId, 2, { reason: 'failed job' }), T0 + 6);
        const all: Array<[string, number, string | null]> = [];
        let after = null;
        do {
          const page = await s.points.history({ realmId: realm, userId, pageSize: 2, after, kind: null }, T0 + 7);
          assert.ok(page.transactions.length <= 2);
          for (const t of page.transactions) all.push([t.kind, t.amount, t.relatedId]);
          after = page.next;
        } while (after);
        assert.deepEqual(all, [
          ['refund', 2, c.transactionId],
          ['release', 2, h2.holdId],
          ['hold', 2, null],
          ['settle', 4, h.holdId],
          ['hold', 9, null],
          ['consume', 5, null],
          ['grant', 100, null],
        ]);
        assert.equal(rel.status, 'released');
        const refunds = await s.points.history({ realmId: realm, userId, pageSize: 50, after: null, kind: 'refund' }, T0 + 7);
        assert.deepEqual(
          refunds.transactions.map((t) => [t.transactionId, t.description, t.allocations]),
          [[rf.refundId, 'failed job', [{ creditKind: 'topup_credit', sourceId: rf.allocations[0]!.sourceId, amount: 2 }]]],
        );
        const settles = await s.points.history({ realmId: realm, userId, pageSize: 50, after: null, kind: 'settle' }, T0 + 7);
        assert.deepEqual(
          settles.transactions.map((t) => [t.transactionId, t.description, t.allocations.length]),
          [[st.transactionId, 'render', 1]],
        );
      });

      it('keeps a movement until it is older than the history keeps: listed and refundable at the cutoff, neither a millisecond later (keptInHistory)', async () => {
        const { realm, userId } = await account([], 100);
        const c = await consume(realm, userId, 5, T0);
        const edge = T0 + historyRetention.ms;
        const listed = async (now: number) =>
          (await s.points.history({ realmId: realm, userId, pageSize: 10, after: null, kind: 'consume' }, now)).transactions.map((t) => t.transactionId);
        assert.deepEqual(await listed(edge), [c.transactionId]);
        assert.equal((await s.points.refund(refundCmd(realm, c.transactionId, 1), edge)).amount, 1);
        assert.deepEqual(await listed(edge + 1), []);
        await rejectsWith(s.points.refund(refundCmd(realm, c.transactionId, 1), edge + 1), 'not_found');
      });

      it('shows the grants the service makes by itself, and is 404 for an unknown user', async () => {
        const realm = await seedRealm(s);
        await s.points.putDefaultConfig(realm, { registrationBonusPoints: 50, freePeriodicPointsAmount: 5, freePeriodicGrantPeriodType: 'daily' }, T0);
        const user = await seedUser(s, realm);
        await s.points.grantRegistration(realm, user.id, T0);
        const page = await s.points.history({ realmId: realm, userId: user.id, pageSize: 50, after: null, kind: 'grant' }, T0 + DAY);
        // Newest first; the two grants of registration share a millisecond (their order is by id).
        const rows = page.transactions.map((t) => [t.createdAt, t.amount, t.description] as const);
        assert.deepEqual(rows[0], [T0 + DAY, 5, 'Free periodic grant']);
        assert.deepEqual(
          rows.slice(1).sort((a, b) => a[1] - b[1]),
          [
            [T0, 5, 'Free periodic grant'],
            [T0, 50, 'Registration credit'],
          ],
        );
        await rejectsWith(s.points.history({ realmId: realm, userId: 'usr-none', pageSize: 5, after: null, kind: null }, T0), 'not_found');
      });
    });

    describe('the free periodic grant, once per period', () => {
      it('is given once in a period whatever its form: a fixed 5 then windows 1h=3 the same day leaves 5', async () => {
        const realm = await seedRealm(s);
        await s.points.putDefaultConfig(realm, { freePeriodicPointsAmount: 5, freePeriodicGrantPeriodType: 'daily' }, T0);
        const user = await seedUser(s, realm);
        await s.points.grantRegistration(realm, user.id, T0);
        await s.points.putDefaultConfig(realm, { freePeriodicQuotaWindows: [w(3600, 3)] }, T0 + HOUR);
        const same = await summary(realm, user.id, T0 + 2 * HOUR);
        assert.deepEqual([same.total, same.windows.length], [5, 0]);
        // The next day's grant takes the new form.
        const next = await summary(realm, user.id, T0 + DAY);
        assert.deepEqual(
          next.windows.map((x) => [x.key, x.limit]),
          [['1h', 3]],
        );
      });

      it('a once grant of 0 is a grant of nothing: a user registered then never receives the amount set later', async () => {
        const realm = await seedRealm(s);
        await s.points.putDefaultConfig(realm, { freePeriodicPointsAmount: 0, freePeriodicGrantPeriodType: 'once' }, T0);
        const early = await seedUser(s, realm);
        await s.points.grantRegistration(realm, early.id, T0);
        await s.points.putDefaultConfig(realm, { freePeriodicPointsAmount: 7 }, T0 + 1);
        const late = await seedUser(s, realm);
        await s.points.grantRegistration(realm, late.id, T0 + 2);
        assert.equal((await summary(realm, early.id, T0 + 3)).total, 0);
        assert.equal((await summary(realm, late.id, T0 + 3)).total, 7);
      });
    });
  });
}
