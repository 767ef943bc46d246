// BillingStore contract: entitlement mapping batches (every row or none), subscriptions that grant
// their entitlement from a snapshot of the mapping, duplicate deliveries, and cancellation.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { MappingPatch } from '../../server/billing/model.ts';
import type { NotificationFacts } from '../../server/billing/notifications.ts';
import { settingsAudit } from '../../server/billing/provider-records.ts';
import type { QuotaWindow } from '../../server/points/model.ts';
import { rejectsWith, type StoreFactory, type StoreFixture, seedRealm, seedUser, T0, unique } from './contract.ts';

const N = 12;
const w = (windowSeconds: number, limit: number): QuotaWindow => ({ windowSeconds, limit });

export function describeBillingStore(backend: string, factory: StoreFactory): void {
  describe(`${backend}: BillingStore`, () => {
    let s: StoreFixture;
    before(async () => (s = await factory()));
    after(() => s.close());

    const batch = (realm: string, rows: MappingPatch[], product = 'pro', now = T0) => s.billing.applyMappingBatch(realm, 'stripe', product, rows, now);
    const mapping = async (realm: string, row: MappingPatch, product = 'pro') => (await batch(realm, [row], product))[0]!;
    const list = (realm: string, product = 'pro') => s.billing.listMappings(realm, { paymentProvider: 'stripe', externalProductId: product });
    const subscribe = (realm: string, userId: string, mappingId: string, externalSubscriptionId: string | null = null, now = T0) =>
      s.billing.createSubscription({ realmId: realm, userId, mappingId, externalSubscriptionId, id: unique('sub') }, now);
    const setup = async () => {
      const realm = await seedRealm(s);
      const user = await seedUser(s, realm);
      return { realm, userId: user.id };
    };

    describe('mapping batches', () => {
      it('creates mappings with the defaults for what a row leaves out', async () => {
        const realm = await seedRealm(s);
        const m = await mapping(realm, { entitlementKey: 'pro', quotaWindows: [w(18000, 10)] });
        assert.deepEqual(m, {
          id: m.id,
          realmId: realm,
          paymentProvider: 'stripe',
          externalProductId: 'pro',
          entitlementKey: 'pro',
          billingType: 'recurring',
          billingPeriod: 'monthly',
          pointsPerPeriod: 0,
          grantPeriodType: 'monthly',
          validityDays: 0,
          grantOnSubscribe: true,
          maxPeriods: 0,
          enabled: true,
          quotaWindows: [w(18000, 10)],
          activeSubscriptions: 0,
          createdAt: T0,
          updatedAt: T0,
        });
        assert.deepEqual(await list(realm), [m]);
      });

      it('updates only the fields a row gives, and clears the windows with null', async () => {
        const realm = await seedRealm(s);
        const m = await mapping(realm, { entitlementKey: 'pro', pointsPerPeriod: 5, quotaWindows: [w(60, 1)] });
        const [u] = await batch(realm, [{ mappingId: m.id, entitlementKey: 'pro-2', validityDays: 30 }], 'pro', T0 + 1);
        assert.deepEqual(u, { ...m, entitlementKey: 'pro-2', validityDays: 30, updatedAt: T0 + 1 });
        const [cleared] = await batch(realm, [{ mappingId: m.id, quotaWindows: null }], 'pro', T0 + 2);
        assert.equal(cleared!.quotaWindows, null);
        assert.deepEqual(await list(realm), [cleared]);
      });

      it('lists by payment provider and product', async () => {
        const realm = await seedRealm(s);
        const a = await mapping(realm, { entitlementKey: 'a' }, 'a');
        const b = await mapping(realm, { entitlementKey: 'b' }, 'b');
        const [c] = await s.billing.applyMappingBatch(realm, 'apple', 'a', [{ entitlementKey: 'c' }], T0);
        assert.deepEqual(
          (await s.billing.listMappings(realm, {})).map((m) => m.id),
          [c!.id, a.id, b.id],
        );
        assert.deepEqual(
          (await s.billing.listMappings(realm, { paymentProvider: 'stripe' })).map((m) => m.id),
          [a.id, b.id],
        );
        assert.deepEqual(
          (await s.billing.listMappings(realm, { externalProductId: 'a' })).map((m) => m.id),
          [c!.id, a.id],
        );
        assert.deepEqual(await s.billing.listMappings(await seedRealm(s), {}), []);
      });

      it('refuses an unknown realm', async () => {
        await rejectsWith(batch('no-such-realm', [{ entitlementKey: 'x' }]), 'not_found');
        await rejectsWith(s.billing.listMappings('no-such-realm', {}), 'not_found');
      });

      it('an unknown mapping id (or one of another product) is not_found naming its row, and saves no row of the batch', async () => {
        const realm = await seedRealm(s);
        const m = await mapping(realm, { entitlementKey: 'pro' });
        const elsewhere = await mapping(realm, { entitlementKey: 'other' }, 'other');
        const before = await s.billing.listMappings(realm, {});
        for (const bad of ['no-such-mapping', elsewhere.id]) {
          await rejectsWith(
            batch(realm, [{ mappingId: m.id, entitlementKey: 'changed' }, { entitlementKey: 'new' }, { mappingId: bad, enabled: false }]),
            'not_found',
            { field: 'updates[2].mappingId' },
          );
        }
        assert.deepEqual(await s.billing.listMappings(realm, {}), before);
      });

      it('disabling a mapping with active subscriptions is mapping_in_use and saves no row of the batch', async () => {
        const { realm, userId } = await setup();
        const inUse = await mapping(realm, { entitlementKey: 'busy', quotaWindows: [w(60, 1)] });
        const idle = await mapping(realm, { entitlementKey: 'idle' });
        await subscribe(realm, userId, inUse.id);
        await subscribe(realm, (await seedUser(s, realm)).id, inUse.id);
        const before = await list(realm);
        assert.equal(before.find((m) => m.id === inUse.id)!.activeSubscriptions, 2);
        await rejectsWith(
          batch(realm, [
            { mappingId: idle.id, enabled: false },
            { entitlementKey: 'created' },
            { mappingId: inUse.id, entitlementKey: 'renamed', enabled: false },
          ]),
          'mapping_in_use',
          { mappingId: inUse.id, activeSubscriptions: 2 },
        );
        assert.deepEqual(await list(realm), before);
        // Other changes to a mapping in use go through.
        const [renamed] = await batch(realm, [{ mappingId: inUse.id, entitlementKey: 'renamed' }]);
        assert.equal(renamed!.entitlementKey, 'renamed');
      });

      it('a mapping can be disabled once its subscriptions are canceled, and then takes no new subscription', async () => {
        const { realm, userId } = await setup();
        const m = await mapping(realm, { entitlementKey: 'k', quotaWindows: [w(60, 1)] });
        const sub = await subscribe(realm, userId, m.id);
        await s.billing.cancelSubscription(realm, sub.id, T0 + 1);
        const [off] = await batch(realm, [{ mappingId: m.id, enabled: false }]);
        assert.deepEqual([off!.enabled, off!.activeSubscriptions], [false, 0]);
        await rejectsWith(subscribe(realm, userId, m.id), 'conflict', { mappingId: m.id });
      });
    });

    describe('subscriptions', () => {
      it('a mapping with windows grants a window entitlement', async () => {
        const { realm, userId } = await setup();
        const m = await mapping(realm, { entitlementKey: 'w', quotaWindows: [w(18000, 100)] });
        const sub = await s.billing.createSubscription({ realmId: realm, userId, mappingId: m.id, externalSubscriptionId: 'ext-1', id: 'sub-window-1' }, T0);
        assert.deepEqual(sub, {
          id: 'sub-window-1',
          realmId: realm,
          userId,
          mappingId: m.id,
          externalSubscriptionId: 'ext-1',
          status: 'active',
          entitlement: 'window',
          startedAt: T0,
          canceledAt: null,
        });
        const sum = await s.points.summary(realm, userId, T0);
        assert.deepEqual(
          sum.windows.map((x) => [x.creditKind, x.key, x.limit]),
          [['subscription_credit', '5h', 100]],
        );
        assert.equal((await list(realm))[0]!.activeSubscriptions, 1);
      });

      it('a mapping without windows grants a fixed balance of pointsPerPeriod; one with neither grants nothing', async () => {
        const { realm, userId } = await setup();
        const fixed = await mapping(realm, { entitlementKey: 'f', pointsPerPeriod: 250, validityDays: 30 });
        const none = await mapping(realm, { entitlementKey: 'n' });
        assert.equal((await subscribe(realm, userId, fixed.id)).entitlement, 'fixed');
        assert.equal((await subscribe(realm, userId, none.id)).entitlement, 'none');
        const sum = await s.points.summary(realm, userId, T0);
        assert.equal(sum.balances.subscription, 250);
        assert.deepEqual(sum.windows, []);
        const [bal] = await s.points.listBalances(realm, userId);
        assert.deepEqual([bal!.kind, bal!.amount, bal!.expiresAt], ['subscription_credit', 250, T0 + 30 * 86_400_000]);
      });

      it('refuses an unknown user or mapping, saving nothing', async () => {
        const { realm, userId } = await setup();
        const m = await mapping(realm, { entitlementKey: 'k', pointsPerPeriod: 5 });
        await rejectsWith(subscribe(realm, 'no-such-user', m.id), 'not_found');
        await rejectsWith(subscribe(realm, userId, 'no-such-mapping'), 'not_found', { field: 'mappingId' });
        assert.equal((await list(realm))[0]!.activeSubscriptions, 0);
      });

      it('the same externalSubscriptionId again (a webhook delivered twice) answers the first subscription and grants nothing twice', async () => {
        const { realm, userId } = await setup();
        const m = await mapping(realm, { entitlementKey: 'f', pointsPerPeriod: 100 });
        const first = await subscribe(realm, userId, m.id, 'ext-dup');
        const again = await subscribe(realm, userId, m.id, 'ext-dup', T0 + 1);
        assert.deepEqual(again, first);
        assert.equal((await s.points.summary(realm, userId, T0 + 1)).balances.subscription, 100);
        assert.equal((await list(realm))[0]!.activeSubscriptions, 1);
      });

      it(`${N} deliveries of one externalSubscriptionId at once make one subscription`, async () => {
        const { realm, userId } = await setup();
        const m = await mapping(realm, { entitlementKey: 'f', pointsPerPeriod: 100 });
        const subs = await Promise.all(Array.from({ length: N }, () => subscribe(realm, userId, m.id, 'ext-race')));
        assert.equal(new Set(subs.map((x) => x.id)).size, 1);
        assert.equal((await list(realm))[0]!.activeSubscriptions, 1);
        assert.equal((await s.points.summary(realm, userId, T0)).balances.subscription, 100);
      });

      it('an externalSubscriptionId held by another user or mapping is a conflict naming the field', async () => {
        const { realm, userId } = await setup();
        const m = await mapping(realm, { entitlementKey: 'f', pointsPerPeriod: 1 });
        const m2 = await mapping(realm, { entitlementKey: 'g', pointsPerPeriod: 1 });
        await subscribe(realm, userId, m.id, 'ext-taken');
        await rejectsWith(subscribe(realm, (await seedUser(s, realm)).id, m.id, 'ext-taken'), 'conflict', { field: 'externalSubscriptionId' });
        await rejectsWith(subscribe(realm, userId, m2.id, 'ext-taken'), 'conflict', { field: 'externalSubscriptionId' });
        const active = new Map((await list(realm)).map((x) => [x.id, x.activeSubscriptions]));
        assert.deepEqual([active.get(m.id), active.get(m2.id)], [1, 0]);
      });

      it('without an externalSubscriptionId every call is a new subscription, even of the same user and mapping', async () => {
        const { realm, userId } = await setup();
        const m = await mapping(realm, { entitlementKey: 'f', pointsPerPeriod: 10 });
        const a = await subscribe(realm, userId, m.id);
        const b = await subscribe(realm, userId, m.id);
        assert.notEqual(a.id, b.id);
        assert.equal((await list(realm))[0]!.activeSubscriptions, 2);
        assert.equal((await s.points.summary(realm, userId, T0)).balances.subscription, 20);
      });

      it('cancel ends the subscription and its entitlement; canceling again answers it unchanged', async () => {
        const { realm, userId } = await setup();
        const win = await mapping(realm, { entitlementKey: 'w', quotaWindows: [w(18000, 10)] });
        const fixed = await mapping(realm, { entitlementKey: 'f', pointsPerPeriod: 50 }, 'fixed');
        const a = await subscribe(realm, userId, win.id);
        const b = await subscribe(realm, userId, fixed.id);
        assert.equal((await s.points.summary(realm, userId, T0)).total, 60);
        const canceled = await s.billing.cancelSubscription(realm, a.id, T0 + 10);
        assert.deepEqual(canceled, { ...a, status: 'canceled', canceledAt: T0 + 10 });
        assert.deepEqual(await s.billing.cancelSubscription(realm, a.id, T0 + 20), canceled);
        await s.billing.cancelSubscription(realm, b.id, T0 + 10);
        const sum = await s.points.summary(realm, userId, T0 + 10);
        assert.deepEqual([sum.windows, sum.total], [[], 0]);
        assert.equal((await s.points.listBalances(realm, userId))[0]!.endedAt, T0 + 10);
        assert.deepEqual(
          (await s.billing.listMappings(realm, {})).map((x) => x.activeSubscriptions),
          [0, 0],
        );
        await rejectsWith(s.billing.cancelSubscription(realm, 'no-such-sub', T0), 'not_found');
        await rejectsWith(s.billing.cancelSubscription(await seedRealm(s), a.id, T0), 'not_found');
      });

      it('a subscription keeps the windows it was granted with when the mapping changes (snapshot rule)', async () => {
        const { realm, userId: early } = await setup();
        const late = (await seedUser(s, realm)).id;
        const m = await mapping(realm, { entitlementKey: 'snap', quotaWindows: [w(18000, 100)] });
        await subscribe(realm, early, m.id);
        await batch(realm, [{ mappingId: m.id, quotaWindows: [w(18000, 10), w(86400, 20)] }], 'pro', T0 + 1);
        await subscribe(realm, late, m.id, null, T0 + 1);
        const keys = async (userId: string) => (await s.points.summary(realm, userId, T0 + 2)).windows.map((x) => [x.key, x.limit]);
        assert.deepEqual(await keys(early), [['5h', 100]]);
        assert.deepEqual(await keys(late), [
          ['5h', 10],
          ['day', 20],
        ]);
      });
    });

    describe('payment notifications', () => {
      const facts = (over: Partial<NotificationFacts> = {}): NotificationFacts => ({
        provider: 'stripe',
        externalId: unique('evt'),
        type: 'customer.subscription.created',
        effect: { kind: 'activate' },
        providerAt: T0,
        user: null,
        productIds: ['pro'],
        externalSubscriptionId: unique('sub_ext'),
        transactionId: unique('evt'),
        ...over,
      });
      const audit = (realmId: string) =>
        settingsAudit({
          realmId,
          provider: 'stripe',
          before: null,
          after: {},
          secretSet: true,
          actor: { type: 'api_key', id: 'key_1' },
          requestId: null,
          now: T0,
        });
      const receive = (realm: string, f: NotificationFacts, now = T0) => s.billing.receiveNotification(realm, f, unique('bn'), now);

      it('keeps settings per provider, and a secret until another is given', async () => {
        const realm = await seedRealm(s);
        assert.equal(await s.billing.providerSettings(realm, 'stripe'), null);
        await s.billing.putProviderSettings(realm, 'stripe', {}, 'whsec_one', audit(realm), T0);
        await s.billing.putProviderSettings(realm, 'stripe', { note: 1 }, undefined, audit(realm), T0 + 1);
        assert.deepEqual(await s.billing.providerSettings(realm, 'stripe'), { settings: { note: 1 }, secret: 'whsec_one' });
        await s.billing.putProviderSettings(realm, 'app_store', { bundleId: 'b' }, undefined, audit(realm), T0);
        assert.equal((await s.records.audit(realm, { action: 'billing_provider.update', limit: 10 })).length, 3, 'one record per change');
        assert.deepEqual(await s.billing.providerSettings(realm, 'app_store'), { settings: { bundleId: 'b' }, secret: null });
        await rejectsWith(s.billing.putProviderSettings('no-such-realm', 'stripe', {}, 'x', audit('no-such-realm'), T0), 'not_found');
      });

      it('applies a matched notification once: a second delivery only counts', async () => {
        const { realm, userId } = await setup();
        const m = await mapping(realm, { entitlementKey: 'pro', quotaWindows: [w(60, 5)] });
        const f = facts({ user: { userId } });
        const first = await receive(realm, f);
        assert.equal(first.duplicate, false);
        assert.equal(first.notification.status, 'applied');
        assert.equal(first.notification.userId, userId);
        assert.ok(first.notification.subscriptionId);
        const again = await receive(realm, f, T0 + 1);
        assert.equal(again.duplicate, true);
        assert.equal(again.notification.id, first.notification.id);
        assert.equal(again.notification.duplicates, 1);
        assert.equal((await list(realm))[0]!.activeSubscriptions, 1);
        assert.equal(m.id, (await list(realm))[0]!.id);
      });

      it('ends what it started, and an older notification changes nothing', async () => {
        const { realm, userId } = await setup();
        await mapping(realm, { entitlementKey: 'pro', quotaWindows: [w(60, 5)] });
        const ext = unique('sub_ext');
        await receive(realm, facts({ user: { userId }, externalSubscriptionId: ext, providerAt: T0 + 10 }));
        const stale = await receive(realm, facts({ user: { userId }, externalSubscriptionId: ext, effect: { kind: 'end' }, providerAt: T0 + 5 }));
        assert.equal(stale.notification.status, 'ignored');
        assert.equal((await list(realm))[0]!.activeSubscriptions, 1);
        const end = await receive(realm, facts({ externalSubscriptionId: ext, effect: { kind: 'end' }, providerAt: T0 + 20 }));
        assert.equal(end.notification.status, 'applied');
        assert.equal(end.notification.userId, userId, 'known from the state');
        assert.equal((await list(realm))[0]!.activeSubscriptions, 0);
      });

      it('applies the mapping of the first product it names that has one, whichever mapping is older (matchedMapping)', async () => {
        const { realm, userId } = await setup();
        await mapping(realm, { entitlementKey: 'pro' });
        const basic = await mapping(realm, { entitlementKey: 'basic' }, 'basic');
        const r = await receive(realm, facts({ user: { userId }, productIds: ['none', 'basic', 'pro'] }));
        assert.equal(r.notification.status, 'applied');
        assert.deepEqual([(await list(realm))[0]!.activeSubscriptions, (await list(realm, 'basic'))[0]!.activeSubscriptions], [0, 1]);
        assert.equal((await list(realm, 'basic'))[0]!.id, basic.id);
      });

      it('an end leaves a subscription an operator canceled meanwhile as it was canceled (endsSubscription)', async () => {
        const { realm, userId } = await setup();
        await mapping(realm, { entitlementKey: 'pro' });
        const ext = unique('sub_ext');
        const started = await receive(realm, facts({ user: { userId }, externalSubscriptionId: ext, providerAt: T0 }));
        const canceled = await s.billing.cancelSubscription(realm, started.notification.subscriptionId!, T0 + 5);
        const end = await receive(realm, facts({ externalSubscriptionId: ext, effect: { kind: 'end' }, providerAt: T0 + 10 }), T0 + 10);
        assert.equal(end.notification.status, 'applied');
        assert.deepEqual(await s.billing.cancelSubscription(realm, canceled.id, T0 + 20), canceled, 'still canceled at T0 + 5');
      });

      it('records an unmatched notification and applies it on replay once its mapping exists', async () => {
        const { realm, userId } = await setup();
        const r = await receive(realm, facts({ user: { userId }, productIds: ['later'] }));
        assert.equal(r.notification.status, 'unmatched');
        assert.equal((await s.billing.replayNotification(realm, r.notification.id, T0 + 1))!.status, 'unmatched');
        await mapping(realm, { entitlementKey: 'later' }, 'later');
        const replayed = await s.billing.replayNotification(realm, r.notification.id, T0 + 2);
        assert.equal(replayed!.status, 'applied');
        assert.equal(replayed!.appliedAt, T0 + 2);
        assert.equal(await s.billing.replayNotification(realm, 'bn_none', T0), null);
        await rejectsWith(s.billing.listNotifications('no-such-realm', { status: null, limit: 1, before: null }), 'not_found');
      });

      it('lists newest first, by status, after a cursor', async () => {
        const { realm, userId } = await setup();
        await mapping(realm, { entitlementKey: 'pro' });
        const a = await receive(realm, facts({ user: { userId } }), T0 + 1);
        const b = await receive(realm, facts({ user: null }), T0 + 2);
        const c = await receive(realm, facts({ effect: { kind: 'ignore', reason: 'x' } }), T0 + 3);
        await receive(realm, facts({ externalId: a.notification.externalId, user: { userId } }), T0 + 4);
        const all = await s.billing.listNotifications(realm, { status: null, limit: 10, before: null });
        assert.deepEqual(
          all.map((n) => n.id),
          [c.notification.id, b.notification.id, a.notification.id],
        );
        const statuses = async (status: 'applied' | 'duplicate' | 'unmatched' | 'ignored') =>
          (await s.billing.listNotifications(realm, { status, limit: 10, before: null })).map((n) => n.id);
        assert.deepEqual(await statuses('applied'), [a.notification.id]);
        assert.deepEqual(await statuses('duplicate'), [a.notification.id]);
        assert.deepEqual(await statuses('unmatched'), [b.notification.id]);
        assert.deepEqual(await statuses('ignored'), [c.notification.id]);
        const page = await s.billing.listNotifications(realm, {
          status: null,
          limit: 10,
          before: { receivedAt: b.notification.receivedAt, id: b.notification.id },
        });
        assert.deepEqual(
          page.map((n) => n.id),
          [a.notification.id],
        );
      });
    });
  });
}
