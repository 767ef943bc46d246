// Which grants are due to a user now, pure (docs/points.md): periodic grants are materialised lazily
// when the user's points are read or consumed, each once per source whatever form it takes (the
// store records every source given, `registration`, `free:<period>`, `sub:<id>` for a window
// entitlement, `sub:<id>:<n>` for period n's fixed grant, and gives a source at most once). A quota
// grant with windows is a window entitlement carrying a snapshot of them; without, a fixed balance;
// a zero amount without windows is a grant of nothing, recorded as given all the same, so a later
// configuration change applies to later periods only. A balance the service grants by itself is
// then cut to what fits under MAX_POINTS (total-cap.ts materialisedGrant).
import type { CreditKind, DefaultPointsConfig, QuotaKind, QuotaWindow } from './model.ts';
import { dueSubscriptionPeriods, freePeriodicGrantAt, type SubscriptionTerms } from './periods.ts';

export interface BalanceGrant {
  form: 'balance';
  kind: CreditKind;
  amount: number;
  expiresAt: number | null;
  source: string;
}

export interface WindowGrant {
  form: 'window';
  kind: QuotaKind;
  windows: readonly QuotaWindow[];
  startsAt: number;
  endsAt: number | null;
  source: string;
}

/** A grant of nothing (a zero amount without windows): recorded as given, nothing else. */
export interface NothingGrant {
  form: 'nothing';
  source: string;
}

export type DueGrant = BalanceGrant | WindowGrant | NothingGrant;

export interface ActiveSubscription {
  id: string;
  terms: SubscriptionTerms;
  startedAt: number;
}

function windowGrant(kind: QuotaKind, windows: readonly QuotaWindow[], startsAt: number, endsAt: number | null, source: string): WindowGrant {
  return { form: 'window', kind, windows, startsAt, endsAt, source };
}

/** The free periodic grant of the period holding `now` under the realm's configuration, or null:
 *  never configured, or already over (its validity ended within the period). A zero amount without
 *  windows is a grant of nothing. */
export function freePeriodicGrant(cfg: DefaultPointsConfig, now: number): DueGrant | null {
  if (cfg.updatedAt === null) return null;
  const g = freePeriodicGrantAt(cfg.freePeriodicGrantPeriodType, cfg.freePeriodicValidityDays, now);
  const windows = cfg.freePeriodicQuotaWindows;
  if (windows && windows.length > 0) {
    if (g.windowEndsAt !== null && g.windowEndsAt <= now) return null;
    return windowGrant('free_periodic_credit', windows, now, g.windowEndsAt, g.source);
  }
  if (cfg.freePeriodicPointsAmount <= 0) return { form: 'nothing', source: g.source };
  if (g.expiresAt !== null && g.expiresAt <= now) return null;
  return { form: 'balance', kind: 'free_periodic_credit', amount: cfg.freePeriodicPointsAmount, expiresAt: g.expiresAt, source: g.source };
}

/** A new account's grants: the registration credit (never expires) and the current free periodic
 *  grant. */
export function registrationGrants(cfg: DefaultPointsConfig, now: number): DueGrant[] {
  const out: DueGrant[] = [];
  if (cfg.registrationBonusPoints > 0)
    out.push({ form: 'balance', kind: 'registration_credit', amount: cfg.registrationBonusPoints, expiresAt: null, source: 'registration' });
  const free = freePeriodicGrant(cfg, now);
  if (free) out.push(free);
  return out;
}

/** The fixed grants of active subscriptions whose periods are due by `now` and not yet expired. */
export function subscriptionGrants(subs: readonly ActiveSubscription[], now: number): BalanceGrant[] {
  const out: BalanceGrant[] = [];
  pushSubscriptionGrants(out, subs, now);
  return out;
}

function pushSubscriptionGrants(out: DueGrant[], subs: readonly ActiveSubscription[], now: number): void {
  for (const s of subs) {
    for (const p of dueSubscriptionPeriods(s.terms, s.startedAt, now, null)) {
      out.push({ form: 'balance', kind: 'subscription_credit', amount: s.terms.pointsPerPeriod, expiresAt: p.expiresAt, source: `sub:${s.id}:${p.n}` });
    }
  }
}

/** Everything due to a user on a read or a consume: the free periodic grant, then the
 *  subscriptions' fixed grants. */
export function dueGrants(cfg: DefaultPointsConfig, subs: readonly ActiveSubscription[], now: number): DueGrant[] {
  const out: DueGrant[] = [];
  const free = freePeriodicGrant(cfg, now);
  if (free) out.push(free);
  pushSubscriptionGrants(out, subs, now);
  return out;
}

/** What subscribing grants at once: a subscription with windows, its window entitlement from `now`
 *  until canceled; one without, the due fixed grants of the user's active subscriptions (`subs`,
 *  the new one included). */
export function subscribeGrants(subscriptionId: string, terms: SubscriptionTerms, subs: readonly ActiveSubscription[], now: number): DueGrant[] {
  if (terms.quotaWindows) return [windowGrant('subscription_credit', terms.quotaWindows, now, null, subscriptionSources(subscriptionId).entitlement)];
  return subscriptionGrants(subs, now);
}

/** The sources a subscription's grants are recorded under; canceling ends them. */
export function subscriptionSources(subscriptionId: string): { entitlement: string; balancePrefix: string } {
  return { entitlement: `sub:${subscriptionId}`, balancePrefix: `sub:${subscriptionId}:` };
}
