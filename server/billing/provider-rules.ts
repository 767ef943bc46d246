// What a verified payment-provider notification does to a subscription (README "Selling plans through the App Store and Stripe"): pure rules,
// no I/O. A store reads the state, asks these, and writes what they decided in one transaction.
import type { Subscription } from './model.ts';
import { type BillingNotification, productOf } from './notifications.ts';

/** What one notification does. */
export type ProviderEffect =
  | { kind: 'activate' } // start (or keep) the subscription of the product
  | { kind: 'end' } // end the subscription and its entitlement
  | { kind: 'ignore'; reason: string }; // acknowledged and recorded, nothing changes

/** The state a provider subscription (App Store original transaction, Stripe subscription) has reached. */
export interface ProviderState {
  /** The provider's own timestamp of the newest notification applied (ms). */
  providerAt: number;
  active: boolean;
  /** The external product id the state is about. */
  productId: string;
}

const APP_STORE_ACTIVATE = new Set(['SUBSCRIBED', 'DID_RENEW']);
const APP_STORE_END = new Set(['EXPIRED', 'GRACE_PERIOD_EXPIRED', 'REVOKE', 'REFUND']);

/**
 * The effect of an App Store Server Notifications V2 type. DID_CHANGE_RENEWAL_PREF takes effect at
 * its effective date: an upgrade is a new transaction already purchased (purchaseDate ≤ signedDate);
 * a downgrade or crossgrade starts at the next renewal, which arrives as DID_RENEW then.
 */
export function appStoreEffect(notificationType: string, tx: { purchaseDate?: number } | null, signedDate: number): ProviderEffect {
  if (APP_STORE_ACTIVATE.has(notificationType) || APP_STORE_END.has(notificationType)) {
    if (!tx) return { kind: 'ignore', reason: 'no transaction' };
    return APP_STORE_ACTIVATE.has(notificationType) ? { kind: 'activate' } : { kind: 'end' };
  }
  if (notificationType === 'DID_CHANGE_RENEWAL_PREF') {
    if (!tx || tx.purchaseDate === undefined) return { kind: 'ignore', reason: 'no transaction' };
    return tx.purchaseDate <= signedDate ? { kind: 'activate' } : { kind: 'ignore', reason: 'effective at renewal' };
  }
  return { kind: 'ignore', reason: `type ${notificationType}` };
}

/** The effect of a Stripe customer.subscription.* event, by the subscription's status. */
export function stripeEffect(eventType: string, status: string): ProviderEffect {
  if (eventType === 'customer.subscription.deleted') return { kind: 'end' };
  if (eventType !== 'customer.subscription.created' && eventType !== 'customer.subscription.updated') {
    return { kind: 'ignore', reason: `type ${eventType}` };
  }
  // Stripe's subscription statuses: active and trialing give access; canceled, unpaid and
  // incomplete_expired end it; incomplete and past_due leave things as they are.
  if (status === 'active' || status === 'trialing') return { kind: 'activate' };
  if (status === 'canceled' || status === 'unpaid' || status === 'incomplete_expired') return { kind: 'end' };
  return { kind: 'ignore', reason: `status ${status}` };
}

/** A notification older than the state it would change (by the provider's timestamps) changes nothing. */
export function isStale(state: Pick<ProviderState, 'providerAt'> | null, providerAt: number): boolean {
  return state !== null && providerAt < state.providerAt;
}

/** What the store does for an effect, given the current state: renewal of an active subscription of
 *  the same product changes nothing (its period grants follow the mapping's period rules, once per
 *  period); a product change ends the old subscription and starts the new one. */
export type ProviderPlan = { start: boolean; endCurrent: boolean };

export function planOf(effect: ProviderEffect, state: ProviderState | null, productId: string): ProviderPlan {
  if (effect.kind === 'ignore') return { start: false, endCurrent: false };
  if (effect.kind === 'end') return { start: false, endCurrent: state?.active === true };
  if (state?.active && state.productId === productId) return { start: false, endCurrent: false };
  return { start: true, endCurrent: state?.active === true };
}

/** What a notification comes to, given what the transaction found: the user it names (null:
 *  none), the mapping of its product (null: none enabled) and the provider subscription's state. */
export type Outcome = { status: 'applied'; plan: ProviderPlan; reason: string } | { status: 'unmatched' | 'ignored'; reason: string };

export function notificationOutcome(
  effect: ProviderEffect,
  providerAt: number,
  found: { userId: string | null; mappingId: string | null; productId: string; state: ProviderState | null },
): Outcome {
  if (effect.kind === 'ignore') return { status: 'ignored', reason: effect.reason };
  if (isStale(found.state, providerAt)) return { status: 'ignored', reason: 'stale: older than the state it would change' };
  // Ending needs only the state: the subscription it ends is known without a user or a mapping.
  if (effect.kind === 'end' && found.state) return { status: 'applied', plan: planOf(effect, found.state, found.productId), reason: '' };
  if (found.userId === null) return { status: 'unmatched', reason: 'unknown user' };
  if (found.mappingId === null) return { status: 'unmatched', reason: `no enabled mapping for product ${found.productId}` };
  return { status: 'applied', plan: planOf(effect, found.state, found.productId), reason: '' };
}

/** An enabled mapping of one of a notification's products, as a store reads them. */
export interface MappingCandidate {
  id: string;
  productId: string;
}

/** The mapping a notification applies and the product it is about. Of the products it names (in
 *  the provider's order), the first with an enabled mapping; of that product's enabled mappings,
 *  the oldest (`candidates` come oldest first, by creation time then id). The product is the
 *  mapping's, else the first the notification names. */
export function matchedMapping(
  productIds: readonly string[],
  candidates: readonly MappingCandidate[],
): { mapping: MappingCandidate | null; productId: string } {
  for (const productId of productIds) {
    const mapping = candidates.find((c) => c.productId === productId);
    if (mapping) return { mapping, productId };
  }
  return { mapping: null, productId: productOf({ productIds }) };
}

/** Whom an applied notification's state and records name: the user it names, else (an end
 *  without a user) the user of the provider subscription's state. */
export function notificationOwner(userId: string | null, stateUserId: string | null): string {
  const owner = userId ?? stateUserId;
  if (owner === null) throw new Error('an applied notification names a user or has a state');
  return owner;
}

/** A plan that ends the current subscription ends the one the provider state names only while it
 *  is active: one canceled meanwhile (by an operator) stays as it is. */
export function endsSubscription<S extends { status: Subscription['status'] | string }>(current: S | undefined): current is S {
  return current?.status === 'active';
}

/** A replay applies again only a notification recorded as unmatched (its user or mapping may exist
 *  now); any other is answered as it was recorded. */
export function mayReplay(n: Pick<BillingNotification, 'status'>): boolean {
  return n.status === 'unmatched';
}
