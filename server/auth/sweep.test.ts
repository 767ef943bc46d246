import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { silentLogger } from '../lib/log.ts';
import type { AuthStore, SweepKind } from './store.ts';
import { startSweeper } from './sweep.ts';

/** A store whose sweep has `left` rows of each kind to delete, and records each call's limit. */
function sweepingStore(left: Record<SweepKind, number>) {
  const calls: Array<[SweepKind, number]> = [];
  const store = {
    async sweep(kind: SweepKind, _now: number, limit: number) {
      calls.push([kind, limit]);
      const n = Math.min(left[kind], limit);
      left[kind] -= n;
      return n;
    },
  } as unknown as AuthStore;
  return { store, calls };
}

describe('the sweeper', () => {
  it('deletes each kind batch after batch while a batch comes back full, and stops at the first short one', async () => {
    const { store, calls } = sweepingStore({ transactions: 7, codes: 0, webAttempts: 3, families: 1, appleNotifications: 6 });
    const pruned: number[] = [];
    let events = 5;
    const sweeper = startSweeper({
      store,
      clock: { now: () => 1_000 },
      log: silentLogger,
      batch: 3,
      prunes: {
        events: async (_now, limit) => {
          const n = Math.min(events, limit);
          events -= n;
          pruned.push(n);
          return n;
        },
      },
    });
    try {
      const counts = await sweeper.runOnce();
      assert.deepEqual(counts, { transactions: 7, codes: 0, webAttempts: 3, families: 1, appleNotifications: 6, events: 5 });
      assert.deepEqual(
        calls.map(([kind]) => kind),
        [
          'transactions',
          'transactions',
          'transactions',
          'codes',
          'webAttempts',
          'webAttempts',
          'families',
          'appleNotifications',
          'appleNotifications',
          'appleNotifications',
        ],
        'a full batch (3 of 3) is followed by another; a short one ends the kind',
      );
      assert.ok(calls.every(([, limit]) => limit === 3));
      assert.deepEqual(pruned, [3, 2]);
    } finally {
      await sweeper.stop();
    }
  });
});
