// Linking and unlinking provider identities on an existing account (docs/login.md, "Linking
// providers"). Pure but for fresh record ids: the store reads the rows, asks, and writes what the
// plan says, its events and audit record included, in one transaction.
import type { Actor } from '../audit/model.ts';
import { type Emitted, NOTHING_EMITTED, newAuditRecord, newEvent } from '../events/plan.ts';
import { type Identity, isPlaceholderEmail, placeholderEmail, type User } from './model.ts';

/** What a verified ID token brings to link: its provider subject and the email its provider lets
 *  us use (provider.ts emailFacts). */
export interface LinkRequest {
  realmId: string;
  userId: string;
  provider: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  now: number;
  requestId: string | null;
}

export type LinkPlan =
  /** Link `identity`; `email`: the account's new email (it had a placeholder), or null. */
  | { kind: 'link'; identity: Identity; email: string | null; emitted: Emitted }
  /** Linked to this account already: nothing to write. */
  | { kind: 'unchanged'; identity: Identity }
  /** The subject is another account's. */
  | { kind: 'identity_in_use' }
  /** The account has another identity of this provider (identities are unlinked by provider). */
  | { kind: 'provider_linked' }
  | { kind: 'no_user' };

/** The plan for linking `req` to its account, given the account, the link the (provider, subject)
 *  has now, the account's identities and the account holding the token's email (if any). Linking
 *  never replaces a verified email; a placeholder is replaced by the token's email when its provider
 *  states it verified and no other account holds it (the §9 rules of native login). */
export function planLink(req: LinkRequest, user: User | null, owner: Identity | null, identities: Identity[], emailHolder: User | null): LinkPlan {
  if (!user) return { kind: 'no_user' };
  if (owner) return owner.userId === user.id ? { kind: 'unchanged', identity: owner } : { kind: 'identity_in_use' };
  if (identities.some((i) => i.provider === req.provider)) return { kind: 'provider_linked' };
  const identity: Identity = {
    realmId: req.realmId,
    provider: req.provider,
    subject: req.subject,
    userId: user.id,
    email: req.email,
    emailForwarding: null,
    createdAt: req.now,
  };
  const takeEmail = isPlaceholderEmail(user.email) && req.email !== null && req.emailVerified && (emailHolder === null || emailHolder.id === user.id);
  const email = takeEmail ? req.email : null;
  const changes: Record<string, { before: unknown; after: unknown }> = {
    identities: { before: identities.map((i) => i.provider), after: [...identities.map((i) => i.provider), req.provider] },
  };
  // No address in the audit log (it outlives the account's deletion): only that it is now verified.
  if (email !== null) changes.emailVerified = { before: user.emailVerified, after: true };
  const emitted: Emitted = {
    events: [newEvent('user.identity_linked', req.realmId, req.now, { userId: user.id, provider: req.provider })],
    audit: [
      newAuditRecord({
        at: req.now,
        realmId: req.realmId,
        actor: { type: 'user', id: user.id },
        action: 'user.identity_link',
        targetId: user.id,
        changes,
        requestId: req.requestId,
      }),
    ],
    jobs: [],
  };
  return { kind: 'link', identity, email, emitted };
}

/** Who unlinks, and when. */
export interface UnlinkRequest {
  realmId: string;
  userId: string;
  provider: string;
  actor: Actor;
  requestId: string | null;
  now: number;
}

export type UnlinkPlan =
  /** Remove `identity`; `email`: the account's new placeholder, or null (see placeholderAfterUnlink). */
  { kind: 'unlink'; identity: Identity; email: string | null; emitted: Emitted } | { kind: 'not_linked' } | { kind: 'last_identity' };

/** The plan for removing the account's `provider` identity: refused when it is the last one (the
 *  account could never sign in again). */
export function planUnlink(user: User | null, identities: Identity[], req: UnlinkRequest): UnlinkPlan {
  const identity = user ? identities.find((i) => i.provider === req.provider) : undefined;
  if (!user || !identity) return { kind: 'not_linked' };
  if (identities.length === 1) return { kind: 'last_identity' };
  const email = placeholderAfterUnlink(user, identity, identities);
  return { kind: 'unlink', identity, email, emitted: unlinkRecords(identity, identities, req.actor, req.requestId, req.now) };
}

/** An account whose email is the placeholder of the identity being removed takes the placeholder
 *  of one it keeps: the removed subject may sign in again (a new account), whose placeholder would
 *  otherwise be taken (users/model.ts placeholderEmail). null: the email stays. */
export function placeholderAfterUnlink(user: User, removed: Identity, identities: Identity[]): string | null {
  if (user.email !== placeholderEmail(removed.subject, removed.provider)) return null;
  const kept = identities.find((i) => !(i.provider === removed.provider && i.subject === removed.subject));
  return kept ? placeholderEmail(kept.subject, kept.provider) : null;
}

/** The event and audit record of removing `identity` from the account holding `identities`
 *  (shared with Apple's account-delete, apple-notification.ts). */
export function unlinkRecords(identity: Identity, identities: Identity[], actor: Actor, requestId: string | null, now: number): Emitted {
  const providers = identities.map((i) => i.provider);
  return {
    ...NOTHING_EMITTED,
    events: [newEvent('user.identity_unlinked', identity.realmId, now, { userId: identity.userId, provider: identity.provider })],
    audit: [
      newAuditRecord({
        at: now,
        realmId: identity.realmId,
        actor,
        action: 'user.identity_unlink',
        targetId: identity.userId,
        changes: { identities: { before: providers, after: providers.filter((p) => p !== identity.provider) } },
        requestId,
      }),
    ],
  };
}
