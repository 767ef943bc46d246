// Storage of the billing concern, one transaction per use case. An implementation reads what a use
// case needs, asks mapping-rules.ts (and the points domain for the grants), and writes what they
// decided; a throw inside the transaction writes nothing.
import type { Emitted } from '../events/plan.ts';
import type { EntitlementMapping, MappingPatch, Subscription } from './model.ts';
import type { PaymentStore } from './notifications.ts';

/** What a mapping batch's rows were and became, for its audit record. */
export type MappingBatchRecords = (rows: Array<{ before: EntitlementMapping | null; after: EntitlementMapping }>) => Emitted;

/** Mappings and subscriptions, and the payment providers' notifications that drive them. */
export interface BillingStore extends PaymentStore {
  /** Applies every row or none: throws not_found (unknown mappingId) or mapping_in_use. */
  applyMappingBatch(
    realmId: string,
    paymentProvider: string,
    externalProductId: string,
    rows: MappingPatch[],
    now: number,
    emitted?: MappingBatchRecords,
  ): Promise<EntitlementMapping[]>;
  /** Ordered by payment provider, product, creation time, then id. */
  listMappings(realmId: string, filter: { paymentProvider?: string; externalProductId?: string }): Promise<EntitlementMapping[]>;
  /** Activates a subscription and grants its entitlement (snapshot of the mapping's terms), with
   *  what `emitted` says of the new subscription (nothing when an existing one answers). */
  createSubscription(
    input: { realmId: string; userId: string; mappingId: string; externalSubscriptionId: string | null; id: string },
    now: number,
    emitted?: (created: Subscription) => Emitted,
  ): Promise<Subscription>;
  /** Ends a subscription and its entitlement, with what `emitted` says of it; canceling a canceled
   *  one answers it unchanged and writes nothing. */
  cancelSubscription(realmId: string, subscriptionId: string, now: number, emitted?: (canceled: Subscription) => Emitted): Promise<Subscription>;
}
