import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { afterTimesNeeded } from './alerts.ts';
import { consumeWrites } from './apply-plan.ts';
import { planConsume } from './consume.ts';
import type { Balance, WindowEntitlement } from './model.ts';
import { quotaBindings, type UserPointsState, userState } from './state.ts';
import { stateAfterConsume } from './state-after.ts';
import { remainingOf } from './summary.ts';

const MIN = 60_000;
const ent: WindowEntitlement = {
  id: 'f',
  kind: 'free_periodic_credit',
  windows: [
    { windowSeconds: 60, limit: 5 },
    { windowSeconds: 3600, limit: 8 },
  ],
  startsAt: 0,
  endsAt: null,
};
const bal = (id: string, remaining: number): Balance => ({ id, kind: 'topup_credit', amount: remaining, remaining, expiresAt: null, createdAt: 0 });

/** The state at `now` with `used` in each window (oldest usage at `oldestAt`, newest at `newestAt`; null: read without times). */
function stateOf(now: number, used: [number, number], oldestAt: [number | null, number | null], newestAt: number | null, balances: Balance[]): UserPointsState {
  const bindings = quotaBindings([ent], now);
  const head = used[1] === 0 ? undefined : { seq: 3, cum: 20, lastAt: newestAt ?? now - MIN / 2, returned: 0 };
  const usage = [used.map((u, i) => (u === 0 ? { used: 0, oldestAt: null, newestAt: null } : { used: u, oldestAt: oldestAt[i]!, newestAt }))];
  return userState(bindings, [head], usage, balances);
}

const consumeOn = (st: UserPointsState, amount: number, now: number) =>
  consumeWrites({ transactionId: 't', userId: 'u', amount, description: null }, st, planConsume(amount, st.quota, st.balances, now), now);

describe('the state after a consume', () => {
  it('counts what it drew in every window of the kind, its first usage the oldest of a window that had none', () => {
    const now = 100 * MIN;
    const before = stateOf(now, [0, 2], [null, now - 30 * MIN], now - 2 * MIN, [bal('a', 4)]);
    const w = consumeOn(before, 3, now);
    const after = stateAfterConsume(before, w);
    assert.deepEqual(
      after.windows.map((r) => [r.key, r.used, r.remaining, r.nextRecoveryAt, r.resetsAt, r.isTightest]),
      [
        ['1m', 3, 2, now + MIN, now + MIN, true],
        ['1h', 5, 3, now - 30 * MIN + 60 * MIN, now + 60 * MIN, false],
      ],
    );
    assert.deepEqual(after.quota[0]!.head, { seq: 4, cum: 23, lastAt: now, returned: 0 });
    assert.equal(after.quota[0]!.available, 2);
    assert.equal(after.balances, before.balances);
  });

  it('spends balances, leaving out one spent to 0', () => {
    const now = 100 * MIN;
    const before = stateOf(now, [5, 8], [now - MIN / 2, now - MIN / 2], now - MIN / 2, [bal('a', 2), bal('b', 9)]);
    const after = stateAfterConsume(before, consumeOn(before, 4, now));
    assert.deepEqual(
      after.balances.map((b) => [b.id, b.remaining]),
      [['b', 7]],
    );
    assert.equal(after.windows, before.windows);
    assert.equal(remainingOf(after).total, 7);
  });

  it('leaves unknown the recovery of a window whose oldest usage was not read, which the alerts then read', () => {
    const now = 100 * MIN;
    const timed = stateOf(now, [2, 2], [now - MIN / 2, now - MIN / 2], now - MIN / 2, []);
    const untimed = stateOf(now, [2, 2], [null, null], null, []);
    const view = (st: UserPointsState) => ({ total: remainingOf(st).total, windows: st.windows });
    const exhausting = stateAfterConsume(untimed, consumeOn(untimed, 3, now));
    assert.equal(exhausting.windows[0]!.nextRecoveryAt, null);
    assert.equal(exhausting.windows[0]!.resetsAt, now + MIN);
    assert.equal(afterTimesNeeded(view(untimed), view(exhausting)), true);
    assert.equal(afterTimesNeeded(view(timed), view(stateAfterConsume(timed, consumeOn(timed, 3, now)))), false);
    assert.equal(afterTimesNeeded(view(untimed), view(stateAfterConsume(untimed, consumeOn(untimed, 2, now)))), false);
  });
});
