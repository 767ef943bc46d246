// The rows of the billing tables as both backends read them (the same columns in SQLite and
// PostgreSQL), and the records they make.
import { type EntitlementMapping, entitlementOf, type Subscription } from '../billing/model.ts';
import type { PeriodType, QuotaWindow } from '../points/model.ts';
import type { SubscriptionTerms } from '../points/periods.ts';
import { flag } from './row-values.ts';

export interface MappingRow {
  id: string;
  realm_id: string;
  payment_provider: string;
  external_product_id: string;
  entitlement_key: string;
  billing_type: string;
  billing_period: string;
  points_per_period: number;
  grant_period_type: string;
  validity_days: number;
  grant_on_subscribe: number | boolean;
  max_periods: number;
  enabled: number | boolean;
  quota_windows: string | null;
  created_at: number;
  updated_at: number;
  active_subscriptions: number;
}

export interface SubscriptionRow {
  id: string;
  realm_id: string;
  user_id: string;
  mapping_id: string;
  external_subscription_id: string | null;
  status: 'active' | 'canceled';
  terms: string;
  started_at: number;
  canceled_at: number | null;
}

export const toMapping = (r: MappingRow): EntitlementMapping => ({
  id: r.id,
  realmId: r.realm_id,
  paymentProvider: r.payment_provider,
  externalProductId: r.external_product_id,
  entitlementKey: r.entitlement_key,
  billingType: r.billing_type,
  billingPeriod: r.billing_period,
  pointsPerPeriod: r.points_per_period,
  grantPeriodType: r.grant_period_type as PeriodType,
  validityDays: r.validity_days,
  grantOnSubscribe: flag(r.grant_on_subscribe),
  maxPeriods: r.max_periods,
  enabled: flag(r.enabled),
  quotaWindows: r.quota_windows === null ? null : (JSON.parse(r.quota_windows) as QuotaWindow[]),
  activeSubscriptions: r.active_subscriptions,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export const toSubscription = (r: SubscriptionRow): Subscription => ({
  id: r.id,
  realmId: r.realm_id,
  userId: r.user_id,
  mappingId: r.mapping_id,
  externalSubscriptionId: r.external_subscription_id,
  status: r.status,
  entitlement: entitlementOf(JSON.parse(r.terms) as SubscriptionTerms),
  startedAt: r.started_at,
  canceledAt: r.canceled_at,
});
