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
