import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type AlertConfig, type AlertState, decideAlerts, type PointsView, QUIET, stateChanged, validateAlertConfig } from './alerts.ts';
import type { WindowRow } from './model.ts';

const ALL: AlertConfig = { lowBalanceThresholds: [10, 50], quotaExhausted: true, quotaRecovered: true };

const row = (remaining: number, nextRecoveryAt: number | null = null): WindowRow => ({
  creditKind: 'free_periodic_credit',
  key: 'day',
  windowSeconds: 86_400,
  limit: 100,
  used: 100 - remaining,
  remaining,
  nextRecoveryAt,
  resetsAt: nextRecoveryAt === null ? null : nextRecoveryAt + 1000,
  isTightest: true,
  exhausted: remaining === 0,
});
const view = (total: number, windows: WindowRow[] = []): PointsView => ({ total, windows });

describe('points alerts', () => {
  it('reports a low balance once when the total crosses a threshold, and again only after a transaction left it at or above', () => {
    const first = decideAlerts(ALL, QUIET, 'u', view(60), view(40), 1);
    assert.deepEqual(first.events, [{ type: 'points.balance_low', data: { userId: 'u', threshold: 50, total: 40 } }]);
    assert.deepEqual(first.state.firedThresholds, [50]);
    // The total came back without a transaction (a window recovered): still disarmed.
    assert.deepEqual(decideAlerts(ALL, first.state, 'u', view(60), view(45), 2).events, []);
    const rearmed = decideAlerts(ALL, first.state, 'u', view(40), view(55), 3);
    assert.deepEqual(rearmed.events, []);
    assert.deepEqual(rearmed.state.firedThresholds, []);
    const both = decideAlerts(ALL, rearmed.state, 'u', view(55), view(5), 4);
    assert.deepEqual(
      both.events.map((e) => e.data.threshold),
      [10, 50],
    );
  });

  it('reports nothing for a total that stays below or above, or for thresholds not configured', () => {
    assert.deepEqual(decideAlerts(ALL, QUIET, 'u', view(5), view(1), 1).events, []);
    assert.deepEqual(decideAlerts(ALL, QUIET, 'u', view(500), view(60), 1).events, []);
    assert.deepEqual(decideAlerts({ ...ALL, lowBalanceThresholds: [] }, QUIET, 'u', view(60), view(1), 1).events, []);
  });

  it('reports a window left at 0 that had some, and schedules its recovery at nextRecoveryAt', () => {
    const d = decideAlerts(ALL, QUIET, 'u', view(500, [row(30)]), view(500, [row(0, 9000)]), 1);
    assert.deepEqual(d.events, [
      {
        type: 'points.quota_exhausted',
        data: { userId: 'u', creditKind: 'free_periodic_credit', windowKey: 'day', windowSeconds: 86_400, limit: 100, nextRecoveryAt: 9000, resetsAt: 10_000 },
      },
    ]);
    assert.deepEqual(d.schedule, [{ creditKind: 'free_periodic_credit', windowSeconds: 86_400, recoversAt: 9000 }]);
    assert.deepEqual(d.state.exhaustions, d.schedule);
    // Already at 0 before: nothing new.
    assert.deepEqual(decideAlerts(ALL, d.state, 'u', view(500, [row(0, 9000)]), view(400, [row(0, 9000)]), 2).events, []);
  });

  it('reports the recovery at its exact instant when a check comes after it, once', () => {
    const exhausted = decideAlerts(ALL, QUIET, 'u', view(500, [row(30)]), view(500, [row(0, 9000)]), 1).state;
    assert.deepEqual(decideAlerts(ALL, exhausted, 'u', view(500, [row(0, 9000)]), view(500, [row(0, 9000)]), 8999).events, []);
    const due = decideAlerts(ALL, exhausted, 'u', view(500, [row(20)]), view(500, [row(20)]), 9500);
    assert.deepEqual(due.events, [
      { type: 'points.quota_recovered', data: { userId: 'u', creditKind: 'free_periodic_credit', windowKey: 'day', remaining: 20, at: 9000 } },
    ]);
    assert.deepEqual(due.state.exhaustions, []);
    assert.deepEqual(decideAlerts(ALL, due.state, 'u', view(500, [row(20)]), view(500, [row(20)]), 9600).events, []);
  });

  it('re-arms no threshold on a recovery check (no transaction), whatever the total', () => {
    const low = decideAlerts(ALL, QUIET, 'u', view(60), view(40), 1).state;
    assert.deepEqual(decideAlerts(ALL, low, 'u', view(70), null, 2).state.firedThresholds, [50]);
  });

  it('reports the recovery at the transaction that gives quota back first, and forgets the scheduled one', () => {
    const exhausted = decideAlerts(ALL, QUIET, 'u', view(500, [row(30)]), view(500, [row(0, 9000)]), 1).state;
    const back = decideAlerts(ALL, exhausted, 'u', view(500, [row(0, 9000)]), view(510, [row(10, 9000)]), 50);
    assert.deepEqual(back.events, [
      { type: 'points.quota_recovered', data: { userId: 'u', creditKind: 'free_periodic_credit', windowKey: 'day', remaining: 10, at: 50 } },
    ]);
    assert.deepEqual(back.state.exhaustions, []);
    assert.deepEqual(decideAlerts(ALL, back.state, 'u', view(510, [row(10)]), view(510, [row(10)]), 9000).events, []);
  });

  it('reports quota an expired hold gave back at the next transaction, not at a check before the due instant', () => {
    const exhausted = decideAlerts(ALL, QUIET, 'u', view(500, [row(30)]), view(500, [row(0, 9000)]), 1).state;
    // The hold's expiry is no transaction: a check before 9000 reports nothing.
    assert.deepEqual(decideAlerts(ALL, exhausted, 'u', view(500, [row(4)]), null, 100).events, []);
    // The next transaction reports it (at its time), then its own exhaustion.
    const d = decideAlerts(ALL, exhausted, 'u', view(500, [row(4)]), view(496, [row(0, 9500)]), 200);
    assert.deepEqual(
      d.events.map((e) => [e.type, e.data.at ?? e.data.nextRecoveryAt]),
      [
        ['points.quota_recovered', 200],
        ['points.quota_exhausted', 9500],
      ],
    );
  });

  it('recovers before it exhausts again in one transaction after the due instant', () => {
    const exhausted = decideAlerts(ALL, QUIET, 'u', view(500, [row(30)]), view(500, [row(0, 9000)]), 1).state;
    const d = decideAlerts(ALL, exhausted, 'u', view(500, [row(5)]), view(495, [row(0, 12_000)]), 9100);
    assert.deepEqual(
      d.events.map((e) => [e.type, e.data.at ?? e.data.nextRecoveryAt]),
      [
        ['points.quota_recovered', 9000],
        ['points.quota_exhausted', 12_000],
      ],
    );
    assert.deepEqual(d.state.exhaustions, [{ creditKind: 'free_periodic_credit', windowSeconds: 86_400, recoversAt: 12_000 }]);
  });

  it('keeps an exhaustion whose window is gone at a check before its instant (a subscription cancelled, another may bring the window back)', () => {
    const exhausted = decideAlerts(ALL, QUIET, 'u', view(500, [row(30)]), view(500, [row(0, 9000)]), 1).state;
    const early = decideAlerts(ALL, exhausted, 'u', view(500), null, 5000);
    assert.deepEqual(early.events, []);
    assert.deepEqual(early.state.exhaustions, exhausted.exhaustions);
    // Gone at the instant: nothing to recover, forgotten.
    assert.deepEqual(decideAlerts(ALL, exhausted, 'u', view(500), null, 9000).state.exhaustions, []);
  });

  it('reports no recovery for a window still at 0 at its instant: it waits for the next return, or never (limit 0)', () => {
    const exhausted = decideAlerts(ALL, QUIET, 'u', view(500, [row(30)]), view(500, [row(0, 9000)]), 1).state;
    const later = decideAlerts(ALL, exhausted, 'u', view(500, [{ ...row(0, 11_000), limit: 50 }]), null, 9000);
    assert.deepEqual(later.events, []);
    assert.deepEqual(later.schedule, [{ creditKind: 'free_periodic_credit', windowSeconds: 86_400, recoversAt: 11_000 }]);
    assert.deepEqual(later.state.exhaustions, later.schedule);
    assert.deepEqual(
      decideAlerts(ALL, later.state, 'u', view(500, [row(20)]), null, 11_000).events.map((e) => [e.data.remaining, e.data.at]),
      [[20, 11_000]],
    );
    const never = decideAlerts(ALL, exhausted, 'u', view(500, [{ ...row(0), limit: 0, used: 0 }]), null, 9000);
    assert.deepEqual([never.events, never.schedule, never.state.exhaustions], [[], [], []]);
  });

  it('leaves a due exhaustion to its recovery check when a transaction read the window still at 0 without its times', () => {
    const exhausted = decideAlerts(ALL, QUIET, 'u', view(500, [row(30)]), view(500, [row(0, 9000)]), 1).state;
    // A consume at 9 500 drawing from balances only: the window (limit lowered to 50, all used) was
    // read without the instant its usage returns.
    const lowered = { ...row(0), limit: 50, used: 50 };
    const consume = decideAlerts(ALL, exhausted, 'u', view(500, [lowered]), view(490, [lowered]), 9500);
    assert.deepEqual([consume.events, consume.schedule], [[], []]);
    assert.deepEqual(consume.state.exhaustions, exhausted.exhaustions);
    // The check reads the times: the usage returns at 11 000, reported then.
    const check = decideAlerts(ALL, consume.state, 'u', view(490, [{ ...lowered, nextRecoveryAt: 11_000 }]), null, 9500);
    assert.deepEqual(check.schedule, [{ creditKind: 'free_periodic_credit', windowSeconds: 86_400, recoversAt: 11_000 }]);
    assert.deepEqual(
      decideAlerts(ALL, check.state, 'u', view(490, [{ ...lowered, used: 0, remaining: 50 }]), null, 11_000).events.map((e) => [e.type, e.data.at]),
      [['points.quota_recovered', 11_000]],
    );
  });

  it('emits only what the realm turned on', () => {
    const off: AlertConfig = { lowBalanceThresholds: [], quotaExhausted: false, quotaRecovered: false };
    const d = decideAlerts(off, QUIET, 'u', view(500, [row(30)]), view(1, [row(0, 9000)]), 1);
    assert.deepEqual(d, { state: QUIET, events: [], schedule: [] });
  });
});

describe('alert state changes', () => {
  const e = (creditKind: 'free_periodic_credit' | 'subscription_credit', windowSeconds: number, recoversAt: number) => ({
    creditKind,
    windowSeconds,
    recoversAt,
  });
  const decided = (state: AlertState) => ({ state, events: [], schedule: [] });
  it('is unchanged only for the same thresholds and the same exhaustions in the same order', () => {
    const state: AlertState = { firedThresholds: [10, 50], exhaustions: [e('free_periodic_credit', 3600, 5), e('subscription_credit', 60, 7)] };
    assert.equal(
      stateChanged(state, decided({ firedThresholds: [10, 50], exhaustions: [e('free_periodic_credit', 3600, 5), e('subscription_credit', 60, 7)] })),
      false,
    );
    assert.equal(stateChanged(QUIET, decided({ firedThresholds: [], exhaustions: [] })), false);
    for (const changed of [
      { firedThresholds: [10], exhaustions: state.exhaustions },
      { firedThresholds: [10, 60], exhaustions: state.exhaustions },
      { firedThresholds: state.firedThresholds, exhaustions: [e('free_periodic_credit', 3600, 5)] },
      { firedThresholds: state.firedThresholds, exhaustions: [e('free_periodic_credit', 3600, 6), e('subscription_credit', 60, 7)] },
      { firedThresholds: state.firedThresholds, exhaustions: [e('free_periodic_credit', 60, 5), e('subscription_credit', 60, 7)] },
      { firedThresholds: state.firedThresholds, exhaustions: [e('subscription_credit', 3600, 5), e('subscription_credit', 60, 7)] },
      { firedThresholds: state.firedThresholds, exhaustions: [e('subscription_credit', 60, 7), e('free_periodic_credit', 3600, 5)] },
    ]) {
      assert.equal(stateChanged(state, decided(changed)), true, JSON.stringify(changed));
    }
  });
});

describe('alert configuration', () => {
  it('keeps distinct thresholds in ascending order and defaults the switches to off', () => {
    assert.deepEqual(validateAlertConfig({ lowBalanceThresholds: [50, 10, 50] }), {
      lowBalanceThresholds: [10, 50],
      quotaExhausted: false,
      quotaRecovered: false,
    });
  });

  for (const [name, thresholds] of [
    ['more than 8', [1, 2, 3, 4, 5, 6, 7, 8, 9]],
    ['zero', [0]],
    ['negative', [-1]],
    ['fractional', [1.5]],
  ] as const) {
    it(`refuses ${name} thresholds naming the field`, () => {
      assert.throws(
        () => validateAlertConfig({ lowBalanceThresholds: thresholds }),
        (e: { code: string; extra: { field: string } }) => e.code === 'bad_request' && e.extra.field === 'lowBalanceThresholds',
      );
    });
  }
});
