import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { balanceIsLive } from './balance-life.ts';

const NOW = Date.UTC(2026, 3, 1, 12);

describe('balance life', () => {
  it('a balance is live until its expiry, not at it', () => {
    assert.equal(balanceIsLive({ expiresAt: null, endedAt: null }, NOW), true);
    assert.equal(balanceIsLive({ expiresAt: NOW + 1, endedAt: null }, NOW), true);
    assert.equal(balanceIsLive({ expiresAt: NOW, endedAt: null }, NOW), false);
    assert.equal(balanceIsLive({ expiresAt: NOW - 1, endedAt: null }, NOW), false);
  });

  it('an ended balance is not live, whenever it was ended and whatever its expiry', () => {
    assert.equal(balanceIsLive({ expiresAt: null, endedAt: NOW - 1 }, NOW), false);
    assert.equal(balanceIsLive({ expiresAt: NOW + 1, endedAt: NOW }, NOW), false);
  });
});
