// The state after a consume as state-after.ts computes it, against the state read again after the
// consume's writes, over random sequences on the real SQLite engine: consumes drawing from windows
// of two lengths and from balances, holds released (quota given back to its rows), refunds, grants
// and clock jumps across the windows' edges. Read with the windows' times, the computed state is
// the read one in every field; read without them (as a consume reads), the alerts decide the same
// from it as from the read one whenever afterTimesNeeded says they need nothing more.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { afterTimesNeeded, decideAlerts, QUIET } from '../../server/points/alerts.ts';
import { consumeWrites } from '../../server/points/apply-plan.ts';
import { planConsume } from '../../server/points/consume.ts';
import type { UserPointsState } from '../../server/points/state.ts';
import { stateAfterConsume } from '../../server/points/state-after.ts';
import { remainingOf } from '../../server/points/summary.ts';
import { openDatabase } from '../../server/store/sqlite/open.ts';
import { pointsSql } from '../../server/store/sqlite/points-sql.ts';
import { sqliteStores } from '../../server/store/sqlite/stores.ts';
import { secretsOf } from '../helpers/server.ts';

const USER = 'u';
const MINUTE = 60_000;
const ALL_ON = { lowBalanceThresholds: [5, 20, 60], quotaExhausted: true, quotaRecovered: true };

type Op =
  | { op: 'consume'; amount: number }
  | { op: 'hold'; amount: number; release: boolean }
  | { op: 'refund'; pick: number; amount: number | null }
  | { op: 'grant'; amount: number }
  | { op: 'advance'; ms: number };

const ops = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: fc.record({ op: fc.constant('consume' as const), amount: fc.integer({ min: 1, max: 12 }) }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('hold' as const), amount: fc.integer({ min: 1, max: 8 }), release: fc.boolean() }) },
    {
      weight: 2,
      arbitrary: fc.record({ op: fc.constant('refund' as const), pick: fc.nat(), amount: fc.option(fc.integer({ min: 1, max: 6 })) }),
    },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('grant' as const), amount: fc.integer({ min: 1, max: 30 }) }) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 40 * MINUTE }) }) },
  ),
  { minLength: 1, maxLength: 60 },
);

const view = (st: UserPointsState) => ({ total: remainingOf(st).total, windows: st.windows });

async function run(sequence: Op[]): Promise<{ computed: number; reread: number }> {
  const db = openDatabase(':memory:');
  const s = sqliteStores(db, secretsOf(':memory:'));
  const p = pointsSql(db);
  let now = Date.UTC(2026, 5, 1, 8);
  let n = 0;
  const counts = { computed: 0, reread: 0 };
  try {
    await s.admin.createRealm({ id: 'r', name: 'r', createdAt: 0 });
    const user = { id: USER, realmId: 'r', email: 'u@example.com', emailVerified: false, givenName: null, familyName: null };
    await s.users.createUser({ ...user, createdAt: 0, updatedAt: 0, disabledAt: null });
    const windows = [
      { windowSeconds: 600, limit: 15 },
      { windowSeconds: 3600, limit: 40 },
    ];
    const config = { registrationBonusPoints: 50, freePeriodicGrantPeriodType: 'daily' as const, freePeriodicQuotaWindows: windows };
    await s.points.putDefaultConfig('r', config, now);
    await s.points.grantRegistration('r', USER, now);
    const consumed: string[] = [];
    for (const o of sequence) {
      const id = `${o.op}${n++}`;
      const cmd = { realmId: 'r', userId: USER, description: null, idempotencyKey: null, requestHash: id };
      if (o.op === 'advance') now += o.ms;
      else if (o.op === 'grant') await s.points.grant({ ...cmd, amount: o.amount, kind: 'granted_credit', expiresAt: null, grantId: id }, now);
      else if (o.op === 'hold') {
        const held = await s.points.hold({ ...cmd, amount: o.amount, ttlSeconds: 60, holdId: id }, now).catch(() => null);
        if (held && o.release) await s.points.release({ ...cmd, holdId: id, transactionId: `${id}r` }, now);
      } else if (o.op === 'refund') {
        if (consumed.length === 0) continue;
        const transactionId = consumed[o.pick % consumed.length]!;
        await s.points.refund({ ...cmd, transactionId, amount: o.amount, reason: null, refundId: id }, now).catch(() => null);
      } else {
        // A consume as the store makes it, the state read before it both with and without the times.
        p.materialise('r', USER, now);
        const before = p.state(USER, now);
        const untimed = p.state(USER, now, false);
        const plan = planConsume(o.amount, before.quota, before.balances, now);
        if (!plan.ok) continue;
        const w = consumeWrites({ ...cmd, amount: o.amount, transactionId: id }, before, plan, now);
        p.applyConsume(USER, w);
        consumed.push(id);
        const read = p.state(USER, now);
        assert.deepEqual(stateAfterConsume(before, w), read, `after ${id}`);
        const computed = view(stateAfterConsume(untimed, w));
        if (afterTimesNeeded(view(untimed), computed)) {
          counts.reread++;
          continue;
        }
        counts.computed++;
        assert.deepEqual(
          decideAlerts(ALL_ON, QUIET, USER, view(untimed), computed, now),
          decideAlerts(ALL_ON, QUIET, USER, view(untimed), view(read), now),
          `alerts of ${id}`,
        );
      }
    }
  } finally {
    db.close();
  }
  return counts;
}

describe('the state after a consume', () => {
  it('computed from the state before and the writes is the state read after them', async () => {
    const total = { computed: 0, reread: 0 };
    await fc.assert(
      fc.asyncProperty(ops, async (sequence) => {
        const c = await run(sequence);
        total.computed += c.computed;
        total.reread += c.reread;
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 60) },
    );
    // Both ways were taken: most consumes spared the read, the ones exhausting a window read it.
    assert.ok(total.computed > total.reread && total.reread > 0, JSON.stringify(total));
  });
});
