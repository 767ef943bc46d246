import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatehouseError } from '../errors.ts';
import { consumeWrites } from './apply-plan.ts';
import { planConsume } from './consume.ts';
import { ledgerPruning } from './ledger.ts';
import type { Balance } from './model.ts';
import type { UserPointsState } from './state.ts';

const bal = (id: string, kind: Balance['kind'], remaining: number, expiresAt: number | null = null): Balance => ({
  id,
  kind,
  amount: remaining,
  remaining,
  expiresAt,
  createdAt: 0,
});
const rec = (amount: number) => ({ transactionId: 'ptx_1', userId: 'u', amount, description: null });

const state: UserPointsState = {
  windows: [],
  quota: [
    { kind: 'subscription_credit', sourceId: 'ent_s', available: 10, head: { seq: 4, cum: 40, lastAt: 900, returned: 0 } },
    { kind: 'free_periodic_credit', sourceId: 'ent_f', available: 5, head: undefined },
  ],
  // A fixed subscription grant is a balance of a quota kind: spent, not put in the ledger.
  balances: [bal('bal_fixed', 'subscription_credit', 4, 5000), bal('bal_topup', 'topup_credit', 100)],
};

describe('the writes of a consume plan', () => {
  it("appends window quota to each kind's ledger after its head, spends balances, and answers what remains", () => {
    const w = consumeWrites(rec(30), state, planConsume(30, state.quota, state.balances, 1000), 1000);
    assert.deepEqual(
      w.ledger.map((l) => ({ ...l, prune: null })),
      [
        { kind: 'subscription_credit', at: 1000, seq: 5, amount: 10, cum: 50, createsHead: false, prune: null },
        { kind: 'free_periodic_credit', at: 1000, seq: 1, amount: 5, cum: 5, createsHead: true, prune: null },
      ],
    );
    assert.deepEqual(
      w.spends.map((s) => [s.sourceId, s.amount]),
      [
        ['bal_fixed', 4],
        ['bal_topup', 11],
      ],
    );
    assert.deepEqual(w.result, {
      transactionId: 'ptx_1',
      userId: 'u',
      amount: 30,
      allocations: [
        { creditKind: 'subscription_credit', sourceId: 'ent_s', amount: 10 },
        { creditKind: 'free_periodic_credit', sourceId: 'ent_f', amount: 5 },
        { creditKind: 'subscription_credit', sourceId: 'bal_fixed', amount: 4 },
        { creditKind: 'topup_credit', sourceId: 'bal_topup', amount: 11 },
      ],
      remaining: { quota: 0, pool: 89, total: 89 },
      createdAt: 1000,
    });
  });

  it('asks for a prune when the append reaches the pruning interval', () => {
    const s: UserPointsState = { ...state, quota: [{ ...state.quota[0]!, head: { seq: ledgerPruning.every - 1, cum: 0, lastAt: 0, returned: 0 } }] };
    const w = consumeWrites(rec(1), s, planConsume(1, s.quota, [], 50 * 86_400_000), 50 * 86_400_000);
    assert.deepEqual(w.ledger[0]!.prune, { cutoff: 50 * 86_400_000 - ledgerPruning.retentionMs, batch: ledgerPruning.batch });
  });

  it('refuses a plan that cannot cover the amount: 409 insufficient_points with have and need, nothing to write', () => {
    assert.throws(
      () => consumeWrites(rec(200), state, planConsume(200, state.quota, state.balances, 1000), 1000),
      (e: unknown) =>
        e instanceof GatehouseError &&
        e.code === 'insufficient_points' &&
        e.extra.have === 119 &&
        e.extra.need === 200 &&
        e.message === 'Not enough points: have 119, need 200',
    );
  });
});
