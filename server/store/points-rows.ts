// The rows of the points tables both backends read the same way (the same columns in SQLite and
// PostgreSQL), and the records they make.

import { type AlertState, NO_ALERTS, QUIET, type StoredAlertConfig } from '../points/alerts.ts';
import { type ChargeLine, publicLines } from '../points/charges.ts';
import type { StoredHold } from '../points/holds.ts';
import {
  type DefaultPointsConfig,
  defaultConfigFor,
  type HistoryEntry,
  type HistoryPage,
  type HoldStatus,
  type PeriodType,
  type QuotaWindow,
  type TransactionKind,
} from '../points/model.ts';
import type { HistoryQuery, StoredBalance, StoredConsume } from '../points/store.ts';

export interface ConfigRow {
  realm_id: string;
  registration_bonus_points: number;
  free_periodic_points_amount: number;
  free_periodic_grant_period_type: string;
  free_periodic_validity_days: number;
  free_periodic_quota_windows: string | null;
  updated_at: number;
}

export function toConfig(r: ConfigRow | null | undefined, realmId: string): DefaultPointsConfig {
  if (!r) return defaultConfigFor(realmId);
  return {
    realmId: r.realm_id,
    registrationBonusPoints: r.registration_bonus_points,
    freePeriodicPointsAmount: r.free_periodic_points_amount,
    freePeriodicGrantPeriodType: r.free_periodic_grant_period_type as PeriodType,
    freePeriodicValidityDays: r.free_periodic_validity_days,
    freePeriodicQuotaWindows: r.free_periodic_quota_windows === null ? null : (JSON.parse(r.free_periodic_quota_windows) as QuotaWindow[]),
    updatedAt: r.updated_at,
  };
}

/** A realm's alert configuration and a user's alert state, read together (either may be missing). */
export interface AlertRow {
  low_balance_thresholds: string | null;
  quota_exhausted: boolean | number | null;
  quota_recovered: boolean | number | null;
  updated_at: number | null;
  fired_thresholds: string | null;
  exhaustions: string | null;
}

export function toAlertConfig(r: AlertRow | null | undefined, realmId: string): StoredAlertConfig {
  if (!r || r.low_balance_thresholds === null) return { realmId, ...NO_ALERTS, updatedAt: null };
  return {
    realmId,
    lowBalanceThresholds: JSON.parse(r.low_balance_thresholds) as number[],
    quotaExhausted: Boolean(r.quota_exhausted),
    quotaRecovered: Boolean(r.quota_recovered),
    updatedAt: r.updated_at === null ? null : Number(r.updated_at),
  };
}

export function toAlertState(r: AlertRow | null | undefined): AlertState {
  if (!r || r.fired_thresholds === null) return QUIET;
  return { firedThresholds: JSON.parse(r.fired_thresholds) as number[], exhaustions: JSON.parse(r.exhaustions ?? '[]') as AlertState['exhaustions'] };
}

/** The parameters of the state's upsert: user, realm, fired thresholds, exhaustions. */
export const alertStateValues = (userId: string, realmId: string, st: AlertState) => [
  userId,
  realmId,
  JSON.stringify(st.firedThresholds),
  JSON.stringify(st.exhaustions),
];

export const ALERT_SQL = {
  /** $1 realm, $2 user. */
  read: `SELECT c.low_balance_thresholds, c.quota_exhausted, c.quota_recovered, c.updated_at, s.fired_thresholds, s.exhaustions
    FROM (SELECT 1 AS one) o LEFT JOIN points_alert_config c ON c.realm_id = $1 LEFT JOIN points_alert_state s ON s.user_id = $2`,
  saveState: `INSERT INTO points_alert_state (user_id, realm_id, fired_thresholds, exhaustions) VALUES ($1, $2, $3, $4)
    ON CONFLICT (user_id) DO UPDATE SET fired_thresholds = excluded.fired_thresholds, exhaustions = excluded.exhaustions`,
  saveConfig: `INSERT INTO points_alert_config (realm_id, low_balance_thresholds, quota_exhausted, quota_recovered, updated_at) VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (realm_id) DO UPDATE SET low_balance_thresholds = excluded.low_balance_thresholds, quota_exhausted = excluded.quota_exhausted,
      quota_recovered = excluded.quota_recovered, updated_at = excluded.updated_at`,
};

export interface HoldRow {
  id: string;
  realm_id: string;
  user_id: string;
  amount: number;
  lines: string;
  status: HoldStatus;
  description: string | null;
  created_at: number;
  expires_at: number;
  settled_amount: number | null;
  closed_at: number | null;
}

export function toHold(r: HoldRow): StoredHold {
  return {
    holdId: r.id,
    realmId: r.realm_id,
    userId: r.user_id,
    amount: r.amount,
    lines: JSON.parse(r.lines) as ChargeLine[],
    status: r.status,
    description: r.description,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    settledAmount: r.settled_amount,
    closedAt: r.closed_at,
  };
}

export interface BalanceRow {
  id: string;
  kind: StoredBalance['kind'];
  amount: number;
  remaining: number;
  expires_at: number | null;
  ended_at: number | null;
  created_at: number;
}

export function toStoredBalance(r: BalanceRow): StoredBalance {
  return { id: r.id, kind: r.kind, amount: r.amount, remaining: r.remaining, expiresAt: r.expires_at, createdAt: r.created_at, endedAt: r.ended_at };
}

export interface TransactionRow {
  id: string;
  user_id: string;
  amount: number;
  description: string | null;
  allocations: string;
  created_at: number;
}

export function toTransaction(r: TransactionRow): StoredConsume {
  return {
    transactionId: r.id,
    userId: r.user_id,
    amount: r.amount,
    description: r.description,
    allocations: publicLines(JSON.parse(r.allocations) as ChargeLine[]),
    createdAt: r.created_at,
  };
}

/** A history row as the page statements select it. */
export interface HistoryRow {
  id: string;
  kind: TransactionKind;
  amount: number;
  description: string | null;
  allocations: string;
  relatedId: string | null;
  createdAt: number;
}

/** Where a page's statement starts (strictly after), and how many rows it asks for: one more than
 *  the page, to know whether another follows. Without a cursor, from past any time there can be. */
export function pageStart(q: HistoryQuery): { at: number; id: string; limit: number } {
  const from = q.after ? { at: q.after.createdAt, id: q.after.transactionId } : { at: Number.MAX_SAFE_INTEGER, id: '' };
  return { ...from, limit: q.pageSize + 1 };
}

/** The page of `rows` (read as pageStart asked) and the cursor of the next one, if any. */
export function historyPage(rows: HistoryRow[], pageSize: number): HistoryPage {
  const more = rows.length > pageSize;
  const page = more ? rows.slice(0, pageSize) : rows;
  const transactions: HistoryEntry[] = page.map((r) => ({
    transactionId: r.id,
    kind: r.kind,
    amount: r.amount,
    allocations: publicLines(JSON.parse(r.allocations) as ChargeLine[]),
    description: r.description,
    createdAt: r.createdAt,
    relatedId: r.relatedId,
  }));
  const last = page[page.length - 1];
  return { transactions, next: more && last ? { createdAt: last.createdAt, transactionId: last.id } : null };
}

/** Whether a stored answer was for an account since deleted (the tombstone is written with the
 *  deletion; the answer stays until the account's purge reaches it): such an answer is never
 *  replayed (idempotency.ts). */
export const OWNER_DELETED = 'EXISTS (SELECT 1 FROM user_tombstones t WHERE t.user_id = points_idempotency.user_id)';

/** The answer stored under an idempotency key ($1 realm, $2 scope, $3 key). */
export const POINTS_IDEM_SQL = `SELECT request_hash AS "requestHash", response, ${OWNER_DELETED} AS "ownerDeleted" FROM points_idempotency
  WHERE realm_id = $1 AND scope = $2 AND key = $3`;
