// The rows of the user tables as both backends read them (the same columns in SQLite and
// PostgreSQL), and the records they make.
import { ENCRYPTED, type SecretBox } from '../crypto/secrets.ts';
import type { EmailForwarding, Identity, User } from '../users/model.ts';
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

/** Every points row of a user, deleted with the account ($1 the user id), each through an index
 *  that starts with the user (a hold through its two partial indexes). */
export const DROP_USER_POINTS = [
  'DELETE FROM points_balances WHERE user_id = $1',
  'DELETE FROM points_window_entitlements WHERE user_id = $1',
  'DELETE FROM points_usage_heads WHERE user_id = $1',
  'DELETE FROM points_usage_ledger WHERE user_id = $1',
  'DELETE FROM points_usage_returns WHERE user_id = $1',
  'DELETE FROM points_grants_given WHERE user_id = $1',
  "DELETE FROM points_holds WHERE user_id = $1 AND status = 'open'",
  "DELETE FROM points_holds WHERE user_id = $1 AND status <> 'open'",
  'DELETE FROM points_transactions WHERE user_id = $1',
  'DELETE FROM points_idempotency WHERE user_id = $1',
  'DELETE FROM points_alert_state WHERE user_id = $1',
];

/** An identity row as the deletion reads it, with the Apple refresh token kept for revoking. */
export type IdentityWithTokenRow = IdentityRow & { apple_refresh_token: string | null };

export const toIdentityWithToken = (r: IdentityWithTokenRow, secrets: SecretBox) => ({
  ...toIdentity(r),
  appleRefreshToken: secrets.openOrNull(ENCRYPTED.appleRefreshToken, r.apple_refresh_token),
});
