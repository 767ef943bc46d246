import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatehouseError } from '../errors.ts';
import { replayOf } from './idempotency.ts';

describe('idempotency keys', () => {
  const stored = { requestHash: 'h1', response: '{"transactionId":"ptx_1"}' };

  it('no key, or nothing stored under it: go on', () => {
    assert.equal(replayOf(null, undefined, 'h1'), null);
    assert.equal(replayOf('k', undefined, 'h1'), null);
  });

  it('the same key with the same request: the stored answer again', () => {
    assert.equal(replayOf('k', stored, 'h1'), stored);
  });

  it('the same key with another request: 409 idempotency_conflict naming the key', () => {
    assert.throws(
      () => replayOf('k', stored, 'h2'),
      (e: unknown) => e instanceof GatehouseError && e.code === 'idempotency_conflict' && e.extra.idempotencyKey === 'k',
    );
  });
});
