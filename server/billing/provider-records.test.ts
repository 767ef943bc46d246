import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type AppliedEffect, appliedRecords, settingsAudit } from './provider-records.ts';

const effect = (over: Partial<AppliedEffect>): AppliedEffect => ({
  realmId: 'r',
  provider: 'app_store',
  notificationId: 'bn_1',
  type: 'SUBSCRIBED',
  userId: 'usr_1',
  externalSubscriptionId: 'o-1',
  started: null,
  ended: null,
  kept: null,
  now: 1000,
  ...over,
});

describe('appliedRecords', () => {
  it('an activation: subscription.activated and subscription.activate by the provider', () => {
    const r = appliedRecords(effect({ started: { subscriptionId: 'sub_1', mappingId: 'map_1' } }));
    assert.deepEqual(
      r.events.map((e) => [e.type, e.data.subscriptionId, e.data.userId]),
      [['subscription.activated', 'sub_1', 'usr_1']],
    );
    assert.equal(r.audit.length, 1);
    assert.deepEqual(r.audit[0]!.actor, { type: 'app_store', id: 'app_store' });
    assert.equal(r.audit[0]!.action, 'subscription.activate');
    assert.equal(r.audit[0]!.targetId, 'sub_1');
    assert.equal(r.audit[0]!.requestId, 'bn_1');
  });
  it('an end: subscription.cancelled and subscription.cancel', () => {
    const r = appliedRecords(effect({ provider: 'stripe', type: 'customer.subscription.deleted', ended: 'sub_1' }));
    assert.deepEqual(
      r.events.map((e) => e.type),
      ['subscription.cancelled'],
    );
    assert.equal(r.audit[0]!.action, 'subscription.cancel');
    assert.deepEqual(r.audit[0]!.actor, { type: 'stripe', id: 'stripe' });
    assert.deepEqual(r.audit[0]!.changes, { 'sub_1.status': { before: 'active', after: 'canceled' } });
  });
  it('a product change: both events, one audit record', () => {
    const r = appliedRecords(effect({ started: { subscriptionId: 'sub_2', mappingId: 'map_2' }, ended: 'sub_1' }));
    assert.deepEqual(
      r.events.map((e) => e.type),
      ['subscription.cancelled', 'subscription.activated'],
    );
    assert.equal(r.audit[0]!.action, 'subscription.change');
  });
  it('a renewal: no event, a subscription.renew record', () => {
    const r = appliedRecords(effect({ type: 'DID_RENEW', kept: 'sub_1' }));
    assert.deepEqual(r.events, []);
    assert.equal(r.audit[0]!.action, 'subscription.renew');
    assert.equal(r.audit[0]!.targetId, 'sub_1');
  });
});

describe('settingsAudit', () => {
  it('names each changed field and never the secret', () => {
    const a = settingsAudit({
      realmId: 'r',
      provider: 'stripe',
      before: { note: 1 },
      after: { note: 1 },
      secretSet: true,
      actor: { type: 'api_key', id: 'key_1' },
      requestId: 'req_1',
      now: 5,
    });
    assert.equal(a.action, 'billing_provider.update');
    assert.equal(a.targetId, 'stripe');
    assert.deepEqual(a.changes, { webhookSecret: { before: '[redacted]', after: '[redacted]' } });
    const b = settingsAudit({
      realmId: 'r',
      provider: 'app_store',
      before: null,
      after: { bundleId: 'com.x', environments: ['Sandbox'] },
      secretSet: false,
      actor: { type: 'api_key', id: 'key_1' },
      requestId: null,
      now: 5,
    });
    assert.deepEqual(b.changes, { bundleId: { before: null, after: 'com.x' }, environments: { before: null, after: ['Sandbox'] } });
  });
});
