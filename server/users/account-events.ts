// The events and audit records of an account's life besides deletion and linking (docs/events.md),
// pure but for fresh ids: the stores write them with the change.
import type { Actor } from '../audit/model.ts';
import type { GatehouseEvent } from '../events/model.ts';
import { type Emitted, NOTHING_EMITTED, newAuditRecord, newEvent } from '../events/plan.ts';
import type { User } from './model.ts';

/** `user.created`: `provider` is the sign-in that made the account, null for an operator's. */
export function userCreatedEvent(user: User, provider: string | null): GatehouseEvent {
  return newEvent('user.created', user.realmId, user.createdAt, { userId: user.id, provider });
}

/** An operator's CreateUser: the event and the audit record (the email is the account's own
 *  field, not a secret; the names stay out of the log). */
export function adminUserCreated(user: User, by: { actor: Actor; requestId: string | null }): Emitted {
  return {
    events: [userCreatedEvent(user, null)],
    audit: [
      newAuditRecord({
        at: user.createdAt,
        realmId: user.realmId,
        actor: by.actor,
        action: 'user.create',
        targetId: user.id,
        changes: { email: { before: null, after: user.email }, emailVerified: { before: null, after: user.emailVerified } },
        requestId: by.requestId,
      }),
    ],
    jobs: [],
  };
}

type ChangeBy = { actor: Actor; requestId: string | null };

/** An operator's disable or enable that changed the account: its audit record. An account
 *  disabled already (or enabled) records nothing: nothing changed. */
export function userDisabledChanged(before: User, after: User, by: ChangeBy, now: number): Emitted {
  if (before.disabledAt === after.disabledAt) return NOTHING_EMITTED;
  return {
    events: [],
    audit: [
      newAuditRecord({
        at: now,
        realmId: after.realmId,
        actor: by.actor,
        action: after.disabledAt === null ? 'user.enable' : 'user.disable',
        targetId: after.id,
        changes: { disabledAt: { before: before.disabledAt, after: after.disabledAt } },
        requestId: by.requestId,
      }),
    ],
    jobs: [],
  };
}

/** An operator ended the account's sessions (a disable, or sign-out everywhere): `session.revoked`
 *  (`admin`) per session revoked, and for a sign-out its audit record with how many. */
export function sessionsEndedByOperator(s: { realmId: string; userId: string; sessionIds: string[]; signOut: boolean }, by: ChangeBy, now: number): Emitted {
  const events = s.sessionIds.map((sessionId) => newEvent('session.revoked', s.realmId, now, { userId: s.userId, sessionId, reason: 'admin' }));
  const audit = s.signOut
    ? [
        newAuditRecord({
          at: now,
          realmId: s.realmId,
          actor: by.actor,
          action: 'user.sign_out',
          targetId: s.userId,
          changes: { liveSessions: { before: s.sessionIds.length, after: 0 } },
          requestId: by.requestId,
        }),
      ]
    : [];
  return { events, audit, jobs: [] };
}
