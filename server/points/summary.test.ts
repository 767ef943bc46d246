import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Balance } from './model.ts';
import { summarise } from './summary.ts';

const bal = (kind: Balance['kind'], remaining: number): Balance => ({
  id: `${kind}-${remaining}`,
  kind,
  amount: remaining,
  remaining,
  expiresAt: null,
  createdAt: 0,
});

describe('points summary', () => {
  it('adds balances up by kind, totals quota and pool, and takes the held points and the count from all open holds, not the few listed', () => {
    const s = summarise(
      'u',
      {
        windows: [],
        quota: [{ kind: 'subscription_credit', sourceId: 'e', available: 7, head: undefined }],
        balances: [
          bal('topup_credit', 5),
          bal('topup_credit', 6),
          bal('registration_credit', 1),
          bal('granted_credit', 2),
          bal('subscription_credit', 3),
          bal('free_periodic_credit', 4),
        ],
      },
      {
        count: 30,
        held: 70,
        soonest: [
          { holdId: 'hld_1', amount: 6, expiresAt: 9000 },
          { holdId: 'hld_2', amount: 1, expiresAt: 9500 },
        ],
      },
    );
    assert.deepEqual(s, {
      userId: 'u',
      balances: { topup: 11, registration: 1, granted: 2, subscription: 3, freePeriodic: 4 },
      windows: [],
      spendableFromQuota: 7,
      spendableFromPool: 21,
      total: 28,
      held: 70,
      holdCount: 30,
      holds: [
        { holdId: 'hld_1', amount: 6, expiresAt: 9000 },
        { holdId: 'hld_2', amount: 1, expiresAt: 9500 },
      ],
    });
  });
});
