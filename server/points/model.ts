// The points domain's records (docs/points.md). Plain data; rules live in the other files of this
// folder, storage behind store.ts.
export const POOL_KINDS = ['topup_credit', 'registration_credit', 'granted_credit'] as const;
export const QUOTA_KINDS = ['subscription_credit', 'free_periodic_credit'] as const;
export type PoolKind = (typeof POOL_KINDS)[number];
export type QuotaKind = (typeof QUOTA_KINDS)[number];
export type CreditKind = PoolKind | QuotaKind;

export const PERIOD_TYPES = ['once', 'daily', 'weekly', 'monthly'] as const;
export type PeriodType = (typeof PERIOD_TYPES)[number];

export interface QuotaWindow {
  windowSeconds: number;
  limit: number;
}

export interface DefaultPointsConfig {
  realmId: string;
  registrationBonusPoints: number;
  freePeriodicPointsAmount: number;
  freePeriodicGrantPeriodType: PeriodType;
  freePeriodicValidityDays: number;
  /** null = never set (or cleared to null); [] is stored as cleared. */
  freePeriodicQuotaWindows: QuotaWindow[] | null;
  updatedAt: number | null;
}

export function defaultConfigFor(realmId: string): DefaultPointsConfig {
  return {
    realmId,
    registrationBonusPoints: 0,
    freePeriodicPointsAmount: 0,
    freePeriodicGrantPeriodType: 'monthly',
    freePeriodicValidityDays: 0,
    freePeriodicQuotaWindows: null,
    updatedAt: null,
  };
}

/** A balance: a pool grant or a fixed quota grant. */
export interface Balance {
  id: string;
  kind: CreditKind;
  amount: number;
  remaining: number;
  /** null = never expires. Spendable while now < expiresAt. */
  expiresAt: number | null;
  createdAt: number;
}

/** A window entitlement: a quota grant with a snapshot of its windows. */
export interface WindowEntitlement {
  id: string;
  kind: QuotaKind;
  windows: QuotaWindow[];
  startsAt: number;
  /** null = until ended. Active while startsAt <= now < endsAt. */
  endsAt: number | null;
}

export interface AllocationLine {
  creditKind: CreditKind;
  sourceId: string;
  amount: number;
}

/** One window row of a summary (docs/points.md). Times in epoch ms. */
export interface WindowRow {
  creditKind: QuotaKind;
  key: string;
  windowSeconds: number;
  limit: number;
  used: number;
  remaining: number;
  nextRecoveryAt: number | null;
  resetsAt: number | null;
  isTightest: boolean;
  exhausted: boolean;
}

export interface BalanceTotals {
  topup: number;
  registration: number;
  granted: number;
  subscription: number;
  freePeriodic: number;
}

export interface PointsSummary {
  userId: string;
  balances: BalanceTotals;
  windows: WindowRow[];
  spendableFromQuota: number;
  spendableFromPool: number;
  total: number;
}

export interface ConsumeResult {
  transactionId: string;
  userId: string;
  amount: number;
  allocations: AllocationLine[];
  remaining: { quota: number; pool: number; total: number };
  createdAt: number;
}

export interface GrantResult {
  grantId: string;
  userId: string;
  kind: PoolKind;
  amount: number;
  expiresAt: number | null;
  createdAt: number;
}
