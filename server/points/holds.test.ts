import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatehouseError } from '../errors.ts';
import { assertHoldRoom, HOLD_LIMITS, openHold, settleDecision } from './holds.ts';

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

describe('settling a hold', () => {
  const hold = (description: string | null) =>
    openHold(
      { realmId: 'r', userId: 'usr_1', holdId: 'hld_1', amount: 5, ttlSeconds: 60, description, idempotencyKey: null, requestHash: '' },
      [{ creditKind: 'topup_credit', sourceId: 'bal_1', amount: 5 }],
      0,
    );

  it('describes the settlement by its own description, else by the hold’s', () => {
    assert.equal(settleDecision(hold('ride'), 5, 'ride, 3 km').description, 'ride, 3 km');
    assert.equal(settleDecision(hold('ride'), 3, null).description, 'ride');
    assert.equal(settleDecision(hold(null), 7, null).description, null);
  });

  it('keeps every line at the held amount, gives back below it and draws the extra above it', () => {
    assert.deepEqual(settleDecision(hold(null), 5, null).extra, 0);
    assert.deepEqual(settleDecision(hold(null), 7, null).extra, 2);
    assert.deepEqual(
      settleDecision(hold(null), 3, null).returns.map((r) => r.amount),
      [2],
    );
  });
});
