// The events and audit records of an account's life besides deletion and linking (CONTRACT §12,
// §13, docs/events.md), pure but for fresh ids: the stores write them with the change.
import type { Actor } from '../audit/model.ts';
import type { GatehouseEvent } from '../events/model.ts';
import type { Emitted } from '../events/plan.ts';
import { newAuditRecord, newEvent } from '../events/plan.ts';
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
