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
  /** Points in open holds: part of no balance, of neither spendable figure, nor of the total. */
  held: number;
  /** How many holds are open. */
  holdCount: number;
  /** The open holds soonest to expire, at most HOLD_LIMITS.listed of them (holds.ts). */
  holds: OpenHold[];
}

export interface ConsumeResult {
  transactionId: string;
  userId: string;
  amount: number;
  allocations: AllocationLine[];
  remaining: Remaining;
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

/** A hold's life (docs/points.md): open until settled or released; one not settled by `expiresAt`
 *  is released by itself (`expired`). */
export const HOLD_STATUSES = ['open', 'settled', 'released', 'expired'] as const;
export type HoldStatus = (typeof HOLD_STATUSES)[number];

/** Hold time to live, in seconds: 1–86 400, 600 when not given. */
export const HOLD_TTL = { min: 1, max: 86_400, default: 600 } as const;

export interface Remaining {
  quota: number;
  pool: number;
  total: number;
}

/** What a hold is, stored or answered. */
export interface HoldFields {
  holdId: string;
  userId: string;
  /** The amount held when it was opened. */
  amount: number;
  status: HoldStatus;
  description: string | null;
  createdAt: number;
  expiresAt: number;
  /** The settled amount; null unless settled. */
  settledAmount: number | null;
  /** When it was settled, released or expired (= expiresAt); null while open. */
  closedAt: number | null;
}

export interface HoldResult extends HoldFields {
  /** What the hold drew when it was opened. */
  allocations: AllocationLine[];
  /** What the user can spend once this answer was decided. */
  remaining: Remaining;
}

export interface SettleResult {
  transactionId: string;
  holdId: string;
  userId: string;
  amount: number;
  /** What stays charged: the held lines kept, then anything drawn at settle time. */
  allocations: AllocationLine[];
  remaining: Remaining;
  createdAt: number;
}

/** One allocation line of a refunded transaction: `amount` is the line's share of this refund,
 *  `returned` what its source actually took back (0 for quota that has left every window, or a
 *  balance that has expired or ended). */
export interface RefundLine extends AllocationLine {
  returned: number;
}

export interface RefundResult {
  refundId: string;
  /** The consume or settlement refunded. */
  transactionId: string;
  userId: string;
  /** The amount asked for (what counts against the refundable rest). */
  amount: number;
  /** What actually went back: the sum of `returned`. */
  refunded: number;
  allocations: RefundLine[];
  remaining: Remaining;
  createdAt: number;
}

export const TRANSACTION_KINDS = ['consume', 'grant', 'hold', 'settle', 'release', 'refund', 'expire'] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

/** One movement of a user's points, as the history lists it (docs/points.md). */
export interface HistoryEntry {
  transactionId: string;
  kind: TransactionKind;
  amount: number;
  allocations: AllocationLine[];
  description: string | null;
  createdAt: number;
  /** The hold a settle, release or expire closed; the transaction a refund returned; null else. */
  relatedId: string | null;
}

/** Where a history page ends: the next page starts strictly after it (newest first). */
export interface HistoryCursor {
  createdAt: number;
  transactionId: string;
}

export interface HistoryPage {
  transactions: HistoryEntry[];
  /** null on the last page. */
  next: HistoryCursor | null;
}

/** An open hold as the summary lists it. */
export interface OpenHold {
  holdId: string;
  amount: number;
  expiresAt: number;
}

/** A user's open holds as a summary reads them: all of them counted and added up, a few listed. */
export interface OpenHolds {
  count: number;
  held: number;
  /** The soonest to expire first (then by id), at most HOLD_LIMITS.listed. */
  soonest: OpenHold[];
}
