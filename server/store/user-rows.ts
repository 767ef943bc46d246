// The rows of the user tables as both backends read them (the same columns in SQLite and
// PostgreSQL), and the records they make.
import { ENCRYPTED, type SecretBox } from '../crypto/secrets.ts';
import type { EmailForwarding, Identity, User } from '../users/model.ts';
import type { PurgeTable } from '../users/purge.ts';
import { MARKED_MOVEMENT_COLUMNS } from './record-rows.ts';
import { flag } from './row-values.ts';

export interface UserRow {
  id: string;
  realm_id: string;
  email: string;
  email_verified: number | boolean;
  given_name: string | null;
  family_name: string | null;
  created_at: number;
  updated_at: number | null;
  disabled_at: number | null;
}

export interface IdentityRow {
  realm_id: string;
  provider: string;
  subject: string;
  user_id: string;
  email: string | null;
  email_forwarding: EmailForwarding | null;
  created_at: number;
}

export const toUser = (r: UserRow): User => ({
  id: r.id,
  realmId: r.realm_id,
  email: r.email,
  emailVerified: flag(r.email_verified),
  givenName: r.given_name,
  familyName: r.family_name,
  createdAt: r.created_at,
  updatedAt: r.updated_at ?? r.created_at,
  disabledAt: r.disabled_at,
});

export const toIdentity = (r: IdentityRow): Identity => ({
  realmId: r.realm_id,
  provider: r.provider,
  subject: r.subject,
  userId: r.user_id,
  email: r.email,
  emailForwarding: r.email_forwarding ?? null,
  createdAt: r.created_at,
});

/** The account's rows of a purged table, each found through an index that starts with the user
 *  (a hold through points_holds_closed: the open ones went with the deletion). */
const PURGE_WHERE: Record<PurgeTable, string> = {
  points_idempotency: 'user_id = $1',
  points_transactions: 'user_id = $1',
  points_usage_ledger: 'user_id = $1',
  points_usage_returns: 'user_id = $1',
  points_usage_heads: 'user_id = $1',
  points_holds: "user_id = $1 AND status <> 'open'",
  points_balances: 'user_id = $1',
  points_window_entitlements: 'user_id = $1',
  points_grants_given: 'user_id = $1',
  points_alert_state: 'user_id = $1',
};

/** What names a row in SQLite: its rowid, or for a table without one its primary key. */
const SQLITE_ROW_KEY: Record<PurgeTable, string> = {
  points_idempotency: 'realm_id, scope, key',
  points_transactions: 'rowid',
  points_usage_ledger: 'user_id, kind, at, seq',
  points_usage_returns: 'user_id, kind, level, idx',
  points_usage_heads: 'user_id, kind',
  points_holds: 'rowid',
  points_balances: 'rowid',
  points_window_entitlements: 'rowid',
  points_grants_given: 'user_id, source',
  points_alert_state: 'rowid',
};

/** One delete of a purge batch ($1 the user id, $2 the most rows), per backend: neither has
 *  DELETE … LIMIT, so the rows are chosen by a limited select (SQLite by key, PostgreSQL by ctid). */
function purgeDeleteSql(table: PurgeTable, dialect: 'sqlite' | 'postgres'): string {
  const where = PURGE_WHERE[table];
  if (dialect === 'postgres') return `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${table} WHERE ${where} LIMIT $2))`;
  const key = SQLITE_ROW_KEY[table];
  return `DELETE FROM ${table} WHERE (${key}) IN (SELECT ${key} FROM ${table} WHERE ${where} LIMIT $2)`;
}

/** The statements of a deletion and of its purge's batches that are not the user store's own ($n in
 *  the order they appear, for SQLite's `?`). */
export const DELETION_SQL = {
  // Releasing the account's open holds is the deletion's own, in its transaction (through
  // points_holds_open; how many a user may have open is bounded).
  releaseOpenHolds: "DELETE FROM points_holds WHERE user_id = $1 AND status = 'open'",
  // The account's movements whose points.consumed event the outbox still holds as a mark
  // (migration 021): the deletion writes those events out as outbox rows and clears the marks, so
  // the purge that later deletes the movements takes no event with them.
  markedMovements: `SELECT ${MARKED_MOVEMENT_COLUMNS} FROM points_transactions WHERE user_id = $1 AND event_pending IS NOT NULL`,
  unmarkMovements: 'UPDATE points_transactions SET event_pending = NULL WHERE user_id = $1 AND event_pending IS NOT NULL',
  // Whether the account is deleted: a purge deletes nothing of a live one.
  deletedAt: 'SELECT deleted_at FROM users WHERE id = $1',
  // The batch's job, still held by its owner: its lease renewed, or no batch (another replica has it).
  renewLease: "UPDATE jobs SET lease_until = $1, updated_at = $2 WHERE id = $3 AND lease_owner = $4 AND status = 'running'",
  purge: purgeDeleteSql,
};

/** An identity row as the deletion reads it, with the Apple refresh token kept for revoking. */
export type IdentityWithTokenRow = IdentityRow & { apple_refresh_token: string | null };

export const toIdentityWithToken = (r: IdentityWithTokenRow, secrets: SecretBox) => ({
  ...toIdentity(r),
  appleRefreshToken: secrets.openOrNull(ENCRYPTED.appleRefreshToken, r.apple_refresh_token),
});
