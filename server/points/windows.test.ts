import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { availableOf, bindingWindows, windowKey, windowListProblem, windowRows } from './windows.ts';

describe('window rules', () => {
  const w = (windowSeconds: number, limit: number) => ({ windowSeconds, limit });
  const table: Array<[string, Array<{ windowSeconds?: unknown; limit?: unknown }>, string | null]> = [
    ['empty list', [], null],
    ['eight rows', Array.from({ length: 8 }, (_, i) => w(i + 1, 0)), null],
    ['nine rows', Array.from({ length: 9 }, (_, i) => w(i + 1, 0)), 'q: at most 8 windows, got 9'],
    ['windowSeconds 0', [w(0, 1)], 'q[0].windowSeconds: must be > 0'],
    ['windowSeconds 1', [w(1, 1)], null],
    ['limit -1', [w(5, 1), w(6, -1)], 'q[1].limit: must be ≥ 0'],
    ['limit 0', [w(5, 0)], null],
    ['non-integer', [{ windowSeconds: 1.5, limit: 1 }], 'q[0].windowSeconds: must be an integer'],
    ['string limit', [{ windowSeconds: 5, limit: '1' }], 'q[0].limit: must be an integer'],
    ['missing limit', [{ windowSeconds: 5 }], 'q[0].limit: required'],
    ['null limit', [{ windowSeconds: 5, limit: null }], 'q[0].limit: required'],
    ['missing windowSeconds', [{ limit: 5 }], 'q[0].windowSeconds: required'],
    ['windowSeconds 366 days', [w(31_622_400, 1)], null],
    ['windowSeconds 366 days + 1 s', [w(31_622_401, 1)], 'q[0].windowSeconds: must be at most 31622400 (366 days)'],
    ['windowSeconds 2^53−1', [w(Number.MAX_SAFE_INTEGER, 1)], 'q[0].windowSeconds: must be at most 31622400 (366 days)'],
    ['limit 2^53−1', [w(60, Number.MAX_SAFE_INTEGER)], null],
    ['limit 2^53', [w(60, 2 ** 53)], 'q[0].limit: must be at most 9007199254740991'],
    ['duplicate length', [w(5, 1), w(5, 2)], 'q[1].windowSeconds: duplicate window length 5 (same as q[0])'],
  ];
  for (const [name, list, expected] of table) {
    it(`${name} → ${expected ?? 'ok'}`, () => {
      const p = windowListProblem(list, 'q');
      assert.equal(p ? `${p.field}: ${p.message}` : null, expected);
    });
  }
});

describe('window keys', () => {
  for (const [s, key] of [
    [18000, '5h'],
    [86400, 'day'],
    [604800, 'week'],
    [2592000, 'month'],
    [172800, '2d'],
    [7200, '2h'],
    [90, '90s'],
    [5400, '90m'],
    [60, '1m'],
    [1, '1s'],
  ] as const) {
    it(`${s} s is ${key}`, () => assert.equal(windowKey(s), key));
  }
});

describe('binding windows and availability', () => {
  it('combines active entitlements per length with the smallest limit, shortest first', () => {
    const ents = [
      {
        id: 'a',
        kind: 'subscription_credit' as const,
        windows: [
          { windowSeconds: 86400, limit: 50 },
          { windowSeconds: 3600, limit: 10 },
        ],
        startsAt: 0,
        endsAt: null,
      },
      { id: 'b', kind: 'subscription_credit' as const, windows: [{ windowSeconds: 86400, limit: 40 }], startsAt: 0, endsAt: 100 },
      { id: 'c', kind: 'free_periodic_credit' as const, windows: [{ windowSeconds: 60, limit: 1 }], startsAt: 0, endsAt: null },
    ];
    assert.deepEqual(bindingWindows(ents, 'subscription_credit', 99), [
      { windowSeconds: 3600, limit: 10 },
      { windowSeconds: 86400, limit: 40 },
    ]);
    assert.deepEqual(bindingWindows(ents, 'subscription_credit', 100), [
      { windowSeconds: 3600, limit: 10 },
      { windowSeconds: 86400, limit: 50 },
    ]);
  });

  it('the tightest window exhausted means 0 even when longer windows have room', () => {
    const rows = windowRows(
      'subscription_credit',
      [
        { windowSeconds: 18000, limit: 10 },
        { windowSeconds: 604800, limit: 100 },
      ],
      [
        { used: 10, oldestAt: 1000, newestAt: 2000 },
        { used: 30, oldestAt: 0, newestAt: 2000 },
      ],
    );
    assert.equal(availableOf(rows), 0);
    assert.deepEqual(
      rows.map((r) => [r.remaining, r.isTightest, r.exhausted, r.nextRecoveryAt, r.resetsAt]),
      [
        [0, true, true, 1000 + 18_000_000, 2000 + 18_000_000],
        [70, false, false, 604_800_000, 2000 + 604_800_000],
      ],
    );
  });

  it('a limit below usage (after a config change) counts as 0 available, not negative', () => {
    const rows = windowRows('free_periodic_credit', [{ windowSeconds: 60, limit: 5 }], [{ used: 9, oldestAt: 0, newestAt: 0 }]);
    assert.equal(rows[0]!.remaining, 0);
    assert.equal(availableOf(rows), 0);
    assert.equal(availableOf([]), 0);
  });
});
