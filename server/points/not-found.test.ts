import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatehouseError } from '../errors.ts';
import { assertRealm, assertUser } from './not-found.ts';

describe('lookups', () => {
  it('an unknown realm or user is a 404 naming it; a known one passes', () => {
    assert.doesNotThrow(() => assertRealm(true, 'r'));
    assert.doesNotThrow(() => assertUser(true, 'r', 'u'));
    assert.throws(
      () => assertRealm(false, 'r'),
      (e: unknown) => e instanceof GatehouseError && e.code === 'not_found' && e.message === 'Realm r not found',
    );
    assert.throws(
      () => assertUser(false, 'r', 'u'),
      (e: unknown) => e instanceof GatehouseError && e.code === 'not_found' && e.message === 'User u not found in realm r',
    );
  });
});
