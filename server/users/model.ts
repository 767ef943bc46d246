// Accounts: the records and the pure email rules shared by every login path.
import { badRequest } from '../errors.ts';

export interface User {
  id: string;
  realmId: string;
  email: string;
  emailVerified: boolean;
  givenName: string | null;
  familyName: string | null;
  createdAt: number;
}

export interface Identity {
  realmId: string;
  provider: string;
  subject: string;
  userId: string;
  email: string | null;
  createdAt: number;
}

/** Emails are compared and stored lower-cased and trimmed: one mailbox, one account. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateEmail(email: string, field = 'email'): string {
  const e = normaliseEmail(email);
  if (e.length > 320 || !EMAIL_RE.test(e)) throw badRequest(`${field}: not an email address`, { field });
  return e;
}

/** What a provider login presents for account matching (native-idp-login.md, Email rules). */
export interface ProviderLogin {
  realmId: string;
  provider: string;
  /** The ID token's `sub` (the provider record's open_id). */
  subject: string;
  /** Normalised email from the token, or null. */
  email: string | null;
  emailVerified: boolean;
  /** The email may match an existing account (Google: only when verified). */
  emailLinkable: boolean;
  /** Stored only while the account has no name. */
  fullName: { givenName: string; familyName: string } | null;
}

export type LoginMatch =
  | { kind: 'identity'; userId: string }
  | { kind: 'link'; userId: string }
  | { kind: 'create'; email: string; emailVerified: boolean };

/** The match order: provider record by (provider, sub), then email, then create (Email rules 1–5).
 *  A token without email, or whose email may not be linked but is taken, creates an account with
 *  the placeholder `{sub}@{provider}.placeholder`, unverified. Pure: the store supplies the lookups. */
export function planLoginMatch(
  login: ProviderLogin,
  byIdentity: { userId: string } | null,
  byEmail: { userId: string } | null,
): LoginMatch {
  if (byIdentity) return { kind: 'identity', userId: byIdentity.userId };
  if (login.email !== null && byEmail && login.emailLinkable) return { kind: 'link', userId: byEmail.userId };
  if (login.email !== null && !byEmail) return { kind: 'create', email: login.email, emailVerified: login.emailVerified };
  return { kind: 'create', email: placeholderEmail(login.subject, login.provider), emailVerified: false };
}

export function placeholderEmail(subject: string, provider: string): string {
  return `${subject}@${provider}.placeholder`;
}
