import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadProtos } from './proto.ts';
import { unsafeInteger } from './safe-integers.ts';

const { root } = loadProtos();
const consume = root.lookupType('gatehouse.v1.ConsumeRequest');
const batch = root.lookupType('gatehouse.v1.BatchUpdateEntitlementMappingsRequest');
const realm = root.lookupType('gatehouse.v1.CreateRealmRequest');

describe('int64 fields decoded from gRPC', () => {
  it('lets every integer within ±(2^53−1) through', () => {
    assert.equal(unsafeInteger(consume, { realmId: 'r', amount: Number.MAX_SAFE_INTEGER }), null);
    assert.equal(unsafeInteger(consume, { realmId: 'r', amount: -Number.MAX_SAFE_INTEGER }), null);
    assert.equal(unsafeInteger(realm, { id: 'r' }), null);
  });

  it('names the field, by its JSON path, of a value beyond 2^53−1', () => {
    const e = unsafeInteger(consume, { amount: 2 ** 63 });
    assert.equal(e?.message, 'amount: integer out of range (at most 2^53−1)');
    assert.equal(e?.extra.field, 'amount');
    const low = unsafeInteger(consume, { amount: -(2 ** 60) });
    assert.equal(low?.message, 'amount: integer out of range (at least −(2^53−1))');
  });

  it('walks repeated and nested messages, and a json_list as its bare array', () => {
    const req = { updates: [{ pointsPerPeriod: 1 }, { pointsPerPeriod: 2, quotaWindows: { windows: [{ windowSeconds: 60, limit: 2 ** 53 }] } }] };
    const e = unsafeInteger(batch, req);
    assert.equal(e?.extra.field, 'updates[1].quotaWindows[0].limit');
  });
});
