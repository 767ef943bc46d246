// Storage of the points concern, behind narrow use-case methods (one transaction each) so another
// database could implement them. An implementation reads what a use case needs, asks the pure
// functions of this folder (materialise.ts, state.ts, consume.ts, apply-plan.ts, grant.ts,
// idempotency.ts, summary.ts, default-config.ts, not-found.ts) and writes what they decided; a
// throw inside the transaction writes nothing.
import type { AlertConfig, StoredAlertConfig } from './alerts.ts';
import type { Caller } from './events.ts';
import type {
  AllocationLine,
  Balance,
  ConsumeResult,
  DefaultPointsConfig,
  GrantResult,
  HistoryCursor,
  HistoryPage,
  HoldResult,
  PeriodType,
  PointsSummary,
  PoolKind,
  QuotaWindow,
  RefundResult,
  SettleResult,
  TransactionKind,
} from './model.ts';

export interface DefaultConfigPatch {
  registrationBonusPoints?: number;
  freePeriodicPointsAmount?: number;
  freePeriodicGrantPeriodType?: PeriodType;
  freePeriodicValidityDays?: number;
  /** undefined = untouched; [] = cleared; a list replaces. */
  freePeriodicQuotaWindows?: QuotaWindow[];
}

export interface ConsumeCommand {
  realmId: string;
  userId: string;
  amount: number;
  description: string | null;
  idempotencyKey: string | null;
  /** Hash of the request body, compared on replay. */
  requestHash: string;
  transactionId: string;
}

export interface GrantCommand {
  realmId: string;
  userId: string;
  kind: PoolKind;
  amount: number;
  expiresAt: number | null;
  idempotencyKey: string | null;
  requestHash: string;
  grantId: string;
  /** Who asked (the audit record's actor); absent: no audit record. */
  caller?: Caller | null;
}

export interface HoldCommand {
  realmId: string;
  userId: string;
  amount: number;
  ttlSeconds: number;
  description: string | null;
  idempotencyKey: string | null;
  requestHash: string;
  holdId: string;
}

export interface SettleCommand {
  realmId: string;
  holdId: string;
  /** 0 allowed; below, equal to or above the held amount. */
  amount: number;
  description: string | null;
  idempotencyKey: string | null;
  requestHash: string;
  transactionId: string;
}

export interface ReleaseCommand {
  realmId: string;
  holdId: string;
  idempotencyKey: string | null;
  requestHash: string;
  transactionId: string;
}

export interface RefundCommand {
  realmId: string;
  /** The consume or settlement to refund. */
  transactionId: string;
  /** null = everything still refundable. */
  amount: number | null;
  reason: string | null;
  idempotencyKey: string | null;
  requestHash: string;
  refundId: string;
  /** Who asked (the audit record's actor); absent: no audit record. */
  caller?: Caller | null;
}

export interface HistoryQuery {
  realmId: string;
  userId: string;
  /** 1–200. */
  pageSize: number;
  /** Start strictly after this entry (newest first); null = from the newest. */
  after: HistoryCursor | null;
  /** Only this kind; null = every kind. */
  kind: TransactionKind | null;
}

/** A balance as stored: spent, expired and ended (its subscription canceled) ones included. */
export interface StoredBalance extends Balance {
  endedAt: number | null;
}

/** An accepted consume as stored (the table holds every movement; this is a consume's row). */
export interface StoredConsume {
  transactionId: string;
  userId: string;
  amount: number;
  description: string | null;
  allocations: AllocationLine[];
  createdAt: number;
}

export interface PointsStore {
  realmExists(realmId: string): Promise<boolean>;
  getDefaultConfig(realmId: string): Promise<DefaultPointsConfig>;
  putDefaultConfig(realmId: string, patch: DefaultConfigPatch, now: number, caller?: Caller | null): Promise<DefaultPointsConfig>;
  /** Registration credit and the current free periodic grant for a new account (idempotent). */
  grantRegistration(realmId: string, userId: string, now: number): Promise<void>;
  /** Throws not_found, insufficient_points, idempotency_conflict; nothing written on a throw. */
  consume(cmd: ConsumeCommand, now: number): Promise<ConsumeResult>;
  grant(cmd: GrantCommand, now: number): Promise<GrantResult>;
  /** Materialises due periodic grants, then reads. Throws not_found for an unknown user. */
  summary(realmId: string, userId: string, now: number): Promise<PointsSummary>;
  /** Every balance of the user, oldest first, as stored: nothing is materialised by reading. */
  listBalances(realmId: string, userId: string): Promise<StoredBalance[]>;
  /** The user's accepted consumes, oldest first. */
  listTransactions(realmId: string, userId: string): Promise<StoredConsume[]>;
  /** Planned and applied like a consume, left open. Throws not_found, insufficient_points,
   *  idempotency_conflict. */
  hold(cmd: HoldCommand, now: number): Promise<HoldResult>;
  /** Throws not_found, hold_expired, hold_closed, insufficient_points (of the extra above the held
   *  amount; the hold stays open), idempotency_conflict. */
  settle(cmd: SettleCommand, now: number): Promise<SettleResult>;
  /** Throws not_found, hold_expired, hold_closed, idempotency_conflict. */
  release(cmd: ReleaseCommand, now: number): Promise<HoldResult>;
  /** One hold as it stands at `now` (an open one past its expiresAt reads expired). Throws not_found. */
  getHold(realmId: string, holdId: string, now: number): Promise<HoldResult>;
  /** Throws not_found (no such consume or settlement), refund_exceeds, idempotency_conflict. */
  refund(cmd: RefundCommand, now: number): Promise<RefundResult>;
  /** The user's movements, newest first. Throws not_found for an unknown user. */
  history(q: HistoryQuery, now: number): Promise<HistoryPage>;
  /** Deletes at most `limit` stored idempotency answers made before `before` (any realm); how many. */
  pruneIdempotency(before: number, limit: number): Promise<number>;
  /** The realm's alert configuration (all off when never saved). */
  getAlerts(realmId: string): Promise<StoredAlertConfig>;
  /** Replaces the realm's alert configuration, with the caller's audit record (none without one). */
  putAlerts(realmId: string, config: AlertConfig, now: number, caller?: Caller | null): Promise<StoredAlertConfig>;
  /** The recovery check of the user's exhausted windows (alerts.ts QUOTA_RECOVERY): reports the
   *  recoveries due at `now`, in one transaction. Nothing for a user that is gone. */
  checkAlerts(realmId: string, userId: string, now: number): Promise<void>;
}
