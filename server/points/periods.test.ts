import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { anchoredPeriodIndex, anchoredPeriodStart, calendarPeriodStart, dueSubscriptionPeriods, freePeriodicGrantAt } from './periods.ts';

const DAY = 86_400_000;

describe('grant periods', () => {
  it('calendar periods start at UTC midnight, Monday and the 1st', () => {
    const t = Date.UTC(2026, 6, 9, 15, 30); // Thursday
    assert.equal(calendarPeriodStart('daily', t), Date.UTC(2026, 6, 9));
    assert.equal(calendarPeriodStart('weekly', t), Date.UTC(2026, 6, 6));
    assert.equal(calendarPeriodStart('monthly', t), Date.UTC(2026, 6, 1));
    assert.equal(calendarPeriodStart('weekly', Date.UTC(2026, 6, 5, 23)), Date.UTC(2026, 5, 29), 'Sunday belongs to the week that began on Monday');
    assert.equal(calendarPeriodStart('once', t), null);
  });

  it('anchored monthly periods clamp the day to the month length', () => {
    const start = Date.UTC(2026, 0, 31, 10);
    assert.equal(anchoredPeriodStart('monthly', start, 1), Date.UTC(2026, 1, 28, 10));
    assert.equal(anchoredPeriodStart('monthly', start, 2), Date.UTC(2026, 2, 31, 10));
    assert.equal(anchoredPeriodIndex('monthly', start, Date.UTC(2026, 1, 28, 10) - 1), 0);
    assert.equal(anchoredPeriodIndex('monthly', start, Date.UTC(2026, 1, 28, 10)), 1);
    assert.equal(anchoredPeriodIndex('monthly', start, Date.UTC(2027, 0, 31, 10)), 12);
    assert.equal(anchoredPeriodIndex('daily', start, start - 1), -1);
  });

  it('a window entitlement of the free grant lasts at most its period', () => {
    const g = freePeriodicGrantAt('daily', 0, Date.UTC(2026, 6, 9, 15));
    assert.deepEqual(g, {
      source: `free:daily:${Date.UTC(2026, 6, 9)}`,
      periodStart: Date.UTC(2026, 6, 9),
      expiresAt: null,
      windowEndsAt: Date.UTC(2026, 6, 10),
    });
    const once = freePeriodicGrantAt('once', 2, 1000);
    assert.deepEqual(once, { source: 'free:once', periodStart: 1000, expiresAt: 1000 + 2 * DAY, windowEndsAt: 1000 + 2 * DAY });
  });

  it('subscription grants: on subscribe or from the first boundary, capped by maxPeriods, skipping expired ones', () => {
    const terms = { pointsPerPeriod: 10, grantPeriodType: 'daily' as const, validityDays: 2, grantOnSubscribe: true, maxPeriods: 0, quotaWindows: null };
    assert.deepEqual(
      dueSubscriptionPeriods(terms, 0, 5 * DAY + 1, null).map((p) => p.n),
      [4, 5],
    );
    assert.deepEqual(
      dueSubscriptionPeriods({ ...terms, maxPeriods: 3 }, 0, 2 * DAY + 1, null).map((p) => p.n),
      [1, 2],
    );
    assert.deepEqual(dueSubscriptionPeriods({ ...terms, maxPeriods: 3 }, 0, 9 * DAY, null), []);
    assert.deepEqual(dueSubscriptionPeriods({ ...terms, grantOnSubscribe: false }, 0, DAY - 1, null), []);
    assert.deepEqual(
      dueSubscriptionPeriods({ ...terms, grantOnSubscribe: false }, 0, DAY, null).map((p) => p.n),
      [1],
    );
    assert.deepEqual(dueSubscriptionPeriods({ ...terms, quotaWindows: [{ windowSeconds: 60, limit: 1 }] }, 0, DAY, null), []);
  });
});
