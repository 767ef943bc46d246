// App Store Server Notifications V2 drive subscriptions, over real HTTP, signed as Apple signs them
// (our own root, intermediate and leaf with Apple's marker extensions, ES256, x5c) and verified by
// Apple's App Store Server Library unmodified: subscribe, renew, the four ends, duplicates, out of
// order, unmatched then replayed, and every kind of bad input refused with nothing recorded.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../server/lib/clock.ts';
import { makeSigningChain, notificationPayload, type SigningChain, signJws, signWeak, transactionPayload } from '../helpers/app-store.ts';
import { api, http } from '../helpers/http.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';
import { subscribeToEveryEvent, withStores } from '../helpers/stores.ts';
import { type Api, createRealm, createUser, w } from '../points/helpers.ts';

const BUNDLE = 'com.example.gatehouse';
const APP_ID = 1_234_567_890;
const DAY = 86_400_000;

describe('App Store notifications drive subscriptions', () => {
  const chain = makeSigningChain();
  let srv: InProcessServer;
  let h: Api;
  const clock = new ManualClock(Date.now());

  before(async () => {
    srv = await startInProcess({ clock, config: { appStoreRootCerts: chain.rootFile } });
    h = api(srv.http, srv.adminKey);
    await createRealm(h, 'shop');
    await createRealm(h, 'prod');
    await createRealm(h, 'bare');
    await withStores(srv.dbPath, (stores) => subscribeToEveryEvent(stores, 'shop'));
    const set = await h.put('/api/bill/shop/billing/providers/app-store', { bundleId: BUNDLE, appAppleId: APP_ID, environments: ['Production', 'Sandbox'] });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual(set.body.appStore, { bundleId: BUNDLE, appAppleId: APP_ID, environments: ['Production', 'Sandbox'] });
    const prod = await h.put('/api/bill/prod/billing/providers/app-store', { bundleId: BUNDLE, appAppleId: APP_ID, environments: ['Production'] });
    assert.equal(prod.status, 200, prod.text);
    for (const [product, row] of [
      ['pro.monthly', { entitlementKey: 'pro', quotaWindows: [w(3600, 100)] }],
      ['fixed.monthly', { entitlementKey: 'fixed', pointsPerPeriod: 1000, grantPeriodType: 'monthly' }],
    ] as const) {
      const r = await h.put('/api/bill/shop/entitlement-mappings/batch', { paymentProvider: 'app_store', externalProductId: product, updates: [row] });
      assert.equal(r.status, 200, r.text);
    }
  });
  after(async () => {
    await srv.stop();
  });

  const tokenOf = async (realm: string, userId: string) => (await h.get(`/api/admin/realms/${realm}/users/${userId}`)).body.appAccountToken as string;

  interface Send {
    type: string;
    token: string;
    product?: string;
    original?: string;
    uuid?: string;
    signedDate?: number;
    purchaseDate?: number;
    environment?: 'Production' | 'Sandbox';
    realm?: string;
    c?: SigningChain;
  }
  const signed = (s: Send) => {
    const environment = s.environment ?? 'Production';
    const signedDate = s.signedDate ?? clock.now();
    const c = s.c ?? chain;
    const tx = signJws(
      c,
      transactionPayload({
        bundleId: BUNDLE,
        environment,
        productId: s.product ?? 'pro.monthly',
        appAccountToken: s.token,
        originalTransactionId: s.original ?? '2000000000000001',
        purchaseDate: s.purchaseDate ?? signedDate,
        signedDate,
      }),
    );
    return signJws(
      c,
      notificationPayload({
        notificationType: s.type,
        bundleId: BUNDLE,
        appAppleId: APP_ID,
        environment,
        signedTransactionInfo: tx,
        notificationUUID: s.uuid,
        signedDate,
      }),
    );
  };
  const post = (realm: string, signedPayload: string) => http(srv.http, 'POST', `/api/bill/${realm}/app-store/notifications`, { body: { signedPayload } });
  const send = async (s: Send) => post(s.realm ?? 'shop', signed(s));
  const summary = async (userId: string) => (await h.get(`/api/points/shop/users/${userId}/summary`)).body;
  const notifications = async (realm = 'shop', status = '') =>
    (await h.get(`/api/bill/${realm}/billing/notifications?pageSize=200${status ? `&status=${status}` : ''}`)).body.notifications as any[];

  it('gives every user a stable UUID for StoreKit, shown in the admin user view', async () => {
    const id = await createUser(h, 'shop', 'token@example.com');
    const t = await tokenOf('shop', id);
    assert.match(t, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(await tokenOf('shop', id), t, 'stable');
    assert.notEqual(await tokenOf('shop', await createUser(h, 'shop', 'token2@example.com')), t);
  });

  it('SUBSCRIBED activates the mapping: its quota windows granted per the snapshot', async () => {
    const user = await createUser(h, 'shop', 'sub@example.com');
    const r = await send({ type: 'SUBSCRIBED', token: await tokenOf('shop', user), original: 'o-sub' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.status, 'applied');
    const s = await summary(user);
    assert.deepEqual(
      s.windows.map((x: any) => [x.creditKind, x.windowSeconds, x.limit, x.remaining]),
      [['subscription_credit', 3600, 100, 100]],
    );
    const [n] = (await notifications()).filter((x) => x.notificationId === r.body.notificationId);
    assert.equal(n.userId, user);
    assert.equal(n.type, 'SUBSCRIBED');
    assert.equal(n.externalProductId, 'pro.monthly');
    assert.equal(n.externalSubscriptionId, 'o-sub');
    assert.ok(n.subscriptionId);
    // In the effect's transaction: its event and its audit record, by the App Store.
    await withStores(srv.dbPath, async (stores) => {
      const events = (await stores.records.events('shop', { type: 'subscription.activated', limit: 100 })).filter((e) => e.data.userId === user);
      assert.deepEqual(
        events.map((e) => [e.data.subscriptionId, e.data.paymentProvider, e.data.externalSubscriptionId]),
        [[n.subscriptionId, 'app_store', 'o-sub']],
      );
      const [audit] = await stores.records.audit('shop', { action: 'subscription.activate', targetId: n.subscriptionId, limit: 5 });
      assert.deepEqual(audit?.actor, { type: 'app_store', id: 'app_store' });
      assert.equal(audit?.requestId, n.notificationId);
    });
  });

  it('a sandbox notification is verified with the sandbox settings', async () => {
    const user = await createUser(h, 'shop', 'sandbox@example.com');
    const r = await send({ type: 'SUBSCRIBED', token: await tokenOf('shop', user), original: 'o-sandbox', environment: 'Sandbox' });
    assert.equal(r.body.status, 'applied', r.text);
  });

  it('DID_RENEW keeps the subscription and grants the next period once, however often it comes', async () => {
    const user = await createUser(h, 'shop', 'renew@example.com');
    const token = await tokenOf('shop', user);
    const first = await send({ type: 'SUBSCRIBED', token, product: 'fixed.monthly', original: 'o-renew' });
    assert.equal(first.body.status, 'applied', first.text);
    assert.equal((await summary(user)).balances.subscription, 1000);
    clock.advance(31 * DAY);
    const renewed = await send({ type: 'DID_RENEW', token, product: 'fixed.monthly', original: 'o-renew' });
    assert.equal(renewed.body.status, 'applied', renewed.text);
    const again = await send({ type: 'DID_RENEW', token, product: 'fixed.monthly', original: 'o-renew' });
    assert.equal(again.body.status, 'applied', again.text);
    assert.equal((await summary(user)).balances.subscription, 2000, 'one grant for the new period');
    await withStores(srv.dbPath, async (stores) => {
      const renewals = (await stores.records.audit('shop', { action: 'subscription.renew', limit: 100 })).filter(
        (a) => a.changes && a.actor.type === 'app_store',
      );
      assert.ok(renewals.some((a) => a.requestId === renewed.body.notificationId));
    });
    const subs = (await notifications()).filter((n) => n.externalSubscriptionId === 'o-renew');
    assert.equal(new Set(subs.map((n) => n.subscriptionId)).size, 1, 'one subscription throughout');
  });

  it('DID_CHANGE_RENEWAL_PREF applies at its effective date only', async () => {
    const user = await createUser(h, 'shop', 'pref@example.com');
    const token = await tokenOf('shop', user);
    await send({ type: 'SUBSCRIBED', token, product: 'pro.monthly', original: 'o-pref' });
    const later = await send({ type: 'DID_CHANGE_RENEWAL_PREF', token, product: 'fixed.monthly', original: 'o-pref', purchaseDate: clock.now() + 10 * DAY });
    assert.equal(later.body.status, 'ignored', later.text);
    assert.equal((await summary(user)).balances.subscription, 0);
    clock.advance(1000);
    const now = await send({ type: 'DID_CHANGE_RENEWAL_PREF', token, product: 'fixed.monthly', original: 'o-pref' });
    assert.equal(now.body.status, 'applied', now.text);
    const s = await summary(user);
    assert.equal(s.balances.subscription, 1000, 'the new product granted');
    assert.deepEqual(s.windows, [], 'the old product ended');
  });

  for (const type of ['EXPIRED', 'GRACE_PERIOD_EXPIRED', 'REVOKE', 'REFUND']) {
    it(`${type} ends the subscription and its entitlement`, async () => {
      const user = await createUser(h, 'shop', `${type.toLowerCase()}@example.com`);
      const token = await tokenOf('shop', user);
      await send({ type: 'SUBSCRIBED', token, original: `o-${type}` });
      assert.equal((await summary(user)).windows.length, 1);
      clock.advance(1000);
      const r = await send({ type, token, original: `o-${type}` });
      assert.equal(r.body.status, 'applied', r.text);
      assert.deepEqual((await summary(user)).windows, []);
      const [n] = (await notifications()).filter((x) => x.notificationId === r.body.notificationId);
      await withStores(srv.dbPath, async (stores) => {
        const events = (await stores.records.events('shop', { type: 'subscription.cancelled', limit: 100 })).filter((e) => e.data.userId === user);
        assert.deepEqual(
          events.map((e) => [e.data.subscriptionId, e.data.notificationType]),
          [[n.subscriptionId, type]],
        );
        const [audit] = await stores.records.audit('shop', { action: 'subscription.cancel', targetId: n.subscriptionId, limit: 5 });
        assert.deepEqual(audit?.actor, { type: 'app_store', id: 'app_store' });
      });
      const sub = (await h.post(`/api/bill/shop/subscriptions/${n.subscriptionId}/cancel`, {})).body;
      assert.equal(sub.status, 'canceled');
      assert.ok(Date.parse(sub.canceledAt) <= clock.now() - 0, 'canceled by the notification, not by this call');
    });
  }

  it('acknowledges and records other types', async () => {
    const user = await createUser(h, 'shop', 'other@example.com');
    const r = await send({ type: 'DID_FAIL_TO_RENEW', token: await tokenOf('shop', user), original: 'o-other' });
    assert.equal(r.status, 200);
    assert.equal(r.body.status, 'ignored');
    assert.deepEqual((await summary(user)).windows, []);
  });

  it('1 000 deliveries of one notification have one effect', async () => {
    const user = await createUser(h, 'shop', 'dup@example.com');
    const payload = signed({ type: 'SUBSCRIBED', token: await tokenOf('shop', user), original: 'o-dup' });
    const statuses: string[] = [];
    for (let i = 0; i < 1000; i += 25) {
      const batch = await Promise.all(Array.from({ length: 25 }, () => post('shop', payload)));
      for (const r of batch) {
        assert.equal(r.status, 200, r.text);
        statuses.push(r.body.status);
      }
    }
    assert.equal(statuses.filter((s) => s === 'applied').length, 1);
    assert.equal(statuses.filter((s) => s === 'duplicate').length, 999);
    const mine = (await notifications()).filter((n) => n.externalSubscriptionId === 'o-dup');
    assert.equal(mine.length, 1);
    assert.equal(mine[0].duplicates, 999);
    assert.ok((await notifications('shop', 'duplicate')).some((n) => n.externalSubscriptionId === 'o-dup'));
    assert.equal((await summary(user)).windows.length, 1, 'one entitlement');
    await withStores(srv.dbPath, async (stores) => {
      const events = (await stores.records.events('shop', { type: 'subscription.activated', limit: 1000 })).filter((e) => e.data.userId === user);
      assert.equal(events.length, 1, 'one event');
    });
  });

  it('a notification older than the state changes nothing', async () => {
    const user = await createUser(h, 'shop', 'order@example.com');
    const token = await tokenOf('shop', user);
    const t = clock.now();
    const renewed = await send({ type: 'SUBSCRIBED', token, original: 'o-order', signedDate: t });
    assert.equal(renewed.body.status, 'applied');
    const stale = await send({ type: 'EXPIRED', token, original: 'o-order', signedDate: t - 60_000 });
    assert.equal(stale.status, 200);
    assert.equal(stale.body.status, 'ignored');
    assert.equal((await summary(user)).windows.length, 1, 'still subscribed');
    const [n] = (await notifications()).filter((x) => x.notificationId === stale.body.notificationId);
    assert.match(n.reason, /stale/);
  });

  it('records an unknown product or user as unmatched, and applies it on replay once the mapping exists', async () => {
    const user = await createUser(h, 'shop', 'later@example.com');
    const r = await send({ type: 'SUBSCRIBED', token: await tokenOf('shop', user), product: 'later.monthly', original: 'o-later' });
    assert.equal(r.status, 200);
    assert.equal(r.body.status, 'unmatched');
    const stranger = await send({ type: 'SUBSCRIBED', token: randomUUID(), original: 'o-stranger' });
    assert.equal(stranger.body.status, 'unmatched');
    const unmatched = await notifications('shop', 'unmatched');
    assert.ok(unmatched.some((n) => n.notificationId === r.body.notificationId && /later\.monthly/.test(n.reason)));
    assert.ok(unmatched.some((n) => n.notificationId === stranger.body.notificationId && n.reason === 'unknown user'));
    const early = await h.post(`/api/bill/shop/billing/notifications/${r.body.notificationId}/replay`, {});
    assert.equal(early.body.status, 'unmatched', 'still no mapping');
    const m = await h.put('/api/bill/shop/entitlement-mappings/batch', {
      paymentProvider: 'app_store',
      externalProductId: 'later.monthly',
      updates: [{ entitlementKey: 'later', quotaWindows: [w(60, 5)] }],
    });
    assert.equal(m.status, 200, m.text);
    const replayed = await h.post(`/api/bill/shop/billing/notifications/${r.body.notificationId}/replay`, {});
    assert.equal(replayed.status, 200, replayed.text);
    assert.equal(replayed.body.status, 'applied');
    assert.equal(replayed.body.userId, user);
    assert.deepEqual(
      (await summary(user)).windows.map((x: any) => x.limit),
      [5],
    );
    const twice = await h.post(`/api/bill/shop/billing/notifications/${r.body.notificationId}/replay`, {});
    assert.equal(twice.body.status, 'applied');
    assert.equal((await summary(user)).windows.length, 1, 'a replay of an applied one changes nothing');
  });

  it('pages the listing newest first', async () => {
    const first = await h.get('/api/bill/shop/billing/notifications?pageSize=2');
    assert.equal(first.body.notifications.length, 2);
    assert.ok(first.body.nextPageToken);
    const second = await h.get(`/api/bill/shop/billing/notifications?pageSize=2&pageToken=${first.body.nextPageToken}`);
    assert.equal(second.body.notifications.length, 2);
    const ids = [...first.body.notifications, ...second.body.notifications].map((n: any) => n.notificationId);
    assert.equal(new Set(ids).size, 4);
    const bad = await h.get('/api/bill/shop/billing/notifications?status=nope');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.field, 'status');
  });

  describe('bad input: refused, nothing recorded', () => {
    let user: string;
    let token: string;
    before(async () => {
      user = await createUser(h, 'shop', 'bad@example.com');
      token = await tokenOf('shop', user);
    });
    const refusedNothingRecorded = async (payload: string, status: number, realm = 'shop') => {
      const before = (await notifications(realm)).length;
      const r = await post(realm, payload);
      assert.equal(r.status, status, r.text);
      assert.equal(r.body.status, status, 'the contract error body');
      assert.equal(typeof r.body.error, 'string');
      assert.equal(typeof r.body.requestId, 'string');
      assert.equal((await notifications(realm)).length, before, 'nothing recorded');
      assert.deepEqual((await summary(user)).windows, []);
    };
    const base = () => ({ type: 'SUBSCRIBED', token, original: `o-bad-${randomUUID()}` });

    it('a chain to another root', async () => {
      await refusedNothingRecorded(signed({ ...base(), c: makeSigningChain() }), 401);
    });
    it('a leaf without the marker extension', async () => {
      await refusedNothingRecorded(signed({ ...base(), c: makeSigningChain({ leafWithoutMarker: true }) }), 401);
    });
    it('an expired leaf', async () => {
      await refusedNothingRecorded(signed({ ...base(), c: makeSigningChain({ expiredLeaf: true }) }), 401);
    });
    it('alg none and HS256', async () => {
      const p = JSON.parse(Buffer.from(signed(base()).split('.')[1]!, 'base64url').toString());
      await refusedNothingRecorded(signWeak(chain, p, 'none'), 401);
      await refusedNothingRecorded(signWeak(chain, p, 'HS256'), 401);
    });
    it('a payload for another bundle id', async () => {
      const tx = signJws(chain, transactionPayload({ bundleId: 'com.other', environment: 'Production', productId: 'pro.monthly', appAccountToken: token }));
      await refusedNothingRecorded(
        signJws(
          chain,
          notificationPayload({
            notificationType: 'SUBSCRIBED',
            bundleId: 'com.other',
            appAppleId: APP_ID,
            environment: 'Production',
            signedTransactionInfo: tx,
          }),
        ),
        401,
      );
    });
    it('a payload for an environment the realm does not take', async () => {
      await refusedNothingRecorded(signed({ ...base(), environment: 'Sandbox', realm: 'prod' }), 401, 'prod');
    });
    it('a tampered signedTransactionInfo inside a valid outer JWS', async () => {
      const tx = signJws(chain, transactionPayload({ bundleId: BUNDLE, environment: 'Production', productId: 'pro.monthly', appAccountToken: token }));
      const [head, body, sig] = tx.split('.');
      const forged = JSON.parse(Buffer.from(body!, 'base64url').toString());
      forged.productId = 'fixed.monthly';
      const tampered = `${head}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${sig}`;
      await refusedNothingRecorded(
        signJws(
          chain,
          notificationPayload({
            notificationType: 'SUBSCRIBED',
            bundleId: BUNDLE,
            appAppleId: APP_ID,
            environment: 'Production',
            signedTransactionInfo: tampered,
          }),
        ),
        401,
      );
    });
    it('a body of 64 KiB', async () => {
      const before = (await notifications()).length;
      const r = await http(srv.http, 'POST', '/api/bill/shop/app-store/notifications', {
        raw: JSON.stringify({ signedPayload: 'x'.repeat(64 * 1024) }),
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(r.status, 413, r.text);
      assert.equal(r.body.error, 'payload_too_large');
      assert.equal((await notifications()).length, before);
    });
    it('a malformed body, and a realm not configured for the App Store', async () => {
      await refusedNothingRecorded('not a jws', 400);
      const r = await post('bare', signed(base()));
      assert.equal(r.status, 404, r.text);
      assert.equal(r.body.error, 'not_found');
    });
  });

  it('never returns a secret and refuses bad settings', async () => {
    const bad = await h.put('/api/bill/shop/billing/providers/app-store', { environments: ['Staging'] });
    assert.equal(bad.status, 400, bad.text);
    const noId = await h.put('/api/bill/bare/billing/providers/app-store', { bundleId: BUNDLE, environments: ['Production'] });
    assert.equal(noId.status, 400, noId.text);
    const got = await h.get('/api/bill/shop/billing/providers');
    assert.equal(got.status, 200, got.text);
    assert.equal(got.body.appStore.bundleId, BUNDLE);
    assert.equal(got.body.stripe, null);
  });
});
