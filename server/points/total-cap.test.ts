import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fittingAmount, grantOverCap, MAX_POINTS, materialisedGrant } from './total-cap.ts';

describe('the cap on a user total (2^53−1)', () => {
  it('a grant that lands exactly on the cap fits; one point more does not', () => {
    assert.equal(grantOverCap(MAX_POINTS - 10, 10), null);
    assert.match(grantOverCap(MAX_POINTS - 10, 11) ?? '', /above 9007199254740991 \(it is 9007199254740981; at most 10 more fits\)/);
  });

  it('decides exactly where the float sum rounds (2^53−1 + 2^53−1)', () => {
    assert.ok(grantOverCap(MAX_POINTS, MAX_POINTS));
    assert.ok(grantOverCap(MAX_POINTS, 1));
    assert.ok(grantOverCap(1, MAX_POINTS));
    assert.equal(grantOverCap(0, MAX_POINTS), null);
  });

  it('a materialised grant is cut to what fits, never below 0', () => {
    assert.equal(fittingAmount(0, 500), 500);
    assert.equal(fittingAmount(MAX_POINTS - 200, 500), 200);
    assert.equal(fittingAmount(MAX_POINTS, 500), 0);
    assert.equal(fittingAmount(MAX_POINTS + 2, 500), 0);
  });

  it('a materialised grant that fits whole is not cut; one that does not is cut to what fits', () => {
    assert.deepEqual(materialisedGrant(MAX_POINTS - 500, 500), { cutTo: null, given: 500 });
    assert.deepEqual(materialisedGrant(MAX_POINTS - 200, 500), { cutTo: 200, given: 200 });
  });

  it('a materialised grant nothing of which fits, or of 0, gives nothing: no movement, no event', () => {
    assert.deepEqual(materialisedGrant(MAX_POINTS, 500), { cutTo: 0, given: null });
    assert.deepEqual(materialisedGrant(0, 0), { cutTo: null, given: null });
  });
});
