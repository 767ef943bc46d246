import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planConsume } from './consume.ts';
import type { Balance } from './model.ts';

const bal = (id: string, kind: Balance['kind'], remaining: number, expiresAt: number | null, createdAt = 0): Balance => ({
  id,
  kind,
  amount: remaining,
  remaining,
  expiresAt,
  createdAt,
});

describe('consume planning', () => {
  it('takes subscription quota, then free quota, then balances by expiry, never-expiring last, oldest first', () => {
    const plan = planConsume(
      100,
      [
        { kind: 'free_periodic_credit', sourceId: 'f', available: 5 },
        { kind: 'subscription_credit', sourceId: 's', available: 10 },
      ],
      [
        bal('never-new', 'topup_credit', 50, null, 2),
        bal('never-old', 'registration_credit', 50, null, 1),
        bal('late', 'granted_credit', 20, 900),
        bal('soon', 'topup_credit', 20, 500),
        bal('gone', 'topup_credit', 99, 100),
      ],
      100,
    );
    assert.ok(plan.ok);
    assert.deepEqual(
      plan.allocations.map((a) => [a.sourceId, a.amount]),
      [
        ['s', 10],
        ['f', 5],
        ['soon', 20],
        ['late', 20],
        ['never-old', 45],
      ],
    );
    assert.equal(plan.fromQuota, 15);
    assert.equal(plan.fromPool, 85);
  });

  it('draws balances of the same expiry and age in a fixed kind order, paid points last, whatever their ids', () => {
    const same = [
      bal('a-top', 'topup_credit', 5, 1000, 7),
      bal('b-reg', 'registration_credit', 5, 1000, 7),
      bal('c-grt', 'granted_credit', 5, 1000, 7),
      bal('d-free', 'free_periodic_credit', 5, 1000, 7),
      bal('e-sub', 'subscription_credit', 5, 1000, 7),
    ];
    for (const order of [same, [...same].reverse()]) {
      const plan = planConsume(25, [], order, 0);
      assert.ok(plan.ok);
      assert.deepEqual(
        plan.allocations.map((l) => l.creditKind),
        ['subscription_credit', 'free_periodic_credit', 'granted_credit', 'registration_credit', 'topup_credit'],
      );
    }
  });

  it('is all or nothing: reports what the user has when it cannot cover the amount', () => {
    assert.deepEqual(planConsume(31, [{ kind: 'subscription_credit', sourceId: 's', available: 10 }], [bal('a', 'topup_credit', 20, null)], 0), {
      ok: false,
      have: 30,
    });
  });
});
