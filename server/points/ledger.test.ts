import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type LedgerHead, ledgerAppend, ledgerIsEmpty, ledgerPruning, pruneAfter, windowUsage } from './ledger.ts';

const head = (seq: number, cum: number, lastAt: number, retentionMs = 0): LedgerHead => ({ seq, cum, lastAt, retentionMs });
const DAY = 86_400_000;

describe('running-total ledger: usage of a window', () => {
  it('nothing consumed yet (no head, or a head at seq 0) is 0 used, without times', () => {
    assert.ok(ledgerIsEmpty(undefined));
    assert.ok(ledgerIsEmpty(head(0, 0, 0, 3_600_000)));
    assert.ok(!ledgerIsEmpty(head(1, 5, 10)));
    assert.deepEqual(windowUsage(undefined, undefined, undefined), { used: 0, oldestAt: null, newestAt: null });
    assert.deepEqual(windowUsage(head(0, 0, 0), undefined, undefined), { used: 0, oldestAt: null, newestAt: null });
  });

  it('used = cum now − cum at the last row at or before the start; oldest from the first row after it, newest from the head', () => {
    assert.deepEqual(windowUsage(head(9, 100, 5000), 60, { at: 1200, cum: 70, amount: 10 }), { used: 40, oldestAt: 1200, newestAt: 5000 });
  });

  it('with every earlier row pruned, cum at the start is the first row after it less its own amount', () => {
    assert.deepEqual(windowUsage(head(9, 100, 5000), undefined, { at: 1200, cum: 70, amount: 10 }), { used: 40, oldestAt: 1200, newestAt: 5000 });
  });

  it('nothing after the start: 0 used, no recovery times', () => {
    assert.deepEqual(windowUsage(head(9, 100, 5000), 100, undefined), { used: 0, oldestAt: null, newestAt: null });
    assert.deepEqual(windowUsage(head(9, 100, 5000), undefined, undefined), { used: 0, oldestAt: null, newestAt: null });
  });

  it('without the second seek (a consume), used stays exact and the oldest time is unknown', () => {
    assert.deepEqual(windowUsage(head(9, 100, 5000), 60, undefined), { used: 40, oldestAt: null, newestAt: 5000 });
  });
});

describe('running-total ledger: appending a consume', () => {
  it('continues seq and cum after the head', () => {
    const a = ledgerAppend('subscription_credit', head(4, 30, 1000, DAY), 7, 2000);
    assert.deepEqual({ ...a, prune: null }, { kind: 'subscription_credit', at: 2000, seq: 5, amount: 7, cum: 37, createsHead: false, prune: null });
  });

  it('never runs time backwards: a clock stepped back appends at the head time', () => {
    assert.equal(ledgerAppend('free_periodic_credit', head(4, 30, 5000), 1, 4000).at, 5000);
  });

  it('without a head, starts at seq 1 and asks for the head row to be created', () => {
    const a = ledgerAppend('free_periodic_credit', undefined, 3, 100);
    assert.equal(a.seq, 1);
    assert.equal(a.cum, 3);
    assert.equal(a.createsHead, true);
  });
});

describe('running-total ledger: pruning policy', () => {
  it(`prunes every ${ledgerPruning.every}th append only`, () => {
    assert.equal(pruneAfter(ledgerPruning.every - 1, 0, DAY * 100), null);
    assert.notEqual(pruneAfter(ledgerPruning.every, 0, DAY * 100), null);
    assert.equal(pruneAfter(ledgerPruning.every + 1, 0, DAY * 100), null);
    assert.equal(ledgerAppend('subscription_credit', head(ledgerPruning.every - 1, 0, 0), 1, 0).prune !== null, true);
  });

  it('keeps the longest window the user held, and never less than 31 days', () => {
    const now = 400 * DAY;
    assert.deepEqual(pruneAfter(ledgerPruning.every, 3_600_000, now), { cutoff: now - 31 * DAY, batch: ledgerPruning.batch });
    assert.deepEqual(pruneAfter(ledgerPruning.every, 366 * DAY, now), { cutoff: now - 366 * DAY, batch: ledgerPruning.batch });
  });
});
