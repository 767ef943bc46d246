import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatehouseError } from '../errors.ts';
import { assertHoldRoom, HOLD_LIMITS } from './holds.ts';

describe('open holds per user', () => {
  it('lets a user open holds up to the limit and refuses the next with 409 too_many_holds naming it', () => {
    assert.equal(HOLD_LIMITS.openPerUser, 1000);
    for (const open of [0, 1, HOLD_LIMITS.openPerUser - 1]) assert.doesNotThrow(() => assertHoldRoom(open));
    for (const open of [HOLD_LIMITS.openPerUser, HOLD_LIMITS.openPerUser + 1]) {
      assert.throws(
        () => assertHoldRoom(open),
        (e) => e instanceof GatehouseError && e.code === 'too_many_holds' && e.extra.limit === 1000,
      );
    }
  });
});
