// The refund rules beside them: what a refund takes from which line, and which lines' sources take
// their points back (docs/points.md "Refunds").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChargeLine } from './charges.ts';
import { planRefund, returnable } from './refund.ts';

const NOW = Date.UTC(2026, 3, 1, 12);
const HOUR = 3_600_000;

describe('refunds', () => {
  const windowLine = (at: number): ChargeLine => ({ creditKind: 'free_periodic_credit', sourceId: 'ent_1', amount: 3, at, seq: 1 });
  const balanceLine: ChargeLine = { creditKind: 'topup_credit', sourceId: 'bal_1', amount: 2 };
  const longest = new Map([['free_periodic_credit' as const, 86_400]]);

  it('a window line goes back while its charge is inside the longest window of its kind, and not at its edge', () => {
    const can = returnable(longest, () => undefined, NOW);
    assert.equal(can(windowLine(NOW - 23 * HOUR)), true);
    assert.equal(can(windowLine(NOW - 24 * HOUR)), false);
    assert.equal(returnable(new Map(), () => undefined, NOW)(windowLine(NOW - HOUR)), false, 'no window of its kind any more');
  });

  it('a balance line goes back while its balance has neither expired nor ended, and never to a balance gone', () => {
    const life = (expiresAt: number | null, endedAt: number | null) => returnable(longest, () => ({ expiresAt, endedAt }), NOW)(balanceLine);
    assert.equal(life(null, null), true);
    assert.equal(life(NOW + 1, null), true);
    assert.equal(life(NOW, null), false, 'expired at this instant');
    assert.equal(life(null, NOW - 1), false, 'ended');
    assert.equal(returnable(longest, () => undefined, NOW)(balanceLine), false);
  });

  it('takes the newest lines first; what cannot go back is refunded but not returned', () => {
    const tx = { transactionId: 'ptx_1', userId: 'usr_1', amount: 5, refunded: 0, lines: [balanceLine, windowLine(NOW - 25 * HOUR)] };
    const d = planRefund(
      tx,
      4,
      returnable(longest, () => ({ expiresAt: null, endedAt: null }), NOW),
    );
    assert.equal(d.amount, 4);
    assert.deepEqual(
      d.shares.map((s) => [s.sourceId, s.amount, s.returned]),
      [
        ['bal_1', 1, 1],
        ['ent_1', 3, 0],
      ],
    );
    assert.equal(d.refunded, 1);
  });
});
