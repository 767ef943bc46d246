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
  /** When the account's claims (its name) last changed: createdAt until they do. */
  updatedAt: number;
  /** When an operator disabled the account (its logins refused), or null. */
  disabledAt: number | null;
}

export interface Identity {
  realmId: string;
  provider: string;
  subject: string;
  userId: string;
  email: string | null;
  createdAt: number;
}

/** Whether an operator disabled the account: every login is refused (403) until it is enabled. */
export function isDisabled(u: Pick<User, 'disabledAt'>): boolean {
  return u.disabledAt !== null;
}

/** The account with its disabled state set: disabled at `at`, or enabled for null. Disabling an
 *  account that is disabled already keeps the first time (what an operator looks up later). */
export function withDisabled(u: User, at: number | null): User {
  if (at !== null && u.disabledAt !== null) return u;
  return { ...u, disabledAt: at };
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

/** The email an identity token carries, as an address we may store and match on — or null, and
 *  the login goes on as if the token had no email (placeholder account, no linking; a token is
 *  never refused for its email).
 *
 *  Decision: no Unicode normalisation (NFKC would fold a fullwidth `＠` or `ａlice` onto `alice@…`
 *  and so link a look-alike to someone else's account). Only a plain ASCII address is usable:
 *  printable local part (≤ 64), an LDH domain of dotted labels (IDNs arrive as `xn--` punycode and
 *  stay distinct) with a letter TLD and no trailing dot, ≤ 254 in all. Zero-width characters,
 *  bidi overrides, NUL, homoglyphs in Unicode form and the reserved `*.placeholder` domain (the
 *  service's own no-email addresses) make it null. Case is folded (one mailbox, one account):
 *  `Alice@Example.COM` and `alice@example.com` are the same account. */
export function plausibleEmail(v: unknown): string | null {
  if (typeof v !== 'string' || v.length > 320) return null;
  const e = v.replace(/^[ \t]+|[ \t]+$/g, '').toLowerCase();
  if (e.length > 254 || !/^[\x21-\x7e]+$/.test(e)) return null;
  const at = e.lastIndexOf('@');
  if (at < 1 || e.indexOf('@') !== at) return null;
  const local = e.slice(0, at);
  const domain = e.slice(at + 1);
  if (local.length > 64 || local.startsWith('.') || local.endsWith('.') || local.includes('..')) return null;
  const labels = domain.split('.');
  if (labels.length < 2 || domain.length > 253) return null;
  if (!labels.every((l) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(l))) return null;
  const tld = labels[labels.length - 1]!;
  if (!/^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(tld) || tld === 'placeholder') return null;
  return e;
}

/** What a provider login presents for account matching (docs/login.md). */
export interface ProviderLogin {
  realmId: string;
  provider: string;
  /** The ID token's `sub` (the provider record's open_id). */
  subject: string;
  /** Normalised email from the token that its provider lets us use (Google: only a verified one),
   *  or null. */
  email: string | null;
  emailVerified: boolean;
  /** Stored only while the account has no name. */
  fullName: { givenName: string; familyName: string } | null;
}

export type LoginMatch = { kind: 'identity'; userId: string } | { kind: 'link'; userId: string } | { kind: 'create'; email: string; emailVerified: boolean };

/** The match order: provider record by (provider, sub), then email, then create (Email rules 1–5).
 *  An existing account is linked by email only when its own email is verified: an unverified or
 *  placeholder address proves nobody owns it, and whoever registered it first would otherwise
 *  share the account of the mailbox's real owner (account pre-hijacking). A token without email,
 *  or whose email is taken by an account that may not be linked, creates an account with the
 *  placeholder `{sub}@{provider}.placeholder`, unverified. Pure: the store supplies the lookups. */
export function planLoginMatch(
  login: ProviderLogin,
  byIdentity: { userId: string } | null,
  byEmail: { userId: string; email: string; emailVerified: boolean } | null,
): LoginMatch {
  if (byIdentity) return { kind: 'identity', userId: byIdentity.userId };
  if (login.email !== null) {
    if (!byEmail) return { kind: 'create', email: login.email, emailVerified: login.emailVerified };
    if (byEmail.emailVerified && !isPlaceholderEmail(byEmail.email)) return { kind: 'link', userId: byEmail.userId };
  }
  return { kind: 'create', email: placeholderEmail(login.subject, login.provider), emailVerified: false };
}

export function placeholderEmail(subject: string, provider: string): string {
  return `${subject}@${provider}.placeholder`;
}

/** An address in the reserved `.placeholder` top-level domain: an account created without email. */
export function isPlaceholderEmail(email: string): boolean {
  return email.endsWith('.placeholder');
}
