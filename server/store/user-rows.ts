// The rows of the user tables as both backends read them (the same columns in SQLite and
// PostgreSQL), and the records they make.
import type { Identity, User } from '../users/model.ts';
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
  createdAt: r.created_at,
});
