import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { historyCutoff, historyRetention, keptInHistory } from './history.ts';

const NOW = Date.UTC(2026, 3, 1, 12);

describe('history retention', () => {
  it('keeps a movement made at the cutoff, and drops one a millisecond older', () => {
    assert.equal(historyCutoff(NOW), NOW - historyRetention.ms);
    assert.equal(keptInHistory(NOW - historyRetention.ms, NOW), true);
    assert.equal(keptInHistory(NOW - historyRetention.ms - 1, NOW), false);
    assert.equal(keptInHistory(NOW, NOW), true);
  });
});
