// The rules of the billing use cases, pure (docs/points.md, "Subscriptions and entitlement
// mappings"). The store reads what they need, asks, and writes what they decide; a throw inside
// its transaction saves nothing.
import { conflict, GatehouseError, notFound } from '../errors.ts';
import type { SubscriptionTerms } from '../points/periods.ts';
import { mergeMapping } from './mappings.ts';
import { type EntitlementMapping, type MappingPatch, type Subscription, termsOf } from './model.ts';

/** Batch row `i` applied to `current`, the mapping its mappingId names in the realm (null when
 *  none): the mapping to save. Refused when the mapping is unknown or belongs to another
 *  provider/product (404 naming the row's mappingId), and when the row disables a mapping that still
 *  has active subscriptions (409 mapping_in_use with the count: the throw rolls back every row of
 *  the batch). */
export function updatedMapping(
  i: number,
  p: MappingPatch,
  current: EntitlementMapping | null,
  paymentProvider: string,
  externalProductId: string,
  now: number,
): EntitlementMapping {
  if (!current || current.paymentProvider !== paymentProvider || current.externalProductId !== externalProductId) {
    throw notFound(`updates[${i}].mappingId: mapping ${p.mappingId} not found for ${paymentProvider}/${externalProductId}`, {
      field: `updates[${i}].mappingId`,
    });
  }
  if (current.enabled && p.enabled === false && current.activeSubscriptions > 0) {
    throw new GatehouseError('mapping_in_use', `updates[${i}].enabled: mapping ${current.id} has ${current.activeSubscriptions} active subscription(s)`, {
      extra: { mappingId: current.id, activeSubscriptions: current.activeSubscriptions },
    });
  }
  return mergeMapping(current, p, now);
}

export interface SubscribeRequest {
  realmId: string;
  userId: string;
  mappingId: string;
  externalSubscriptionId: string | null;
}

/** Subscribing a user to `mapping` (null when the realm has no such mapping); `prior` is the
 *  subscription already holding the request's externalSubscriptionId (null when none or none
 *  given). A webhook delivered twice (same user and mapping) answers the prior subscription again
 *  and grants nothing twice; otherwise the terms the new subscription snapshots. Refused: unknown
 *  mapping (404), an externalSubscriptionId of another subscription (409), a disabled mapping (409). */
export function subscribeDecision(
  req: SubscribeRequest,
  mapping: EntitlementMapping | null,
  prior: Subscription | null,
): { existing: Subscription } | { terms: SubscriptionTerms } {
  if (!mapping) throw notFound(`Mapping ${req.mappingId} not found in realm ${req.realmId}`, { field: 'mappingId' });
  if (prior) {
    if (prior.userId === req.userId && prior.mappingId === mapping.id) return { existing: prior };
    throw conflict(`externalSubscriptionId ${req.externalSubscriptionId} belongs to another subscription`, { field: 'externalSubscriptionId' });
  }
  if (!mapping.enabled) throw conflict(`Mapping ${mapping.id} is disabled`, { mappingId: mapping.id });
  return { terms: termsOf(mapping) };
}

/** Canceling `s` (undefined when the realm has no such subscription): true when it is active and
 *  is to be canceled with its entitlement; false when already canceled (answered unchanged). */
export function mustCancel(s: Pick<Subscription, 'status'> | undefined, realmId: string, subscriptionId: string): boolean {
  if (!s) throw notFound(`Subscription ${subscriptionId} not found in realm ${realmId}`);
  return s.status !== 'canceled';
}
