// PointsStore contract: the realm configuration, registration grants, consume and grant with
// idempotency keys, all or nothing, no double spend under concurrency, exact window usage kept from
// the store's record of consumption, and the snapshot rule.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GatehouseError } from '../../server/errors.ts';
import { claimed } from '../../server/jobs/retry.ts';
import { consumedEventId } from '../../server/points/events.ts';
import { historyRetention, prunesHistory } from '../../server/points/history.ts';
import type { QuotaWindow } from '../../server/points/model.ts';
import type { ConsumeCommand, GrantCommand } from '../../server/points/store.ts';
import { planAccountDeletion } from '../../server/users/deletion.ts';
import { USER_PURGE, USER_PURGE_POLICY } from '../../server/users/purge.ts';
import { createdEndpoint, webhookAuditRecord } from '../../server/webhooks/model.ts';
import { subscribeToEveryEvent } from '../helpers/stores.ts';
import { DAY, HOUR, MINUTE, nextTurn, rejectsWith, SECOND, type StoreFactory, type StoreFixture, seedRealm, seedUser, T0, unique } from './contract.ts';

const N = 25;
const w = (windowSeconds: number, limit: number): QuotaWindow => ({ windowSeconds, limit });

export function describePointsStore(backend: string, factory: StoreFactory): void {
  describe(`${backend}: PointsStore`, () => {
    let s: StoreFixture;
    before(async () => (s = await factory()));
    after(() => s.close());

    const consumeCmd = (realmId: string, userId: string, amount: number, over: Partial<ConsumeCommand> = {}): ConsumeCommand => ({
      realmId,
      userId,
      amount,
      description: null,
      idempotencyKey: null,
      requestHash: `amount=${amount}`,
      transactionId: unique('ptx'),
      ...over,
    });
    const grantCmd = (realmId: string, userId: string, amount: number, over: Partial<GrantCommand> = {}): GrantCommand => ({
      realmId,
      userId,
      kind: 'topup_credit',
      amount,
      expiresAt: null,
      idempotencyKey: null,
      requestHash: `amount=${amount}`,
      grantId: unique('grt'),
      ...over,
    });
    /** A realm, a user in it (registered as every login path does) and `topup` points bought. */
    const account = async (opts: { topup?: number; realm?: string; now?: number } = {}) => {
      const realm = opts.realm ?? (await seedRealm(s));
      const user = await seedUser(s, realm);
      await s.points.grantRegistration(realm, user.id, opts.now ?? T0);
      if (opts.topup) await s.points.grant(grantCmd(realm, user.id, opts.topup), opts.now ?? T0);
      return { realm, userId: user.id };
    };
    const total = async (realm: string, userId: string, now = T0) => (await s.points.summary(realm, userId, now)).total;
    /** Everything a consume may change, read without materialising anything. */
    const stored = async (realm: string, userId: string) => ({
      balances: await s.points.listBalances(realm, userId),
      transactions: await s.points.listTransactions(realm, userId),
    });

    describe('realm configuration', () => {
      it('knows which realms exist', async () => {
        const realm = await seedRealm(s);
        assert.equal(await s.points.realmExists(realm), true);
        assert.equal(await s.points.realmExists('no-such-realm'), false);
      });

      it('answers the defaults, with windows null and no update time, before anything is set', async () => {
        const realm = await seedRealm(s);
        assert.deepEqual(await s.points.getDefaultConfig(realm), {
          realmId: realm,
          registrationBonusPoints: 0,
          freePeriodicPointsAmount: 0,
          freePeriodicGrantPeriodType: 'monthly',
          freePeriodicValidityDays: 0,
          freePeriodicQuotaWindows: null,
          updatedAt: null,
        });
      });

      it('a put changes only the given fields; windows: undefined keeps, [] clears, a list replaces', async () => {
        const realm = await seedRealm(s);
        const first = await s.points.putDefaultConfig(realm, { registrationBonusPoints: 5, freePeriodicQuotaWindows: [w(18000, 10)] }, T0);
        assert.deepEqual(first, {
          realmId: realm,
          registrationBonusPoints: 5,
          freePeriodicPointsAmount: 0,
          freePeriodicGrantPeriodType: 'monthly',
          freePeriodicValidityDays: 0,
          freePeriodicQuotaWindows: [w(18000, 10)],
          updatedAt: T0,
        });
        const kept = await s.points.putDefaultConfig(realm, { freePeriodicGrantPeriodType: 'daily', freePeriodicValidityDays: 2 }, T0 + 1);
        assert.deepEqual(kept, { ...first, freePeriodicGrantPeriodType: 'daily', freePeriodicValidityDays: 2, updatedAt: T0 + 1 });
        assert.deepEqual(await s.points.getDefaultConfig(realm), kept);
        assert.deepEqual((await s.points.putDefaultConfig(realm, { freePeriodicQuotaWindows: [] }, T0 + 2)).freePeriodicQuotaWindows, []);
        assert.deepEqual((await s.points.getDefaultConfig(realm)).freePeriodicQuotaWindows, []);
        const replaced = await s.points.putDefaultConfig(realm, { freePeriodicQuotaWindows: [w(60, 1), w(86400, 2)] }, T0 + 3);
        assert.deepEqual((await s.points.getDefaultConfig(realm)).freePeriodicQuotaWindows, [w(60, 1), w(86400, 2)]);
        assert.equal(replaced.registrationBonusPoints, 5);
      });

      it('a configuration another replica wrote is seen on a later call', async () => {
        const realm = await seedRealm(s);
        await s.points.putDefaultConfig(realm, { registrationBonusPoints: 3 }, T0);
        assert.equal((await s.points.getDefaultConfig(realm)).registrationBonusPoints, 3); // now cached, if the backend caches
        const peer = await s.peer();
        await peer.points.putDefaultConfig(realm, { registrationBonusPoints: 42 }, T0 + 1);
        await nextTurn();
        assert.equal((await s.points.getDefaultConfig(realm)).registrationBonusPoints, 42);
        // …and new accounts get it.
        const { userId } = await account({ realm });
        assert.equal((await s.points.summary(realm, userId, T0)).balances.registration, 42);
      });
    });

    describe('registration', () => {
      it('grants the registration credit and the current free periodic grant, once however often it is asked', async () => {
        const realm = await seedRealm(s);
        await s.points.putDefaultConfig(
          realm,
          { registrationBonusPoints: 50, freePeriodicPointsAmount: 20, freePeriodicGrantPeriodType: 'daily', freePeriodicValidityDays: 1 },
          T0,
        );
        const { userId } = await account({ realm });
        await s.points.grantRegistration(realm, userId, T0 + 1);
        await Promise.all([s.points.grantRegistration(realm, userId, T0 + 2), s.points.grantRegistration(realm, userId, T0 + 2)]);
        const sum = await s.points.summary(realm, userId, T0 + 3);
        assert.deepEqual(sum.balances, { topup: 0, registration: 50, granted: 0, subscription: 0, freePeriodic: 20 });
        assert.equal(sum.total, 70);
        assert.equal((await s.points.listBalances(realm, userId)).length, 2);
      });

      it('grants a window entitlement when the free periodic configuration has windows', async () => {
        const realm = await seedRealm(s);
        await s.points.putDefaultConfig(realm, { freePeriodicQuotaWindows: [w(18000, 10), w(86400, 30)] }, T0);
        const { userId } = await account({ realm });
        const sum = await s.points.summary(realm, userId, T0);
        assert.deepEqual(
          sum.windows.map((x) => [x.key, x.limit, x.used]),
          [
            ['5h', 10, 0],
            ['day', 30, 0],
          ],
        );
        assert.equal(sum.spendableFromQuota, 10);
        assert.deepEqual(await s.points.listBalances(realm, userId), [], 'a window entitlement is not a balance');
      });
    });

    describe('grants and the stored records', () => {
      it('stores a grant as a balance under its grant id, and a consume as a transaction with its allocations', async () => {
        const { realm, userId } = await account();
        const g = await s.points.grant(grantCmd(realm, userId, 40, { kind: 'granted_credit', expiresAt: T0 + DAY }), T0);
        assert.deepEqual(g, { grantId: g.grantId, userId, kind: 'granted_credit', amount: 40, expiresAt: T0 + DAY, createdAt: T0 });
        const c = await s.points.consume(consumeCmd(realm, userId, 15, { description: 'a render' }), T0 + 1);
        assert.deepEqual(c.allocations, [{ creditKind: 'granted_credit', sourceId: g.grantId, amount: 15 }]);
        assert.deepEqual(c.remaining, { quota: 0, pool: 25, total: 25 });
        assert.deepEqual(await stored(realm, userId), {
          balances: [{ id: g.grantId, kind: 'granted_credit', amount: 40, remaining: 25, expiresAt: T0 + DAY, createdAt: T0, endedAt: null }],
          transactions: [{ transactionId: c.transactionId, userId, amount: 15, description: 'a render', allocations: c.allocations, createdAt: T0 + 1 }],
        });
      });

      it('refuses consume, grant and summary for an unknown user, writing nothing', async () => {
        const realm = await seedRealm(s);
        await rejectsWith(s.points.consume(consumeCmd(realm, 'no-such-user', 1), T0), 'not_found');
        await rejectsWith(s.points.grant(grantCmd(realm, 'no-such-user', 1), T0), 'not_found');
        await rejectsWith(s.points.summary(realm, 'no-such-user', T0), 'not_found');
        const other = await account();
        await rejectsWith(s.points.summary(realm, other.userId, T0), 'not_found');
        assert.deepEqual(await stored(realm, 'no-such-user'), { balances: [], transactions: [] });
      });

      it('a balance stops counting at its expiry', async () => {
        const { realm, userId } = await account();
        await s.points.grant(grantCmd(realm, userId, 10, { expiresAt: T0 + HOUR }), T0);
        assert.equal(await total(realm, userId, T0 + HOUR - 1), 10);
        assert.equal(await total(realm, userId, T0 + HOUR), 0);
        await rejectsWith(s.points.consume(consumeCmd(realm, userId, 1), T0 + HOUR), 'insufficient_points', { have: 0, need: 1 });
      });
    });

    describe('idempotency keys', () => {
      it('a consume replayed with the same key and body answers the first result and deducts nothing again', async () => {
        const { realm, userId } = await account({ topup: 100 });
        const first = await s.points.consume(consumeCmd(realm, userId, 10, { idempotencyKey: 'k1', requestHash: 'h1' }), T0);
        const again = await s.points.consume(consumeCmd(realm, userId, 10, { idempotencyKey: 'k1', requestHash: 'h1' }), T0 + 5 * SECOND);
        assert.deepEqual(again, first);
        assert.equal(await total(realm, userId), 90);
        assert.equal((await s.points.listTransactions(realm, userId)).length, 1);
      });

      it('a consume replay answers the first result even after the points ran out', async () => {
        const { realm, userId } = await account({ topup: 10 });
        const first = await s.points.consume(consumeCmd(realm, userId, 10, { idempotencyKey: 'all', requestHash: 'h' }), T0);
        assert.deepEqual(await s.points.consume(consumeCmd(realm, userId, 10, { idempotencyKey: 'all', requestHash: 'h' }), T0 + 1), first);
      });

      it('a consume with a used key and another body is idempotency_conflict and deducts nothing', async () => {
        const { realm, userId } = await account({ topup: 100 });
        await s.points.consume(consumeCmd(realm, userId, 10, { idempotencyKey: 'k2', requestHash: 'h1' }), T0);
        const before = await stored(realm, userId);
        await rejectsWith(s.points.consume(consumeCmd(realm, userId, 11, { idempotencyKey: 'k2', requestHash: 'h2' }), T0 + 1), 'idempotency_conflict', {
          idempotencyKey: 'k2',
        });
        assert.deepEqual(await stored(realm, userId), before);
      });

      it(`${N} concurrent consumes with one key and body deduct once and all answer the same`, async () => {
        const { realm, userId } = await account({ topup: 1000 });
        const results = await Promise.all(
          Array.from({ length: N }, () => s.points.consume(consumeCmd(realm, userId, 7, { idempotencyKey: 'dup', requestHash: 'h' }), T0)),
        );
        for (const r of results) assert.deepEqual(r, results[0]);
        assert.equal(await total(realm, userId), 993);
        assert.equal((await s.points.listTransactions(realm, userId)).length, 1);
      });

      it('a grant replayed with the same key and body answers the first grant and adds nothing; another body is a conflict', async () => {
        const { realm, userId } = await account();
        const first = await s.points.grant(grantCmd(realm, userId, 30, { idempotencyKey: 'g1', requestHash: 'h1' }), T0);
        const again = await s.points.grant(grantCmd(realm, userId, 30, { idempotencyKey: 'g1', requestHash: 'h1' }), T0 + 1);
        assert.deepEqual(again, first);
        await rejectsWith(s.points.grant(grantCmd(realm, userId, 31, { idempotencyKey: 'g1', requestHash: 'h2' }), T0 + 2), 'idempotency_conflict', {
          idempotencyKey: 'g1',
        });
        assert.equal(await total(realm, userId), 30);
        assert.deepEqual(
          (await s.points.listBalances(realm, userId)).map((b) => b.id),
          [first.grantId],
        );
      });

      it('keys are per realm and per use: a consume key, a grant key and another realm do not meet', async () => {
        const a = await account({ topup: 100 });
        const b = await account({ topup: 100 });
        await s.points.consume(consumeCmd(a.realm, a.userId, 5, { idempotencyKey: 'shared', requestHash: 'consume' }), T0);
        await s.points.grant(grantCmd(a.realm, a.userId, 5, { idempotencyKey: 'shared', requestHash: 'grant' }), T0);
        await s.points.consume(consumeCmd(b.realm, b.userId, 7, { idempotencyKey: 'shared', requestHash: 'other realm' }), T0);
        assert.equal(await total(a.realm, a.userId), 100);
        assert.equal(await total(b.realm, b.userId), 93);
      });
    });

    describe('all or nothing', () => {
      it('insufficient_points reports have and need and changes nothing', async () => {
        const realm = await seedRealm(s);
        await s.points.putDefaultConfig(realm, { freePeriodicQuotaWindows: [w(18000, 10)] }, T0);
        const { userId } = await account({ realm, topup: 30 });
        const before = await stored(realm, userId);
        const sumBefore = await s.points.summary(realm, userId, T0);
        await rejectsWith(s.points.consume(consumeCmd(realm, userId, 41), T0), 'insufficient_points', { have: 40, need: 41 });
        assert.deepEqual(await stored(realm, userId), before);
        assert.deepEqual(await s.points.summary(realm, userId, T0), sumBefore, 'window usage untouched');
      });

      it('a refused consume leaves no periodic grant it materialised behind', async () => {
        const realm = await seedRealm(s);
        await s.points.putDefaultConfig(realm, { freePeriodicPointsAmount: 20, freePeriodicGrantPeriodType: 'daily', freePeriodicValidityDays: 1 }, T0);
        const { userId } = await account({ realm });
        const day1 = await s.points.listBalances(realm, userId);
        assert.equal(day1.length, 1);
        // The next day's grant is due; a consume too large for it is refused, and it was not kept.
        const nextDay = T0 + DAY;
        await rejectsWith(s.points.consume(consumeCmd(realm, userId, 21), nextDay), 'insufficient_points', { have: 20, need: 21 });
        assert.deepEqual(await s.points.listBalances(realm, userId), day1);
        // Reading materialises it, once.
        assert.equal(await total(realm, userId, nextDay), 20);
        assert.equal((await s.points.listBalances(realm, userId)).length, 2);
      });
    });

    describe('no double spend', () => {
      it(`${N} concurrent consumes over a balance that covers some: never more than there was, and exact balances after`, async () => {
        const realm = await seedRealm(s);
        await s.points.putDefaultConfig(realm, { freePeriodicQuotaWindows: [w(18000, 40)] }, T0);
        const { userId } = await account({ realm, topup: 60 });
        assert.equal(await total(realm, userId), 100);
        const results = await Promise.all(
          Array.from({ length: N }, () =>
            s.points.consume(consumeCmd(realm, userId, 7), T0 + SECOND).then(
              (r) => ({ ok: true as const, r }),
              (e: unknown) => ({ ok: false as const, e }),
            ),
          ),
        );
        const accepted = results.flatMap((x) => (x.ok ? [x.r] : []));
        const refused = results.flatMap((x) => (x.ok ? [] : [x.e]));
        const spent = accepted.reduce((sum, r) => sum + r.amount, 0);
        assert.ok(spent <= 100, `accepted ${spent} > 100`);
        assert.ok(refused.length > 0, 'demand exceeded supply');
        for (const e of refused) {
          assert.ok(e instanceof GatehouseError && e.code === 'insufficient_points', String(e));
          assert.ok((e.extra.have as number) < 7);
        }
        const after = await s.points.summary(realm, userId, T0 + SECOND);
        assert.equal(after.total, 100 - spent);
        assert.ok(after.total < 7, 'every consume that fitted was accepted');
        const fromQuota = accepted
          .flatMap((r) => r.allocations)
          .filter((a) => a.creditKind === 'free_periodic_credit')
          .reduce((x, a) => x + a.amount, 0);
        assert.equal(after.windows[0]!.used, fromQuota);
        assert.equal(fromQuota, 40, 'quota before pools: the window filled up');
        const tx = await s.points.listTransactions(realm, userId);
        assert.deepEqual(tx.map((t) => t.transactionId).sort(), accepted.map((r) => r.transactionId).sort());
        const [bal] = await s.points.listBalances(realm, userId);
        const drawn = accepted
          .flatMap((r) => r.allocations)
          .filter((a) => a.sourceId === bal!.id)
          .reduce((x, a) => x + a.amount, 0);
        assert.equal(bal!.remaining, 60 - drawn);
        assert.ok(bal!.remaining >= 0);
      });
    });

    describe('windows', () => {
      it('draws window quota before balances and gives it back when the window has passed', async () => {
        const realm = await seedRealm(s);
        await s.points.putDefaultConfig(realm, { freePeriodicQuotaWindows: [w(60, 10)] }, T0);
        const { userId } = await account({ realm, topup: 100 });
        const c = await s.points.consume(consumeCmd(realm, userId, 15), T0);
        assert.deepEqual(
          c.allocations.map((a) => [a.creditKind, a.amount]),
          [
            ['free_periodic_credit', 10],
            ['topup_credit', 5],
          ],
        );
        const during = await s.points.summary(realm, userId, T0 + 60 * SECOND - 1);
        assert.deepEqual([during.windows[0]!.used, during.windows[0]!.nextRecoveryAt], [10, T0 + 60 * SECOND]);
        const later = await s.points.summary(realm, userId, T0 + 60 * SECOND);
        assert.deepEqual([later.windows[0]!.used, later.spendableFromQuota, later.spendableFromPool], [0, 10, 95]);
      });

      it('counts usage per window exactly across many consumes', async () => {
        const realm = await seedRealm(s);
        await s.points.putDefaultConfig(realm, { freePeriodicQuotaWindows: [w(3600, 1000), w(86400, 1000)] }, T0);
        const { userId } = await account({ realm });
        // 40 consumes of 3, one every 15 minutes: 10 hours.
        for (let i = 0; i < 40; i++) await s.points.consume(consumeCmd(realm, userId, 3), T0 + i * 15 * 60 * SECOND);
        const now = T0 + 39 * 15 * 60 * SECOND;
        const sum = await s.points.summary(realm, userId, now);
        assert.deepEqual(
          sum.windows.map((x) => [x.key, x.used]),
          [
            ['1h', 12],
            ['day', 120],
          ],
        );
      });

      it('a window granted later still sees what was consumed inside it before', async () => {
        const realm = await seedRealm(s);
        const { userId } = await account({ realm });
        const [short, long] = await s.billing.applyMappingBatch(
          realm,
          'stripe',
          'p',
          [
            { entitlementKey: 'short', quotaWindows: [w(3600, 10)] },
            { entitlementKey: 'long', quotaWindows: [w(604800, 100)] },
          ],
          T0,
        );
        await s.billing.createSubscription({ realmId: realm, userId, mappingId: short!.id, externalSubscriptionId: null, id: unique('sub') }, T0);
        let now = T0;
        for (let i = 0; i < 20; i++, now += 3 * HOUR) await s.points.consume(consumeCmd(realm, userId, 2), now);
        await s.billing.createSubscription({ realmId: realm, userId, mappingId: long!.id, externalSubscriptionId: null, id: unique('sub') }, now);
        const sum = await s.points.summary(realm, userId, now);
        assert.deepEqual(
          sum.windows.map((x) => [x.key, x.used]),
          [
            ['1h', 0],
            ['week', 40],
          ],
        );
      });

      it('a free periodic entitlement keeps the windows it was granted with after the configuration changes (snapshot rule)', async () => {
        const realm = await seedRealm(s);
        await s.points.putDefaultConfig(realm, { freePeriodicGrantPeriodType: 'monthly', freePeriodicQuotaWindows: [w(18000, 10)] }, T0);
        const early = await account({ realm });
        await s.points.putDefaultConfig(realm, { freePeriodicQuotaWindows: [w(18000, 25), w(86400, 40)] }, T0 + 1);
        const late = await account({ realm, now: T0 + 1 });
        const keys = async (userId: string, now: number) => (await s.points.summary(realm, userId, now)).windows.map((x) => [x.key, x.limit]);
        assert.deepEqual(await keys(early.userId, T0 + 2), [['5h', 10]]);
        assert.deepEqual(await keys(late.userId, T0 + 2), [
          ['5h', 25],
          ['day', 40],
        ]);
        // The next period's grant takes the configuration of its time.
        assert.deepEqual(await keys(early.userId, Date.UTC(2026, 3, 1, 0, 0, 1)), [
          ['5h', 25],
          ['day', 40],
        ]);
      });
    });

    describe('idempotency answers and alerts', () => {
      it('prunes the stored idempotency answers made before a time, at most `limit` at once, after which the key is new again', async () => {
        const own = await factory(); // a database of its own: the counts are exact
        try {
          const realm = await seedRealm(own);
          const user = await seedUser(own, realm);
          await own.points.grant(grantCmd(realm, user.id, 100), T0);
          const keyed = (key: string, at: number) => own.points.consume(consumeCmd(realm, user.id, 1, { idempotencyKey: key, requestHash: 'h' }), at);
          for (const key of ['k1', 'k2', 'k3']) await keyed(key, T0 + SECOND);
          const kept = await keyed('k4', T0 + DAY);
          assert.equal(await own.points.pruneIdempotency(T0 + HOUR, 2), 2);
          assert.equal(await own.points.pruneIdempotency(T0 + HOUR, 2), 1);
          assert.equal(await own.points.pruneIdempotency(T0 + HOUR, 2), 0);
          // A pruned key deducts again; a kept one still answers its first result.
          assert.equal((await keyed('k1', T0 + DAY)).remaining.total, 95);
          assert.deepEqual(await keyed('k4', T0 + DAY), kept);
          await rejectsWith(
            own.points.consume(consumeCmd(realm, user.id, 1, { idempotencyKey: 'k4', requestHash: 'other' }), T0 + DAY),
            'idempotency_conflict',
          );
        } finally {
          await own.close();
        }
      });

      it('alerts turned on after consumes made with them off apply from the next consume', async () => {
        const realm = await seedRealm(s);
        await subscribeToEveryEvent(s, realm, T0);
        await s.points.putDefaultConfig(
          realm,
          { registrationBonusPoints: 100, freePeriodicPointsAmount: 0, freePeriodicGrantPeriodType: 'once', freePeriodicQuotaWindows: [] },
          T0,
        );
        const user = await seedUser(s, realm);
        await s.points.grantRegistration(realm, user.id, T0);
        const lows = async () => (await s.records.events(realm, { limit: 100 })).filter((e) => e.type === 'points.balance_low').map((e) => e.data);
        await s.points.consume(consumeCmd(realm, user.id, 10), T0 + MINUTE); // 90 left, every alert off
        assert.deepEqual(await lows(), []);
        await s.points.putAlerts(realm, { lowBalanceThresholds: [50], quotaExhausted: false, quotaRecovered: false }, T0 + 2 * MINUTE);
        await s.points.consume(consumeCmd(realm, user.id, 45), T0 + 3 * MINUTE); // 45 left: below 50
        assert.equal((await lows()).length, 1);
      });

      it("reports a threshold once whichever replica's consume crossed it, again once a grant has lifted the total back, and not for a consume that rolled back", async () => {
        const realm = await seedRealm(s);
        await s.points.putAlerts(realm, { lowBalanceThresholds: [50], quotaExhausted: false, quotaRecovered: false }, T0);
        await subscribeToEveryEvent(s, realm, T0);
        const user = await userOf100AndWindowOf10(realm); // 110: 100 and the window's 10
        const peer = await s.peer();
        const lows = async () => (await s.records.events(realm, { type: 'points.balance_low', limit: 10 })).map((e) => e.data.total);
        const first = await s.points.consume(consumeCmd(realm, user.id, 55), T0 + 1); // 55
        await peer.points.consume(consumeCmd(realm, user.id, 10), T0 + 2); // 45: the peer reports it
        await s.points.consume(consumeCmd(realm, user.id, 1), T0 + 3); // 44: reported already
        assert.deepEqual(await lows(), [45]);
        await s.points.grant(grantCmd(realm, user.id, 20), T0 + 4); // 64: armed again
        // A consume whose movement cannot be written (its transaction id is taken) rolls back whole,
        // the alert state it decided with it.
        await assert.rejects(s.points.consume(consumeCmd(realm, user.id, 20, { transactionId: first.transactionId }), T0 + 5));
        await s.points.consume(consumeCmd(realm, user.id, 20), T0 + 6); // 44
        assert.deepEqual(await lows(), [44, 45]);
      });

      /** A user of the realm with 100 registration points and one window of 10 an hour. */
      const userOf100AndWindowOf10 = async (realm: string) => {
        await s.points.putDefaultConfig(
          realm,
          { registrationBonusPoints: 100, freePeriodicPointsAmount: 0, freePeriodicGrantPeriodType: 'once', freePeriodicQuotaWindows: [w(3600, 10)] },
          T0,
        );
        const user = await seedUser(s, realm);
        await s.points.grantRegistration(realm, user.id, T0);
        return user;
      };

      it('keeps the realm’s alert configuration, all off until saved; a consume writes balance_low and quota_exhausted, the recovery check quota_recovered at the window’s recovery', async () => {
        const realm = await seedRealm(s);
        assert.deepEqual(await s.points.getAlerts(realm), {
          realmId: realm,
          lowBalanceThresholds: [],
          quotaExhausted: false,
          quotaRecovered: false,
          updatedAt: null,
        });
        const config = { lowBalanceThresholds: [20, 50], quotaExhausted: true, quotaRecovered: true };
        const saved = await s.points.putAlerts(realm, config, T0);
        await subscribeToEveryEvent(s, realm, T0); // the outbox keeps what an endpoint is owed
        assert.deepEqual(saved, { realmId: realm, ...config, updatedAt: T0 });
        assert.deepEqual(await s.points.getAlerts(realm), saved);
        const user = await userOf100AndWindowOf10(realm);
        const events = async () =>
          (await s.records.events(realm, { limit: 100 }))
            .filter((e) => e.type.startsWith('points.') && e.type !== 'points.granted' && e.type !== 'points.consumed')
            .sort((a, b) => a.createdAt - b.createdAt)
            .map((e) => [e.type, e.data]);
        const at = T0 + MINUTE;
        await s.points.consume(consumeCmd(realm, user.id, 10), at); // the window's 10
        await s.points.consume(consumeCmd(realm, user.id, 55), at + SECOND); // 100 → 45: below 50, not 20
        await s.points.checkAlerts(realm, user.id, at + HOUR - 1);
        assert.deepEqual(await events(), [
          [
            'points.quota_exhausted',
            {
              userId: user.id,
              creditKind: 'free_periodic_credit',
              windowKey: '1h',
              windowSeconds: 3600,
              limit: 10,
              nextRecoveryAt: at + HOUR,
              resetsAt: at + HOUR,
            },
          ],
          ['points.balance_low', { userId: user.id, threshold: 50, total: 45 }],
        ]);
        await s.points.checkAlerts(realm, user.id, at + HOUR);
        await s.points.checkAlerts(realm, user.id, at + HOUR + SECOND); // reported once
        assert.deepEqual((await events()).slice(2), [
          ['points.quota_recovered', { userId: user.id, creditKind: 'free_periodic_credit', windowKey: '1h', remaining: 10, at: at + HOUR }],
        ]);
        await s.points.checkAlerts(realm, 'usr_gone', at + HOUR); // nothing for a user that is gone
      });

      it('records each put of the alert configuration with its caller, each changed field before and after, and none without a caller', async () => {
        const realm = await seedRealm(s);
        const caller = (requestId: string) => ({ actor: { type: 'api_key' as const, id: 'key_alerts' }, requestId });
        await s.points.putAlerts(realm, { lowBalanceThresholds: [20, 50], quotaExhausted: true, quotaRecovered: false }, T0, caller('req_1'));
        await s.points.putAlerts(realm, { lowBalanceThresholds: [20], quotaExhausted: true, quotaRecovered: true }, T0 + SECOND, caller('req_2'));
        await s.points.putAlerts(realm, { lowBalanceThresholds: [], quotaExhausted: true, quotaRecovered: true }, T0 + 2 * SECOND);
        const records = await s.records.audit(realm, { action: 'points_alerts.update', limit: 10 });
        assert.deepEqual(
          records.map((r) => ({ ...r, auditId: undefined })),
          [
            {
              auditId: undefined,
              at: T0 + SECOND,
              realmId: realm,
              actor: { type: 'api_key', id: 'key_alerts' },
              action: 'points_alerts.update',
              targetId: realm,
              changes: { lowBalanceThresholds: { before: [20, 50], after: [20] }, quotaRecovered: { before: false, after: true } },
              requestId: 'req_2',
            },
            {
              auditId: undefined,
              at: T0,
              realmId: realm,
              actor: { type: 'api_key', id: 'key_alerts' },
              action: 'points_alerts.update',
              targetId: realm,
              changes: { lowBalanceThresholds: { before: [], after: [20, 50] }, quotaExhausted: { before: false, after: true } },
              requestId: 'req_1',
            },
          ],
          'newest first; the first put from all off, the put without a caller not at all',
        );
        assert.deepEqual((await s.points.getAlerts(realm)).lowBalanceThresholds, []);
      });

      it('a consume writes its points.consumed event only while an enabled endpoint of its realm subscribes to its type (or to every type)', async () => {
        const realm = await seedRealm(s);
        const other = await seedRealm(s);
        const user = await userOf100AndWindowOf10(realm);
        const actor = { type: 'system' as const, id: 'test' };
        const endpointIn = async (r: string, eventTypes: string[], enabled = true) => {
          const e = createdEndpoint({ realmId: r, url: 'https://hooks.example/in', eventTypes, description: '', enabled }, T0);
          await s.webhooks.create(e, webhookAuditRecord('create', null, e, actor, null, T0));
        };
        const consumed = async () => (await s.records.events(realm, { type: 'points.consumed', limit: 100 })).map((e) => e.data.transactionId);
        await s.points.consume(consumeCmd(realm, user.id, 1), T0 + SECOND);
        await endpointIn(realm, ['points.refunded']);
        await endpointIn(realm, ['points.consumed'], false);
        await endpointIn(other, ['*']);
        await s.points.consume(consumeCmd(realm, user.id, 1), T0 + 2 * SECOND);
        assert.deepEqual(await consumed(), [], 'no endpoint, then another type, a disabled endpoint, another realm');
        await endpointIn(realm, ['points.refunded', 'points.consumed']);
        const third = await s.points.consume(consumeCmd(realm, user.id, 1), T0 + 3 * SECOND);
        assert.deepEqual(await consumed(), [third.transactionId], 'its type');
        const everything = await seedRealm(s);
        const another = await userOf100AndWindowOf10(everything);
        await endpointIn(everything, ['*']);
        const fourth = await s.points.consume(consumeCmd(everything, another.id, 1), T0 + 4 * SECOND);
        const events = await s.records.events(everything, { type: 'points.consumed', limit: 100 });
        assert.deepEqual(
          events.map((e) => e.data),
          [{ userId: another.id, transactionId: fourth.transactionId, amount: 1, allocations: fourth.allocations, holdId: null }],
          '"*"',
        );
      });

      it('a consume writes its points.consumed event once another replica has subscribed an endpoint, and none once it has disabled it', async () => {
        const realm = await seedRealm(s);
        const user = await userOf100AndWindowOf10(realm);
        const peer = await s.peer();
        const actor = { type: 'system' as const, id: 'test' };
        const consumed = async () => (await s.records.events(realm, { type: 'points.consumed', limit: 100 })).map((e) => e.data.transactionId);
        await s.points.consume(consumeCmd(realm, user.id, 1), T0 + SECOND); // no endpoint: nothing owed
        const e = createdEndpoint({ realmId: realm, url: 'https://hooks.example/in', eventTypes: ['points.consumed'], description: '', enabled: true }, T0);
        await peer.webhooks.create(e, webhookAuditRecord('create', null, e, actor, null, T0));
        const second = await s.points.consume(consumeCmd(realm, user.id, 1), T0 + 2 * SECOND);
        assert.deepEqual(await consumed(), [second.transactionId], "the peer's endpoint is seen at once");
        await peer.webhooks.update(realm, e.id, (current) => {
          const endpoint = { ...current, enabled: false };
          return { endpoint, audit: webhookAuditRecord('update', current, endpoint, actor, null, T0) };
        });
        await s.points.consume(consumeCmd(realm, user.id, 1), T0 + 3 * SECOND);
        assert.deepEqual(await consumed(), [second.transactionId], 'nor is it owed once the peer has disabled the endpoint');
      });

      it("keeps a consume's and a settlement's event as a mark on the movement: listed and counted in the outbox, handed out once in its order, as planned, then kept as a dispatched row", async () => {
        const realm = await seedRealm(s);
        const endpoint = createdEndpoint({ realmId: realm, url: 'https://hooks.example/in', eventTypes: ['*'], description: '', enabled: true }, T0);
        await s.webhooks.create(endpoint, webhookAuditRecord('create', null, endpoint, { type: 'system', id: 'test' }, null, T0));
        const noDeliveries = () => ({ deliveries: [], jobs: [] });
        // Whatever earlier tests left in the outbox is handed out first.
        while ((await s.webhooks.dispatch(T0, 100, noDeliveries)).events > 0);
        const user = await userOf100AndWindowOf10(realm);
        const first = await s.points.consume(consumeCmd(realm, user.id, 3), T0 + SECOND);
        const grant = await s.points.grant(grantCmd(realm, user.id, 5), T0 + 2 * SECOND);
        const hold = await s.points.hold(
          { realmId: realm, userId: user.id, amount: 4, ttlSeconds: 60, description: null, idempotencyKey: null, requestHash: '', holdId: unique('hld') },
          T0 + 3 * SECOND,
        );
        const settled = await s.points.settle(
          { realmId: realm, holdId: hold.holdId, amount: 2, description: null, idempotencyKey: null, requestHash: '', transactionId: unique('ptx') },
          T0 + 4 * SECOND,
        );
        const last = await s.points.consume(consumeCmd(realm, user.id, 1), T0 + 5 * SECOND);
        const listed = async () => (await s.records.events(realm, { limit: 100 })).map((e) => [e.type, e.createdAt, e.data.transactionId ?? e.data.grantId]);
        const expected = [
          ['points.consumed', T0 + 5 * SECOND, last.transactionId],
          ['points.consumed', T0 + 4 * SECOND, settled.transactionId],
          ['points.granted', T0 + 2 * SECOND, grant.grantId],
          ['points.consumed', T0 + SECOND, first.transactionId],
        ];
        assert.deepEqual((await listed()).slice(0, 4), expected, 'newest first, the marked movements among the rows');
        const events = await s.records.events(realm, { type: 'points.consumed', limit: 100 });
        assert.deepEqual(
          events.map((e) => [e.id, e.data]),
          [
            [
              consumedEventId(last.transactionId),
              { userId: user.id, transactionId: last.transactionId, amount: 1, allocations: last.allocations, holdId: null },
            ],
            [
              consumedEventId(settled.transactionId),
              { userId: user.id, transactionId: settled.transactionId, amount: 2, allocations: settled.allocations, holdId: hold.holdId },
            ],
            [
              consumedEventId(first.transactionId),
              { userId: user.id, transactionId: first.transactionId, amount: 3, allocations: first.allocations, holdId: null },
            ],
          ],
        );
        const outbox = await s.webhooks.outbox();
        assert.ok(outbox.depth >= 4 && outbox.oldestCreatedAt !== null && outbox.oldestCreatedAt <= T0 + SECOND);
        assert.ok(await s.webhooks.anyUndispatched());
        // Two replicas hand out together, two events at a time: each event once, each batch oldest first.
        const peer = await s.peer();
        const handed: string[][] = [];
        const plan = (batch: { id: string }[]) => {
          handed.push(batch.map((e) => e.id));
          return { deliveries: [], jobs: [] };
        };
        await Promise.all([s.webhooks.dispatch(T0 + HOUR, 2, plan), peer.webhooks.dispatch(T0 + HOUR, 2, plan)]);
        while ((await s.webhooks.dispatch(T0 + HOUR, 2, plan)).events > 0);
        const ids = handed.flat();
        assert.equal(new Set(ids).size, ids.length, 'no event handed twice');
        for (const e of events) assert.ok(ids.includes(e.id), `${e.id} handed out`);
        assert.equal(await s.webhooks.anyUndispatched(), false);
        assert.deepEqual(await s.webhooks.outbox(), { depth: 0, oldestCreatedAt: null });
        assert.deepEqual((await listed()).slice(0, 4), expected, 'the same events, now rows of the outbox');
        assert.deepEqual(await s.records.events(realm, { type: 'points.consumed', limit: 100 }), events);
      });

      it("writes out an account's owed consume events when it is deleted, and keeps a movement whose event is owed through the history's prune", async () => {
        const realm = await seedRealm(s);
        await subscribeToEveryEvent(s, realm, T0);
        while ((await s.webhooks.dispatch(T0, 100, () => ({ deliveries: [], jobs: [] }))).events > 0);
        const user = await userOf100AndWindowOf10(realm);
        const old = await s.points.consume(consumeCmd(realm, user.id, 1), T0);
        // A consume past the history's cutoff whose id makes it prune the history (history.ts prunesHistory).
        let pruning = unique('ptx');
        while (!prunesHistory(pruning)) pruning = unique('ptx');
        const late = T0 + historyRetention.ms + SECOND;
        await s.points.consume(consumeCmd(realm, user.id, 1, { transactionId: pruning }), late);
        const consumed = async () => (await s.records.events(realm, { type: 'points.consumed', limit: 100 })).map((e) => e.data.transactionId);
        assert.deepEqual(await consumed(), [pruning, old.transactionId], 'the old movement stays while its event is owed');
        assert.deepEqual(
          (await s.points.listTransactions(realm, user.id)).map((t) => t.transactionId),
          [old.transactionId, pruning],
        );
        // Deleted, and purged at once: the purge job held by this test.
        let jobId = '';
        await s.users.deleteAccount(realm, user.id, (snap) => {
          const p = planAccountDeletion(snap, { realmId: realm, userId: user.id, actor: { type: 'system', id: 'test' }, requestId: null }, late, []);
          const jobs = p.emitted.jobs.map((j) => (j.kind === USER_PURGE ? claimed(j, 'owner-a', late, USER_PURGE_POLICY) : j));
          jobId = jobs.find((j) => j.kind === USER_PURGE)!.id;
          return { ...p, emitted: { ...p.emitted, jobs } };
        });
        const purged = await s.users.purgeAccountBatch(user.id, { jobId, owner: 'owner-a', until: late + USER_PURGE_POLICY.leaseMs, now: late });
        assert.equal(purged?.finished, true);
        assert.deepEqual(await s.points.listTransactions(realm, user.id), [], 'the movements are purged');
        assert.deepEqual(await consumed(), [pruning, old.transactionId], 'their events written out as outbox rows by the deletion');
        const handed: string[] = [];
        while ((await s.webhooks.dispatch(late + HOUR, 100, (batch) => (handed.push(...batch.map((e) => e.id)), { deliveries: [], jobs: [] }))).events > 0);
        assert.ok(handed.includes(consumedEventId(old.transactionId)) && handed.includes(consumedEventId(pruning)));
      });

      it('a consume that exhausts a window used before reports its recovery at the oldest usage, its reset at the newest', async () => {
        const realm = await seedRealm(s);
        await s.points.putAlerts(realm, { lowBalanceThresholds: [], quotaExhausted: true, quotaRecovered: true }, T0);
        await subscribeToEveryEvent(s, realm, T0);
        const user = await userOf100AndWindowOf10(realm);
        const at = T0 + MINUTE;
        await s.points.consume(consumeCmd(realm, user.id, 4), at);
        // The state before this consume is read without the window's times: the alert's are exact all the same.
        await s.points.consume(consumeCmd(realm, user.id, 7), at + 5 * MINUTE); // 6 from the window, 1 from the balance
        await s.points.consume(consumeCmd(realm, user.id, 1), at + 6 * MINUTE); // at 0 already: nothing new
        const alerts = (await s.records.events(realm, { limit: 100 })).filter((e) => e.type === 'points.quota_exhausted').map((e) => e.data);
        assert.deepEqual(alerts, [
          {
            userId: user.id,
            creditKind: 'free_periodic_credit',
            windowKey: '1h',
            windowSeconds: 3600,
            limit: 10,
            nextRecoveryAt: at + HOUR,
            resetsAt: at + 5 * MINUTE + HOUR,
          },
        ]);
      });
    });
  });
}
