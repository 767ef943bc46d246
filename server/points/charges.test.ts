import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ChargeLine, returnTargets } from './charges.ts';

describe('where points going back go', () => {
  const quota: ChargeLine = { creditKind: 'free_periodic_credit', sourceId: 'ent_1', amount: 3, at: 1000, seq: 4 };
  const rowless: ChargeLine = { creditKind: 'free_periodic_credit', sourceId: 'ent_1', amount: 2 };
  const balance: ChargeLine = { creditKind: 'topup_credit', sourceId: 'bal_1', amount: 5 };

  it('quota to the ledger row it was drawn at, the rest to the balance its line names', () => {
    const t = returnTargets([
      { line: balance, amount: 4 },
      { line: quota, amount: 3 },
      { line: rowless, amount: 2 },
    ]);
    assert.deepEqual(t.rows, [{ line: quota, amount: 3 }]);
    assert.deepEqual(t.balances, [
      { line: balance, amount: 4 },
      { line: rowless, amount: 2 },
    ]);
  });

  it('a share of 0 goes nowhere', () => {
    assert.deepEqual(
      returnTargets([
        { line: quota, amount: 0 },
        { line: balance, amount: 0 },
      ]),
      { rows: [], balances: [] },
    );
  });
});
