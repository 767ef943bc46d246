// Account deletion (docs/login.md "Deleting an account"), the pure part: what one transaction does to a user, planned from
// what the store read of them under lock. The store applies the plan (UserStore.deleteAccount);
// the calls to Apple happen after the commit, from the jobs the plan queues (apple-revocation.ts),
// and so does the purge of the account's points rows (purge.ts).
import type { Actor } from '../audit/model.ts';
import { type GatehouseError, notFound } from '../errors.ts';
import { type Emitted, newAuditRecord, newEvent } from '../events/plan.ts';
import type { Job } from '../jobs/model.ts';
import { sha256Hex } from '../lib/ids.ts';
import type { Identity, User } from './model.ts';
import { userPurgeJob } from './purge.ts';

/** The answer's `appleRevocation`: every Apple token revoked, some still queued, or none to revoke. */
export type AppleRevocation = 'revoked' | 'pending' | 'none';

/** Who asks, and what they hand in. */
export interface DeletionRequest {
  realmId: string;
  userId: string;
  actor: Actor;
  requestId: string | null;
}

/** What the store read of the user in the deletion's transaction. */
export interface AccountSnapshot {
  user: User;
  identities: Array<Identity & { appleRefreshToken: string | null }>;
  /** The user's families not yet revoked. */
  liveFamilyIds: string[];
  openHolds: number;
  activeSubscriptionIds: string[];
}

export interface DeletionPlan {
  userId: string;
  realmId: string;
  deletedAt: number;
  /** What the users row keeps: no email, no names (the email a reserved placeholder). */
  erasedEmail: string;
  /** SHA-256 hex of `provider:subject`, per identity unlinked. */
  deletedSubjects: string[];
  /** Families revoked with reason `user_deleted`. */
  revokeFamilyIds: string[];
  cancelSubscriptionIds: string[];
  /** The outbox events, the audit record, the Apple revocation jobs and the `user.purge` job of the
   *  account's remaining rows (purge.ts), written in the transaction. */
  emitted: Emitted;
}

/** The hash kept per deleted identity: per realm (the table's key), of `provider:subject`. */
export function deletedSubjectHash(provider: string, subject: string): string {
  return sha256Hex(`${provider}:${subject}`);
}

/** The address a deleted account's row keeps (the reserved `.placeholder` domain: never a mailbox,
 *  never matched by a login, and the real address is free for a new account). */
export function erasedEmail(userId: string): string {
  return `${userId}@deleted.placeholder`;
}

/** The deletion of the account in `snapshot` at `now`; `revocations` are the Apple revocation jobs
 *  to queue with it (apple-revocation.ts plans them: none when Apple itself asked). */
export function planAccountDeletion(snapshot: AccountSnapshot, req: DeletionRequest, now: number, revocations: Job[]): DeletionPlan {
  const { user } = snapshot;
  const events = [
    newEvent('user.deleted', user.realmId, now, { userId: user.id, deletedAt: now }),
    ...snapshot.liveFamilyIds.map((sessionId) => newEvent('session.revoked', user.realmId, now, { userId: user.id, sessionId, reason: 'user_deleted' })),
  ];
  const audit = newAuditRecord({
    at: now,
    realmId: user.realmId,
    actor: req.actor,
    action: 'user.delete',
    targetId: user.id,
    changes: {
      deletedAt: { before: null, after: now },
      identities: { before: snapshot.identities.map((i) => i.provider), after: [] },
      sessionsRevoked: { before: 0, after: snapshot.liveFamilyIds.length },
      holdsReleased: { before: 0, after: snapshot.openHolds },
      subscriptionsCancelled: { before: 0, after: snapshot.activeSubscriptionIds.length },
      appleRevocations: { before: 0, after: revocations.length },
    },
    requestId: req.requestId,
  });
  return {
    userId: user.id,
    realmId: user.realmId,
    deletedAt: now,
    erasedEmail: erasedEmail(user.id),
    deletedSubjects: snapshot.identities.map((i) => deletedSubjectHash(i.provider, i.subject)),
    revokeFamilyIds: snapshot.liveFamilyIds,
    cancelSubscriptionIds: snapshot.activeSubscriptionIds,
    emitted: { events, audit: [audit], jobs: [...revocations, userPurgeJob(user.realmId, user.id, now)] },
  };
}

/** What the deletion use case is asked (the API, the CLI, Apple's `account-delete` notification). */
export interface DeleteAccountInput extends DeletionRequest {
  /** A fresh Sign in with Apple authorization code from the app, exchanged for a refresh token that
   *  is then revoked. */
  appleAuthorizationCode?: string | null;
  /** false when Apple itself asked (its `account-delete` notification): nothing to revoke there. */
  revokeAtApple: boolean;
}

/** The answer (200): `{userId, deletedAt, appleRevocation}`. */
export interface DeletedAccount {
  userId: string;
  deletedAt: number;
  appleRevocation: AppleRevocation;
}

/** The use case: 404 not_found for an unknown or already deleted user. */
export type DeleteAccount = (input: DeleteAccountInput) => Promise<DeletedAccount>;

/** The grant sources a new account counts as given already: a subject whose account was deleted
 *  in the realm has had its registration credit (once per provider subject per realm). */
export function grantsGivenAtCreation(subjectDeletedBefore: boolean): string[] {
  return subjectDeletedBefore ? ['registration'] : [];
}

/** A session asked for a deleted account (a login or code exchange that raced the deletion): refused,
 *  nothing written. */
export function accountGone(userId: string): GatehouseError {
  return notFound(`User ${userId} not found`);
}
