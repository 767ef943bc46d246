// Storage of the points concern, behind narrow use-case methods (one transaction each) so another
// database could implement them. An implementation reads what a use case needs, asks the pure
// functions of this folder (materialise.ts, state.ts, consume.ts, apply-plan.ts, grant.ts,
// idempotency.ts, summary.ts, default-config.ts, not-found.ts) and writes what they decided; a
// throw inside the transaction writes nothing.
import type { AllocationLine, Balance, ConsumeResult, DefaultPointsConfig, GrantResult, PeriodType, PointsSummary, PoolKind, QuotaWindow } from './model.ts';

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
}

/** A balance as stored: spent, expired and ended (its subscription canceled) ones included. */
export interface StoredBalance extends Balance {
  endedAt: number | null;
}

/** An accepted consume as stored. */
export interface PointsTransaction {
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
  putDefaultConfig(realmId: string, patch: DefaultConfigPatch, now: number): Promise<DefaultPointsConfig>;
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
  listTransactions(realmId: string, userId: string): Promise<PointsTransaction[]>;
}
