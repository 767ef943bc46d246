// Payment providers' notifications (README "Selling plans through the App Store and Stripe"): what a verified notification says, kept as its
// facts so an unmatched one can be applied again, and what it did.
import type { AuditRecord } from '../audit/model.ts';
import type { ProviderEffect, ProviderState } from './provider-rules.ts';

export const PAYMENT_PROVIDERS = ['app_store', 'stripe'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

/** Listing filter values: `duplicate` lists notifications delivered more than once. */
export const NOTIFICATION_STATUSES = ['applied', 'duplicate', 'unmatched', 'ignored'] as const;
export type NotificationStatus = 'applied' | 'unmatched' | 'ignored';

/** The verified fields of one notification the decision reads. */
export interface NotificationFacts {
  provider: PaymentProvider;
  /** notificationUUID, or the Stripe event id: once per id. */
  externalId: string;
  type: string;
  effect: ProviderEffect;
  /** The provider's own time of the notification (signedDate, the event's created). */
  providerAt: number;
  /** App Store: the transaction's appAccountToken; Stripe: metadata.gatehouse_user_id. */
  user: { appAccountToken: string } | { userId: string } | null;
  /** The mapping's candidates, first match wins (Stripe: the price id, then the product id). */
  productIds: string[];
  /** originalTransactionId, or the Stripe subscription id. */
  externalSubscriptionId: string;
  /** transactionId, or the event id: names the subscription an activation starts. */
  transactionId: string;
}

export interface BillingNotification {
  id: string;
  realmId: string;
  provider: PaymentProvider;
  externalId: string;
  type: string;
  status: NotificationStatus;
  reason: string;
  userId: string | null;
  externalProductId: string;
  externalSubscriptionId: string;
  subscriptionId: string | null;
  duplicates: number;
  providerAt: number;
  receivedAt: number;
  appliedAt: number | null;
}

/** A realm's settings for one provider as stored; `secret` never leaves the server. */
export interface StoredProviderSettings {
  settings: Record<string, unknown>;
  secret: string | null;
}

/** Storage of the payment providers' notifications and settings, one transaction per use case. */
export interface PaymentStore {
  providerSettings(realmId: string, provider: PaymentProvider): Promise<StoredProviderSettings | null>;
  /** secret undefined: kept as it is; `audit` (the operator's change) written in the same
   *  transaction. Throws not_found for an unknown realm. */
  putProviderSettings(
    realmId: string,
    provider: PaymentProvider,
    settings: Record<string, unknown>,
    secret: string | undefined,
    audit: AuditRecord,
    now: number,
  ): Promise<void>;
  /** Records a notification once per (provider, externalId) and applies it in the same transaction
   *  (its subscription started or ended with its entitlement); a second delivery only counts. */
  receiveNotification(realmId: string, facts: NotificationFacts, id: string, now: number): Promise<{ notification: BillingNotification; duplicate: boolean }>;
  /** Applies an unmatched notification again; another one is answered unchanged; null: unknown id. */
  replayNotification(realmId: string, id: string, now: number): Promise<BillingNotification | null>;
  /** Newest first, after the (receivedAt, id) cursor when given. */
  listNotifications(
    realmId: string,
    q: { status: (typeof NOTIFICATION_STATUSES)[number] | null; limit: number; before: { receivedAt: number; id: string } | null },
  ): Promise<BillingNotification[]>;
}

/** The product a notification's facts name (the first candidate), for the record. */
export const productOf = (f: { productIds: readonly string[] }) => f.productIds[0] ?? '';

export interface NotificationRow {
  id: string;
  realm_id: string;
  provider: string;
  external_id: string;
  type: string;
  status: string;
  reason: string;
  user_id: string | null;
  external_product_id: string;
  external_subscription_id: string;
  subscription_id: string | null;
  facts: string;
  duplicates: number | string;
  provider_at: number | string;
  received_at: number | string;
  applied_at: number | string | null;
}

export const toNotification = (r: NotificationRow): BillingNotification => ({
  id: r.id,
  realmId: r.realm_id,
  provider: r.provider as PaymentProvider,
  externalId: r.external_id,
  type: r.type,
  status: r.status as NotificationStatus,
  reason: r.reason,
  userId: r.user_id,
  externalProductId: r.external_product_id,
  externalSubscriptionId: r.external_subscription_id,
  subscriptionId: r.subscription_id,
  duplicates: Number(r.duplicates),
  providerAt: Number(r.provider_at),
  receivedAt: Number(r.received_at),
  appliedAt: r.applied_at === null ? null : Number(r.applied_at),
});

export interface ProviderStateRow {
  realm_id: string;
  provider: string;
  external_subscription_id: string;
  user_id: string;
  external_product_id: string;
  active: number | boolean;
  provider_at: number | string;
  subscription_id: string | null;
}

export const toProviderState = (r: ProviderStateRow): ProviderState => ({
  providerAt: Number(r.provider_at),
  active: r.active === true || r.active === 1,
  productId: r.external_product_id,
});
