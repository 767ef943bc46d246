// Grant periods, pure (docs/points.md: once | daily | weekly | monthly). Two flavours:
// - the realm's free periodic grant follows the UTC calendar (a day from 00:00, a week from Monday
//   00:00, a month from the 1st 00:00), so every user of a realm renews at the same instant;
// - a subscription's grants follow its own start (period n starts n days / weeks / calendar months
//   after it, the day of month clamped to the month's length).
import type { PeriodType } from './model.ts';

const DAY = 86_400_000;

/** Start of the calendar period holding `now` (UTC); null for `once`. */
export function calendarPeriodStart(type: PeriodType, now: number): number | null {
  const d = new Date(now);
  switch (type) {
    case 'once':
      return null;
    case 'daily':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    case 'weekly': {
      const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
      const sinceMonday = (d.getUTCDay() + 6) % 7;
      return day - sinceMonday * DAY;
    }
    case 'monthly':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
}

/** Start of period n (n >= 0) of a schedule anchored at `start`. */
export function anchoredPeriodStart(type: PeriodType, start: number, n: number): number {
  switch (type) {
    case 'once':
      return start;
    case 'daily':
      return start + n * DAY;
    case 'weekly':
      return start + n * 7 * DAY;
    case 'monthly':
      return addMonthsClamped(start, n);
  }
}

/** Index of the anchored period holding `now` (−1 before start). `once` is always period 0. */
export function anchoredPeriodIndex(type: PeriodType, start: number, now: number): number {
  if (now < start) return -1;
  switch (type) {
    case 'once':
      return 0;
    case 'daily':
      return Math.floor((now - start) / DAY);
    case 'weekly':
      return Math.floor((now - start) / (7 * DAY));
    case 'monthly': {
      const a = new Date(start);
      const b = new Date(now);
      let n = (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + (b.getUTCMonth() - a.getUTCMonth());
      while (n > 0 && addMonthsClamped(start, n) > now) n--;
      while (addMonthsClamped(start, n + 1) <= now) n++;
      return n;
    }
  }
}

function addMonthsClamped(start: number, n: number): number {
  const d = new Date(start);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + n;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const timeOfDay = start - Date.UTC(y, d.getUTCMonth(), d.getUTCDate());
  return Date.UTC(y, m, Math.min(d.getUTCDate(), lastDay)) + timeOfDay;
}

/** Expiry of a grant made for a period starting at `periodStart`; null when validityDays is 0. */
export function expiryOf(periodStart: number, validityDays: number): number | null {
  return validityDays > 0 ? periodStart + validityDays * DAY : null;
}

/** The grant terms a subscription snapshots from its mapping (the snapshot rule). */
export interface SubscriptionTerms {
  pointsPerPeriod: number;
  grantPeriodType: PeriodType;
  validityDays: number;
  grantOnSubscribe: boolean;
  maxPeriods: number; // 0 = unlimited
  quotaWindows: Array<{ windowSeconds: number; limit: number }> | null;
}

/** Periods whose fixed grant is due by `now` and still worth materialising (not yet expired):
 *  period 0 only with grantOnSubscribe; at most maxPeriods grants; a bounded look-back. */
export function dueSubscriptionPeriods(
  t: SubscriptionTerms,
  startedAt: number,
  now: number,
  endedAt: number | null,
): Array<{ n: number; start: number; expiresAt: number | null }> {
  if (t.quotaWindows && t.quotaWindows.length > 0) return [];
  if (t.pointsPerPeriod <= 0) return [];
  const until = endedAt === null ? now : Math.min(now, endedAt - 1);
  const last = anchoredPeriodIndex(t.grantPeriodType, startedAt, until);
  if (last < 0) return [];
  const first = t.grantOnSubscribe || t.grantPeriodType === 'once' ? 0 : 1;
  const out: Array<{ n: number; start: number; expiresAt: number | null }> = [];
  // Grants numbered by their order: with grantOnSubscribe=false, period 1 is the first grant.
  const lastAllowed = t.maxPeriods > 0 ? first + t.maxPeriods - 1 : Infinity;
  const top = Math.min(last, lastAllowed, t.grantPeriodType === 'once' ? 0 : Infinity);
  const from = Math.max(first, top - 400);
  for (let n = from; n <= top; n++) {
    const start = anchoredPeriodStart(t.grantPeriodType, startedAt, n);
    const expiresAt = expiryOf(start, t.validityDays);
    if (expiresAt !== null && expiresAt <= now) continue;
    out.push({ n, start, expiresAt });
  }
  return out;
}

/** Start of the calendar period after the one starting at `periodStart`; null for `once`. */
export function nextCalendarPeriodStart(type: PeriodType, periodStart: number): number | null {
  switch (type) {
    case 'once':
      return null;
    case 'daily':
      return periodStart + DAY;
    case 'weekly':
      return periodStart + 7 * DAY;
    case 'monthly': {
      const d = new Date(periodStart);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    }
  }
}

/** The free periodic grant due at `now` under a realm's configuration: its source key (one grant
 *  per calendar period, or one ever for `once`), when it starts, and when it ends. A window
 *  entitlement lasts at most its period, so a new period's snapshot replaces the last one. */
export function freePeriodicGrantAt(
  type: PeriodType,
  validityDays: number,
  now: number,
): { source: string; periodStart: number; expiresAt: number | null; windowEndsAt: number | null } {
  const start = calendarPeriodStart(type, now);
  if (start === null) {
    const expiresAt = expiryOf(now, validityDays);
    return { source: 'free:once', periodStart: now, expiresAt, windowEndsAt: expiresAt };
  }
  const expiresAt = expiryOf(start, validityDays);
  const next = nextCalendarPeriodStart(type, start)!;
  return { source: `free:${type}:${start}`, periodStart: start, expiresAt, windowEndsAt: expiresAt === null ? next : Math.min(expiresAt, next) };
}
