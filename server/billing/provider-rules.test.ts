import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  appStoreEffect,
  endsSubscription,
  isStale,
  matchedMapping,
  mayReplay,
  notificationOutcome,
  notificationOwner,
  planOf,
  stripeEffect,
} from './provider-rules.ts';

const tx = { purchaseDate: 1_000 };

describe('appStoreEffect', () => {
  it('activates on SUBSCRIBED and DID_RENEW', () => {
    assert.deepEqual(appStoreEffect('SUBSCRIBED', tx, 2_000), { kind: 'activate' });
    assert.deepEqual(appStoreEffect('DID_RENEW', tx, 2_000), { kind: 'activate' });
  });
  it('ends on EXPIRED, GRACE_PERIOD_EXPIRED, REVOKE and REFUND', () => {
    for (const t of ['EXPIRED', 'GRACE_PERIOD_EXPIRED', 'REVOKE', 'REFUND']) assert.deepEqual(appStoreEffect(t, tx, 2_000), { kind: 'end' }, t);
  });
  it('applies DID_CHANGE_RENEWAL_PREF only once its transaction is effective', () => {
    assert.deepEqual(appStoreEffect('DID_CHANGE_RENEWAL_PREF', { purchaseDate: 2_000 }, 2_000), { kind: 'activate' });
    assert.equal(appStoreEffect('DID_CHANGE_RENEWAL_PREF', { purchaseDate: 3_000 }, 2_000).kind, 'ignore');
  });
  it('acknowledges other types and types without a transaction', () => {
    assert.equal(appStoreEffect('DID_FAIL_TO_RENEW', tx, 2_000).kind, 'ignore');
    assert.equal(appStoreEffect('TEST', null, 2_000).kind, 'ignore');
    assert.equal(appStoreEffect('SUBSCRIBED', null, 2_000).kind, 'ignore');
  });
});

describe('stripeEffect', () => {
  it('activates created or updated active and trialing subscriptions', () => {
    assert.deepEqual(stripeEffect('customer.subscription.created', 'active'), { kind: 'activate' });
    assert.deepEqual(stripeEffect('customer.subscription.updated', 'trialing'), { kind: 'activate' });
  });
  it('ends deleted, canceled and unpaid subscriptions', () => {
    assert.deepEqual(stripeEffect('customer.subscription.deleted', 'active'), { kind: 'end' });
    assert.deepEqual(stripeEffect('customer.subscription.updated', 'canceled'), { kind: 'end' });
    assert.deepEqual(stripeEffect('customer.subscription.updated', 'unpaid'), { kind: 'end' });
  });
  it('leaves past_due and other event types alone', () => {
    assert.equal(stripeEffect('customer.subscription.updated', 'past_due').kind, 'ignore');
    assert.equal(stripeEffect('invoice.paid', 'active').kind, 'ignore');
  });
});

describe('isStale', () => {
  it('is stale only when older than the state', () => {
    assert.equal(isStale(null, 5), false);
    assert.equal(isStale({ providerAt: 5 }, 4), true);
    assert.equal(isStale({ providerAt: 5 }, 5), false);
    assert.equal(isStale({ providerAt: 5 }, 6), false);
  });
});

describe('planOf', () => {
  const active = { providerAt: 1, active: true, productId: 'pro' };
  it('starts a subscription when none is active', () => {
    assert.deepEqual(planOf({ kind: 'activate' }, null, 'pro'), { start: true, endCurrent: false });
    assert.deepEqual(planOf({ kind: 'activate' }, { ...active, active: false }, 'pro'), { start: true, endCurrent: false });
  });
  it('renews an active subscription of the same product without a second start (one grant per period)', () => {
    assert.deepEqual(planOf({ kind: 'activate' }, active, 'pro'), { start: false, endCurrent: false });
  });
  it('switches products by ending the old subscription', () => {
    assert.deepEqual(planOf({ kind: 'activate' }, active, 'max'), { start: true, endCurrent: true });
  });
  it('ends only an active subscription', () => {
    assert.deepEqual(planOf({ kind: 'end' }, active, 'pro'), { start: false, endCurrent: true });
    assert.deepEqual(planOf({ kind: 'end' }, null, 'pro'), { start: false, endCurrent: false });
    assert.deepEqual(planOf({ kind: 'ignore', reason: 'x' }, active, 'pro'), { start: false, endCurrent: false });
  });
});

describe('notificationOutcome', () => {
  const found = { userId: 'usr_1', mappingId: 'map_1', productId: 'pro', state: null };
  const state = { providerAt: 10, active: true, productId: 'pro' };
  it('applies a matched notification with its plan', () => {
    assert.deepEqual(notificationOutcome({ kind: 'activate' }, 5, found), { status: 'applied', plan: { start: true, endCurrent: false }, reason: '' });
  });
  it('records an unknown user or product as unmatched', () => {
    assert.deepEqual(notificationOutcome({ kind: 'activate' }, 5, { ...found, userId: null }), { status: 'unmatched', reason: 'unknown user' });
    assert.equal(notificationOutcome({ kind: 'activate' }, 5, { ...found, mappingId: null }).status, 'unmatched');
  });
  it('ignores what changes nothing and what is older than the state', () => {
    assert.equal(notificationOutcome({ kind: 'ignore', reason: 'type TEST' }, 5, found).status, 'ignored');
    assert.deepEqual(notificationOutcome({ kind: 'end' }, 9, { ...found, state }), {
      status: 'ignored',
      reason: 'stale: older than the state it would change',
    });
  });
  it('ends a known subscription without needing its user or mapping', () => {
    assert.deepEqual(notificationOutcome({ kind: 'end' }, 11, { userId: null, mappingId: null, productId: 'pro', state }), {
      status: 'applied',
      plan: { start: false, endCurrent: true },
      reason: '',
    });
  });
});

describe('matchedMapping', () => {
  const older = { id: 'map_a', productId: 'pro' };
  const newer = { id: 'map_b', productId: 'pro' };
  const basic = { id: 'map_c', productId: 'basic' };
  it('takes the first product, in the order the notification names them, that has an enabled mapping', () => {
    assert.deepEqual(matchedMapping(['gone', 'basic', 'pro'], [older, basic]), { mapping: basic, productId: 'basic' });
    assert.deepEqual(matchedMapping(['pro', 'basic'], [basic, older]), { mapping: older, productId: 'pro' });
  });
  it('of a product’s mappings, the oldest (candidates come oldest first)', () => {
    assert.deepEqual(matchedMapping(['pro'], [older, newer]).mapping, older);
  });
  it('without a mapping, the notification is about the first product it names, or none', () => {
    assert.deepEqual(matchedMapping(['x', 'y'], []), { mapping: null, productId: 'x' });
    assert.deepEqual(matchedMapping([], [older]), { mapping: null, productId: '' });
  });
});

describe('notificationOwner', () => {
  it('is the user the notification names, else the provider state’s', () => {
    assert.equal(notificationOwner('usr_1', 'usr_2'), 'usr_1');
    assert.equal(notificationOwner(null, 'usr_2'), 'usr_2');
    assert.throws(() => notificationOwner(null, null));
  });
});

describe('endsSubscription', () => {
  it('ends the current subscription only while it is active', () => {
    assert.equal(endsSubscription({ status: 'active' }), true);
    assert.equal(endsSubscription({ status: 'canceled' }), false);
    assert.equal(endsSubscription(undefined), false);
  });
});

describe('mayReplay', () => {
  it('applies again only an unmatched notification', () => {
    assert.equal(mayReplay({ status: 'unmatched' }), true);
    for (const status of ['applied', 'ignored'] as const) assert.equal(mayReplay({ status }), false);
  });
});
