import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Balance, WindowEntitlement } from './model.ts';
import { quotaBindings, spendableFromPool, spendableFromQuota, userState } from './state.ts';

const ent = (id: string, kind: WindowEntitlement['kind'], windows: Array<[number, number]>, startsAt = 0, endsAt: number | null = null): WindowEntitlement => ({
  id,
  kind,
  windows: windows.map(([windowSeconds, limit]) => ({ windowSeconds, limit })),
  startsAt,
  endsAt,
});
const bal = (id: string, remaining: number): Balance => ({ id, kind: 'topup_credit', amount: remaining, remaining, expiresAt: null, createdAt: 0 });

describe('a user state from what the store read', () => {
  it('binds subscription windows before free periodic ones, skipping kinds without active windows', () => {
    const b = quotaBindings(
      [ent('f', 'free_periodic_credit', [[60, 5]]), ent('s', 'subscription_credit', [[3600, 10]]), ent('old', 'subscription_credit', [[60, 1]], 0, 50)],
      100,
    );
    assert.deepEqual(
      b.map((x) => [x.kind, x.sourceId, x.windows]),
      [
        ['subscription_credit', 's', [{ windowSeconds: 3600, limit: 10 }]],
        ['free_periodic_credit', 'f', [{ windowSeconds: 60, limit: 5 }]],
      ],
    );
    assert.deepEqual(quotaBindings([ent('later', 'subscription_credit', [[60, 1]], 500)], 100), []);
  });

  it('names the earliest active entitlement of a kind (by start, then id), whatever the read order', () => {
    const ents = [
      ent('b', 'subscription_credit', [[60, 5]], 10),
      ent('c', 'subscription_credit', [[60, 9]], 5),
      ent('a', 'subscription_credit', [[3600, 9]], 10),
    ];
    assert.equal(quotaBindings(ents, 100)[0]!.sourceId, 'c');
    assert.equal(quotaBindings([ents[0]!, ents[2]!], 100)[0]!.sourceId, 'a');
  });

  it('assembles window rows, available quota with its ledger head, and the spendable totals', () => {
    const bindings = quotaBindings(
      [
        ent('s', 'subscription_credit', [
          [60, 10],
          [3600, 25],
        ]),
      ],
      100,
    );
    const head = { seq: 3, cum: 12, lastAt: 90, returned: 0 };
    const st = userState(
      bindings,
      [head],
      [
        [
          { used: 4, oldestAt: 80, newestAt: 90 },
          { used: 12, oldestAt: 10, newestAt: 90 },
        ],
      ],
      [bal('t', 7), bal('u', 3)],
    );
    assert.deepEqual(
      st.windows.map((w) => [w.key, w.used, w.remaining, w.isTightest]),
      [
        ['1m', 4, 6, true],
        ['1h', 12, 13, false],
      ],
    );
    assert.deepEqual(st.quota, [{ kind: 'subscription_credit', sourceId: 's', available: 6, head }]);
    assert.equal(spendableFromQuota(st), 6);
    assert.equal(spendableFromPool(st), 10);
  });
});
