import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type ActiveSubscription,
  dueGrants,
  freePeriodicGrant,
  registrationGrants,
  subscribeGrants,
  subscriptionGrants,
  subscriptionSources,
} from './materialise.ts';
import { type DefaultPointsConfig, defaultConfigFor } from './model.ts';
import type { SubscriptionTerms } from './periods.ts';

const DAY = 86_400_000;
const now = Date.UTC(2026, 2, 10, 9); // a Tuesday
const today = Date.UTC(2026, 2, 10);
const cfg = (c: Partial<DefaultPointsConfig>): DefaultPointsConfig => ({ ...defaultConfigFor('r'), updatedAt: 1, ...c });
const terms = (t: Partial<SubscriptionTerms>): SubscriptionTerms => ({
  pointsPerPeriod: 0,
  grantPeriodType: 'monthly',
  validityDays: 0,
  grantOnSubscribe: true,
  maxPeriods: 0,
  quotaWindows: null,
  ...t,
});

describe('the free periodic grant due now', () => {
  it('nothing before the realm configured it', () => {
    assert.equal(freePeriodicGrant({ ...defaultConfigFor('r'), freePeriodicPointsAmount: 5 }, now), null);
  });

  it('without windows: a balance of the amount for the calendar period, expiring after validityDays (0 = never)', () => {
    assert.deepEqual(freePeriodicGrant(cfg({ freePeriodicPointsAmount: 5, freePeriodicGrantPeriodType: 'daily', freePeriodicValidityDays: 2 }), now), {
      form: 'balance',
      kind: 'free_periodic_credit',
      amount: 5,
      expiresAt: today + 2 * DAY,
      source: `free:daily:${today}`,
    });
    assert.equal(
      (freePeriodicGrant(cfg({ freePeriodicPointsAmount: 5, freePeriodicGrantPeriodType: 'daily' }), now) as { expiresAt: number | null }).expiresAt,
      null,
    );
  });

  it('a zero amount without windows grants nothing', () => {
    assert.equal(freePeriodicGrant(cfg({ freePeriodicPointsAmount: 0, freePeriodicQuotaWindows: [] }), now)?.form, 'nothing');
  });

  it('a grant whose validity already ended within its period is not given', () => {
    // Monthly from the 1st, valid one day: over by the 10th.
    assert.equal(freePeriodicGrant(cfg({ freePeriodicPointsAmount: 5, freePeriodicGrantPeriodType: 'monthly', freePeriodicValidityDays: 1 }), now), null);
    assert.equal(
      freePeriodicGrant(
        cfg({ freePeriodicQuotaWindows: [{ windowSeconds: 60, limit: 1 }], freePeriodicGrantPeriodType: 'monthly', freePeriodicValidityDays: 1 }),
        now,
      ),
      null,
    );
  });

  it('with windows: a window entitlement from now to the end of the period (or its validity)', () => {
    const windows = [
      { windowSeconds: 18000, limit: 10 },
      { windowSeconds: 86400, limit: 30 },
    ];
    assert.deepEqual(freePeriodicGrant(cfg({ freePeriodicPointsAmount: 99, freePeriodicGrantPeriodType: 'weekly', freePeriodicQuotaWindows: windows }), now), {
      form: 'window',
      kind: 'free_periodic_credit',
      windows,
      startsAt: now,
      endsAt: Date.UTC(2026, 2, 16),
      source: `free:weekly:${Date.UTC(2026, 2, 9)}`,
    });
  });

  it('once: one source ever, from now', () => {
    const g = freePeriodicGrant(cfg({ freePeriodicPointsAmount: 3, freePeriodicGrantPeriodType: 'once' }), now);
    assert.deepEqual(g, { form: 'balance', kind: 'free_periodic_credit', amount: 3, expiresAt: null, source: 'free:once' });
  });

  it('a zero amount without windows is a grant of nothing under the period source, so the period counts as given', () => {
    assert.deepEqual(freePeriodicGrant(cfg({ freePeriodicPointsAmount: 0, freePeriodicGrantPeriodType: 'once' }), now), {
      form: 'nothing',
      source: 'free:once',
    });
    const daily = freePeriodicGrant(cfg({ freePeriodicPointsAmount: 0, freePeriodicGrantPeriodType: 'daily' }), now);
    assert.deepEqual(daily, {
      form: 'nothing',
      source: freePeriodicGrant(cfg({ freePeriodicPointsAmount: 4, freePeriodicGrantPeriodType: 'daily' }), now)!.source,
    });
  });

  it('a fixed amount and windows of the same period share one source: whichever form comes first is the period grant', () => {
    const fixed = freePeriodicGrant(cfg({ freePeriodicPointsAmount: 5, freePeriodicGrantPeriodType: 'daily' }), now)!;
    const windowed = freePeriodicGrant(
      cfg({ freePeriodicPointsAmount: 5, freePeriodicGrantPeriodType: 'daily', freePeriodicQuotaWindows: [{ windowSeconds: 3600, limit: 3 }] }),
      now,
    )!;
    assert.equal(fixed.form, 'balance');
    assert.equal(windowed.form, 'window');
    assert.equal(fixed.source, windowed.source);
  });
});

describe('registration grants', () => {
  it('the registration credit (never expires), then the current free periodic grant', () => {
    assert.deepEqual(
      registrationGrants(cfg({ registrationBonusPoints: 100, freePeriodicPointsAmount: 5, freePeriodicGrantPeriodType: 'once' }), now).map((g) => [
        g.form === 'nothing' ? null : g.kind,
        g.source,
      ]),
      [
        ['registration_credit', 'registration'],
        ['free_periodic_credit', 'free:once'],
      ],
    );
    assert.deepEqual(registrationGrants(cfg({}), now), [{ form: 'nothing', source: 'free:monthly:1772323200000' }]);
  });
});

describe('subscription grants', () => {
  const started = Date.UTC(2026, 0, 10, 9);
  const sub = (id: string, t: Partial<SubscriptionTerms>): ActiveSubscription => ({ id, terms: terms(t), startedAt: started });

  it('a fixed subscription gives pointsPerPeriod for each due period still valid, under sub:<id>:<n>', () => {
    const g = subscriptionGrants([sub('s1', { pointsPerPeriod: 50, validityDays: 40 })], now);
    assert.deepEqual(
      g.map((x) => [x.source, x.amount, x.expiresAt]),
      [
        ['sub:s1:1', 50, Date.UTC(2026, 1, 10, 9) + 40 * DAY],
        ['sub:s1:2', 50, Date.UTC(2026, 2, 10, 9) + 40 * DAY],
      ],
    );
  });

  it('a subscription with windows gives no fixed grants', () => {
    assert.deepEqual(subscriptionGrants([sub('s1', { pointsPerPeriod: 50, quotaWindows: [{ windowSeconds: 60, limit: 1 }] })], now), []);
  });

  it("on a read or consume: the free periodic grant first, then the subscriptions'", () => {
    const g = dueGrants(
      cfg({ freePeriodicPointsAmount: 1, freePeriodicGrantPeriodType: 'once' }),
      [sub('s1', { pointsPerPeriod: 5, grantPeriodType: 'once' })],
      now,
    );
    assert.deepEqual(
      g.map((x) => x.source),
      ['free:once', 'sub:s1:0'],
    );
  });

  it('subscribing with windows grants the window entitlement from now until canceled', () => {
    const windows = [{ windowSeconds: 3600, limit: 10 }];
    assert.deepEqual(subscribeGrants('s9', terms({ quotaWindows: windows }), [sub('s1', { pointsPerPeriod: 5 })], now), [
      { form: 'window', kind: 'subscription_credit', windows, startsAt: now, endsAt: null, source: 'sub:s9' },
    ]);
  });

  it('subscribing without windows grants the due fixed grants of the active subscriptions', () => {
    const subs = [{ id: 's9', terms: terms({ pointsPerPeriod: 7 }), startedAt: now }];
    assert.deepEqual(subscribeGrants('s9', subs[0]!.terms, subs, now), [
      { form: 'balance', kind: 'subscription_credit', amount: 7, expiresAt: null, source: 'sub:s9:0' },
    ]);
  });

  it("a subscription's sources: its entitlement and the prefix of its period balances", () => {
    assert.deepEqual(subscriptionSources('s1'), { entitlement: 'sub:s1', balancePrefix: 'sub:s1:' });
  });
});
