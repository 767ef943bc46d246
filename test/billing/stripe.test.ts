// Stripe webhooks drive subscriptions, over real HTTP, each event signed with the stripe
// package's own generateTestHeaderString and verified by its webhooks.constructEvent: created,
// updated and deleted subscriptions by price or product, duplicates, out of order, unmatched then
// replayed, and a wrong secret or a stale timestamp refused with nothing recorded.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { status as grpcStatus } from '@grpc/grpc-js';
import Stripe from 'stripe';
import { ManualClock } from '../../server/lib/clock.ts';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { api, http } from '../helpers/http.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';
import { subscribeToEveryEvent, withStores } from '../helpers/stores.ts';
import { type Api, createRealm, createUser, w } from '../points/helpers.ts';

const SECRET = 'whsec_dGVzdC1lbmRwb2ludC1zZWNyZXQtZm9yLWdhdGVob3VzZQ';

describe('Stripe webhooks drive subscriptions', () => {
  let srv: InProcessServer;
  let h: Api;
  const clock = new ManualClock(Date.UTC(2026, 4, 1, 12));
  let seq = 0;

  before(async () => {
    srv = await startInProcess({ clock });
    h = api(srv.http, srv.adminKey);
    await createRealm(h, 'shop');
    await createRealm(h, 'bare');
    await withStores(srv.dbPath, (stores) => subscribeToEveryEvent(stores, 'shop'));
    const set = await h.put('/api/bill/shop/billing/providers/stripe', { webhookSecret: SECRET });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual(set.body.stripe, { webhookSecretSet: true });
    assert.ok(!set.text.includes(SECRET), 'the secret is never returned');
    await withStores(srv.dbPath, async (stores) => {
      const [audit] = await stores.records.audit('shop', { action: 'billing_provider.update', targetId: 'stripe', limit: 5 });
      assert.equal(audit?.actor.type, 'api_key');
      assert.deepEqual(audit?.changes, { webhookSecret: { before: '[redacted]', after: '[redacted]' } });
      assert.ok(!JSON.stringify(audit).includes(SECRET));
    });
    for (const [product, row] of [
      ['price_pro', { entitlementKey: 'pro', quotaWindows: [w(3600, 100)] }],
      ['prod_max', { entitlementKey: 'max', quotaWindows: [w(3600, 500)] }],
    ] as const) {
      const r = await h.put('/api/bill/shop/entitlement-mappings/batch', { paymentProvider: 'stripe', externalProductId: product, updates: [row] });
      assert.equal(r.status, 200, r.text);
    }
  });
  after(async () => {
    closeGrpcClients();
    await srv.stop();
  });

  interface Ev {
    type: string;
    userId: string;
    sub: string;
    status?: string;
    price?: string;
    product?: string;
    id?: string;
    created?: number;
  }
  const event = (e: Ev) =>
    JSON.stringify({
      id: e.id ?? `evt_${++seq}`,
      object: 'event',
      api_version: '2025-01-27',
      created: e.created ?? Math.floor(clock.now() / 1000),
      livemode: false,
      type: e.type,
      data: {
        object: {
          id: e.sub,
          object: 'subscription',
          status: e.status ?? 'active',
          customer: 'cus_1',
          metadata: { gatehouse_user_id: e.userId },
          items: { object: 'list', data: [{ id: 'si_1', price: { id: e.price ?? 'price_pro', object: 'price', product: e.product ?? 'prod_pro' } }] },
        },
      },
    });
  const deliver = (payload: string, opts: { secret?: string; timestamp?: number; realm?: string } = {}) =>
    http(srv.http, 'POST', `/api/bill/${opts.realm ?? 'shop'}/stripe/webhook`, {
      raw: payload,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({
          payload,
          secret: opts.secret ?? SECRET,
          timestamp: opts.timestamp ?? Math.floor(clock.now() / 1000),
        }),
      },
    });
  const summary = async (userId: string) => (await h.get(`/api/points/shop/users/${userId}/summary`)).body;
  const notifications = async (status = '') =>
    (await h.get(`/api/bill/shop/billing/notifications?pageSize=200${status ? `&status=${status}` : ''}`)).body.notifications as any[];

  it('created activates the subscription of the price, its windows granted; deleted ends it', async () => {
    const user = await createUser(h, 'shop', 'stripe@example.com');
    const r = await deliver(event({ type: 'customer.subscription.created', userId: user, sub: 'sub_A' }));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.status, 'applied');
    assert.deepEqual(
      (await summary(user)).windows.map((x: any) => x.limit),
      [100],
    );
    clock.advance(1000);
    const past = await deliver(event({ type: 'customer.subscription.updated', userId: user, sub: 'sub_A', status: 'past_due' }));
    assert.equal(past.body.status, 'ignored');
    assert.equal((await summary(user)).windows.length, 1);
    clock.advance(1000);
    const del = await deliver(event({ type: 'customer.subscription.deleted', userId: user, sub: 'sub_A', status: 'canceled' }));
    assert.equal(del.body.status, 'applied', del.text);
    assert.deepEqual((await summary(user)).windows, []);
    await withStores(srv.dbPath, async (stores) => {
      const types = (await stores.records.events('shop', { limit: 100 }))
        .filter((e) => e.data.userId === user && e.type.startsWith('subscription.'))
        .map((e) => e.type);
      assert.deepEqual(types.sort(), ['subscription.activated', 'subscription.cancelled']);
      const audit = (await stores.records.audit('shop', { limit: 100 })).filter((a) => a.actor.type === 'stripe');
      assert.ok(audit.some((a) => a.action === 'subscription.activate'));
      assert.ok(audit.some((a) => a.action === 'subscription.cancel'));
    });
  });

  it('takes the same event over gRPC: the payload as bytes, the signature as stripe-signature metadata', async () => {
    const user = await createUser(h, 'shop', 'grpc@example.com');
    const payload = event({ type: 'customer.subscription.created', userId: user, sub: 'sub_G' });
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET, timestamp: Math.floor(clock.now() / 1000) });
    const r = await grpcCall(srv.grpc, 'BillingService', 'ReceiveStripeEvent', { realmId: 'shop', payload: Buffer.from(payload) }, undefined, {
      'stripe-signature': header,
    });
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.value.status, 'applied');
    const bad = await grpcCall(
      srv.grpc,
      'BillingService',
      'ReceiveStripeEvent',
      { realmId: 'shop', payload: Buffer.from(payload.replace('sub_G', 'sub_H')) },
      undefined,
      {
        'stripe-signature': header,
      },
    );
    assert.ok(!bad.ok);
    assert.equal(bad.error.code, grpcStatus.UNAUTHENTICATED);
    assert.equal(bad.error.reason, 'unauthorized');
  });

  it('matches the mapping of the product when the price has none', async () => {
    const user = await createUser(h, 'shop', 'product@example.com');
    const r = await deliver(event({ type: 'customer.subscription.created', userId: user, sub: 'sub_B', price: 'price_max_eur', product: 'prod_max' }));
    assert.equal(r.body.status, 'applied', r.text);
    assert.deepEqual(
      (await summary(user)).windows.map((x: any) => x.limit),
      [500],
    );
  });

  it('once per event id', async () => {
    const user = await createUser(h, 'shop', 'once@example.com');
    const payload = event({ type: 'customer.subscription.created', userId: user, sub: 'sub_C' });
    assert.equal((await deliver(payload)).body.status, 'applied');
    assert.equal((await deliver(payload)).body.status, 'duplicate');
    assert.equal((await summary(user)).windows.length, 1);
  });

  it('an event older than the state changes nothing', async () => {
    const user = await createUser(h, 'shop', 'order@example.com');
    const t = Math.floor(clock.now() / 1000);
    assert.equal((await deliver(event({ type: 'customer.subscription.updated', userId: user, sub: 'sub_D', created: t }))).body.status, 'applied');
    const old = await deliver(event({ type: 'customer.subscription.deleted', userId: user, sub: 'sub_D', status: 'canceled', created: t - 60 }));
    assert.equal(old.body.status, 'ignored');
    assert.equal((await summary(user)).windows.length, 1);
  });

  it('an unknown product is unmatched, and applied on replay once its mapping exists', async () => {
    const user = await createUser(h, 'shop', 'later@example.com');
    const r = await deliver(event({ type: 'customer.subscription.created', userId: user, sub: 'sub_E', price: 'price_later', product: 'prod_later' }));
    assert.equal(r.body.status, 'unmatched');
    const stranger = await deliver(event({ type: 'customer.subscription.created', userId: 'usr_nobody', sub: 'sub_F' }));
    assert.equal(stranger.body.status, 'unmatched');
    assert.ok((await notifications('unmatched')).some((n) => n.notificationId === r.body.notificationId));
    const m = await h.put('/api/bill/shop/entitlement-mappings/batch', {
      paymentProvider: 'stripe',
      externalProductId: 'prod_later',
      updates: [{ entitlementKey: 'later', quotaWindows: [w(60, 7)] }],
    });
    assert.equal(m.status, 200, m.text);
    const replayed = await h.post(`/api/bill/shop/billing/notifications/${r.body.notificationId}/replay`, {});
    assert.equal(replayed.body.status, 'applied', replayed.text);
    assert.deepEqual(
      (await summary(user)).windows.map((x: any) => x.limit),
      [7],
    );
  });

  describe('bad input: refused, nothing recorded', () => {
    const refused = async (r: Promise<Awaited<ReturnType<typeof deliver>>>, status: number) => {
      const before = (await notifications()).length;
      const res = await r;
      assert.equal(res.status, status, res.text);
      assert.equal(res.body.status, status, 'the contract error body');
      assert.equal(typeof res.body.error, 'string');
      assert.equal((await notifications()).length, before, 'nothing recorded');
    };
    it('a signature with a wrong secret', async () => {
      await refused(deliver(event({ type: 'customer.subscription.created', userId: 'u', sub: 'sub_X' }), { secret: 'whsec_b3RoZXItc2VjcmV0' }), 401);
    });
    it('a timestamp outside the 5-minute tolerance', async () => {
      const payload = event({ type: 'customer.subscription.created', userId: 'u', sub: 'sub_Y' });
      await refused(deliver(payload, { timestamp: Math.floor(clock.now() / 1000) - 301 }), 401);
    });
    it('a tampered body under a valid signature', async () => {
      const payload = event({ type: 'customer.subscription.created', userId: 'u', sub: 'sub_Z' });
      const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET, timestamp: Math.floor(clock.now() / 1000) });
      const before = (await notifications()).length;
      const r = await http(srv.http, 'POST', '/api/bill/shop/stripe/webhook', {
        raw: payload.replace('price_pro', 'prod_max'),
        headers: { 'content-type': 'application/json', 'stripe-signature': header },
      });
      assert.equal(r.status, 401, r.text);
      assert.equal((await notifications()).length, before);
    });
    it('no signature header, a body of 64 KiB, a realm without Stripe', async () => {
      const before = (await notifications()).length;
      const unsigned = await http(srv.http, 'POST', '/api/bill/shop/stripe/webhook', { raw: '{}', headers: { 'content-type': 'application/json' } });
      assert.equal(unsigned.status, 401, unsigned.text);
      const big = await deliver(JSON.stringify({ pad: 'x'.repeat(64 * 1024) }));
      assert.equal(big.status, 413, big.text);
      assert.equal(big.body.error, 'payload_too_large');
      const bare = await deliver(event({ type: 'customer.subscription.created', userId: 'u', sub: 'sub_W' }), { realm: 'bare' });
      assert.equal(bare.status, 404, bare.text);
      assert.equal((await notifications()).length, before);
    });
  });

  it('refuses a malformed endpoint secret and keeps the one set when none is given', async () => {
    const bad = await h.put('/api/bill/shop/billing/providers/stripe', { webhookSecret: 'sk_live_x' });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.body.field, 'webhookSecret');
    const kept = await h.put('/api/bill/shop/billing/providers/stripe', {});
    assert.equal(kept.status, 200, kept.text);
    const user = await createUser(h, 'shop', 'kept@example.com');
    assert.equal((await deliver(event({ type: 'customer.subscription.created', userId: user, sub: 'sub_K' }))).body.status, 'applied');
  });
});
