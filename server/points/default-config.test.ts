import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergeDefaultConfig } from './default-config.ts';
import { type DefaultPointsConfig, defaultConfigFor } from './model.ts';

describe('default configuration PUT (a partial update)', () => {
  const cur: DefaultPointsConfig = {
    ...defaultConfigFor('r'),
    registrationBonusPoints: 5,
    freePeriodicQuotaWindows: [{ windowSeconds: 60, limit: 1 }],
    updatedAt: 1,
  };

  it('keeps every absent field and stamps the time', () => {
    assert.deepEqual(mergeDefaultConfig(cur, { freePeriodicPointsAmount: 9 }, 2), { ...cur, freePeriodicPointsAmount: 9, updatedAt: 2 });
  });

  it('windows: absent keeps them, [] clears them, a list replaces them', () => {
    assert.deepEqual(mergeDefaultConfig(cur, {}, 2).freePeriodicQuotaWindows, [{ windowSeconds: 60, limit: 1 }]);
    assert.deepEqual(mergeDefaultConfig(cur, { freePeriodicQuotaWindows: [] }, 2).freePeriodicQuotaWindows, []);
    assert.deepEqual(mergeDefaultConfig(cur, { freePeriodicQuotaWindows: [{ windowSeconds: 5, limit: 2 }] }, 2).freePeriodicQuotaWindows, [
      { windowSeconds: 5, limit: 2 },
    ]);
  });

  it('a zero is a value, not an absent field', () => {
    assert.equal(mergeDefaultConfig(cur, { registrationBonusPoints: 0 }, 2).registrationBonusPoints, 0);
  });
});
