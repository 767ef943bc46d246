import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatehouseError } from '../errors.ts';
import { mustCancel, subscribeDecision, updatedMapping } from './mapping-rules.ts';
import { newMapping } from './mappings.ts';
import type { EntitlementMapping, Subscription } from './model.ts';

const mapping = (m: Partial<EntitlementMapping> = {}): EntitlementMapping => ({
  ...newMapping('map_1', 'r', 'stripe', 'pro', { entitlementKey: 'pro' }, 1),
  ...m,
});
const isError =
  (code: string, check: (e: GatehouseError) => boolean = () => true) =>
  (e: unknown) =>
    e instanceof GatehouseError && e.code === code && check(e);

describe('a batch row updating a mapping', () => {
  it('merges the given fields and stamps the time', () => {
    const m = updatedMapping(0, { mappingId: 'map_1', pointsPerPeriod: 9 }, mapping(), 'stripe', 'pro', 5);
    assert.equal(m.pointsPerPeriod, 9);
    assert.equal(m.entitlementKey, 'pro');
    assert.equal(m.updatedAt, 5);
  });

  it('an unknown mapping, or one of another provider or product, is a 404 naming the row', () => {
    for (const cur of [null, mapping({ paymentProvider: 'apple' }), mapping({ externalProductId: 'basic' })]) {
      assert.throws(
        () => updatedMapping(2, { mappingId: 'map_1' }, cur, 'stripe', 'pro', 5),
        isError('not_found', (e) => e.extra.field === 'updates[2].mappingId' && e.message === 'updates[2].mappingId: mapping map_1 not found for stripe/pro'),
      );
    }
  });

  it('disabling a mapping with active subscriptions is refused: 409 mapping_in_use with the count', () => {
    assert.throws(
      () => updatedMapping(1, { mappingId: 'map_1', enabled: false }, mapping({ activeSubscriptions: 3 }), 'stripe', 'pro', 5),
      isError('mapping_in_use', (e) => e.extra.mappingId === 'map_1' && e.extra.activeSubscriptions === 3),
    );
  });

  it('disabling one without active subscriptions, or one already disabled, is allowed', () => {
    assert.equal(updatedMapping(0, { mappingId: 'map_1', enabled: false }, mapping(), 'stripe', 'pro', 5).enabled, false);
    assert.equal(
      updatedMapping(0, { mappingId: 'map_1', enabled: false }, mapping({ enabled: false, activeSubscriptions: 2 }), 'stripe', 'pro', 5).enabled,
      false,
    );
  });
});

describe('subscribing', () => {
  const req = { realmId: 'r', userId: 'u', mappingId: 'map_1', externalSubscriptionId: 'ext_1' };
  const prior = (s: Partial<Subscription>): Subscription => ({
    id: 'sub_1',
    realmId: 'r',
    userId: 'u',
    mappingId: 'map_1',
    externalSubscriptionId: 'ext_1',
    status: 'active',
    entitlement: 'fixed',
    startedAt: 0,
    canceledAt: null,
    ...s,
  });

  it("snapshots the mapping's terms", () => {
    const windows = [{ windowSeconds: 60, limit: 5 }];
    assert.deepEqual(subscribeDecision(req, mapping({ quotaWindows: windows, pointsPerPeriod: 3 }), null), {
      terms: { pointsPerPeriod: 3, grantPeriodType: 'monthly', validityDays: 0, grantOnSubscribe: true, maxPeriods: 0, quotaWindows: windows },
    });
  });

  it('an unknown mapping is a 404 naming mappingId', () => {
    assert.throws(
      () => subscribeDecision(req, null, null),
      isError('not_found', (e) => e.extra.field === 'mappingId'),
    );
  });

  it('a webhook delivered twice (same user and mapping) answers the prior subscription again', () => {
    const p = prior({});
    assert.deepEqual(subscribeDecision(req, mapping(), p), { existing: p });
    assert.deepEqual(subscribeDecision(req, mapping({ enabled: false }), p), { existing: p }, 'even once the mapping is disabled');
  });

  it('an externalSubscriptionId of another user or mapping is a 409 conflict', () => {
    assert.throws(
      () => subscribeDecision(req, mapping(), prior({ userId: 'v' })),
      isError('conflict', (e) => e.extra.field === 'externalSubscriptionId'),
    );
    assert.throws(() => subscribeDecision(req, mapping(), prior({ mappingId: 'map_2' })), isError('conflict'));
  });

  it('a disabled mapping is a 409 conflict', () => {
    assert.throws(
      () => subscribeDecision(req, mapping({ enabled: false }), null),
      isError('conflict', (e) => e.extra.mappingId === 'map_1'),
    );
  });
});

describe('canceling', () => {
  it('an active subscription is canceled; a canceled one answered unchanged; an unknown one is a 404', () => {
    assert.equal(mustCancel({ status: 'active' }, 'r', 'sub_1'), true);
    assert.equal(mustCancel({ status: 'canceled' }, 'r', 'sub_1'), false);
    assert.throws(
      () => mustCancel(undefined, 'r', 'sub_1'),
      isError('not_found', (e) => e.message === 'Subscription sub_1 not found in realm r'),
    );
  });
});
