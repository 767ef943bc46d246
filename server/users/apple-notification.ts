// Apple's server-to-server notifications (docs/login.md, "Apple server notifications"): what the
// verified payload's `events` claim says, and what gatehouse does about it. Pure but for fresh
// record ids: the store reads, asks planAppleNotification, and writes the plan with its events and
// audit records in one transaction.
import type { Actor } from '../audit/model.ts';
import { type Emitted, newAuditRecord, newEvent } from '../events/plan.ts';
import { placeholderAfterUnlink, unlinkRecords } from './linking.ts';
import type { EmailForwarding, Identity, User } from './model.ts';

/** The event types Apple sends; any other is answered 200 and changes nothing. */
export type AppleEventType = 'email-disabled' | 'email-enabled' | 'consent-revoked' | 'account-delete';

export interface AppleEvent {
  /** Apple's type, as sent (unknown ones included, for the log and the event). */
  type: string;
  /** The Apple user's `sub`, the subject of the linked identity. */
  sub: string;
  /** Milliseconds since the epoch, as Apple sends it. */
  eventTime: number;
  email: string | null;
  isPrivateEmail: boolean | null;
}

/** Processed `jti`s are kept this long (docs/events.md): a replay within it changes nothing. */
export const NOTIFICATION_JTI_RETENTION_MS = 30 * 24 * 3600 * 1000;

/** The `events` claim: a JSON-encoded string as Apple sends it, or the object itself. null when it
 *  is not JSON or not of the documented shape (`type` and `sub` non-empty strings, `event_time` a
 *  whole number, `email` a string, `is_private_email` a boolean or "true"/"false"). */
export function readAppleEvents(claim: unknown): AppleEvent | null {
  let value = claim;
  if (typeof claim === 'string') {
    try {
      value = JSON.parse(claim);
    } catch {
      return null;
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const e = value as Record<string, unknown>;
  const { type, sub, event_time: eventTime, email, is_private_email: isPrivate } = e;
  if (typeof type !== 'string' || type === '' || type.length > 64) return null;
  if (typeof sub !== 'string' || sub === '' || sub.length > 255) return null;
  if (typeof eventTime !== 'number' || !Number.isSafeInteger(eventTime) || eventTime < 0) return null;
  if (email !== undefined && typeof email !== 'string') return null;
  const privateEmail =
    isPrivate === undefined ? null : isPrivate === true || isPrivate === 'true' ? true : isPrivate === false || isPrivate === 'false' ? false : undefined;
  if (privateEmail === undefined) return null;
  return { type, sub, eventTime, email: email ?? null, isPrivateEmail: privateEmail };
}

/** A verified notification as the store is asked to apply it. */
export interface AppleNotificationWrite {
  realmId: string;
  jti: string;
  event: AppleEvent;
  now: number;
  /** When the claimed jti may be swept (NOTIFICATION_JTI_RETENTION_MS after `now`). */
  expiresAt: number;
  requestId: string | null;
}

/** What the store read for a notification, in its transaction. */
export interface NotificationSubject {
  /** The Apple identity with the event's `sub`, or null. */
  identity: Identity | null;
  /** Its account. */
  user: User | null;
  /** That account's identities. */
  identities: Identity[];
  /** That account's live token families opened by an Apple sign-in. */
  appleFamilyIds: string[];
}

export type NotificationEffect =
  /** Nothing to do: an unknown type or `sub`, or the state is already what the event says. */
  | { kind: 'none'; reason: 'unknown_type' | 'unknown_subject' | 'unchanged' }
  | { kind: 'email_forwarding'; identity: Identity; forwarding: EmailForwarding }
  /** Revoke the live token families the user opened through an Apple sign-in (native or web). */
  | { kind: 'revoke_apple_sessions'; userId: string; familyIds: string[] }
  /** Remove the Apple identity; the account keeps its other identities (`email`: its new
   *  placeholder, linking.ts placeholderAfterUnlink). */
  | { kind: 'unlink'; identity: Identity; email: string | null }
  /** The Apple identity was the account's only one: the account is deleted (the deletion use case). */
  | { kind: 'delete_account'; userId: string };

export type NotificationPlan = NotificationEffect & { emitted: Emitted };

/** Who changed things: Apple, named by the notification's jti (which the audit log can be searched by). */
export const appleActor = (jti: string): Actor => ({ type: 'apple', id: jti });

/** What `n` does to the account its `sub` names. A `delete_account` plan emits nothing here: the
 *  deletion use case writes its own records. */
export function planAppleNotification(n: AppleNotificationWrite, read: NotificationSubject): NotificationPlan {
  const effect = effectOf(n.event, read);
  return { ...effect, emitted: effect.kind === 'delete_account' ? { events: [], audit: [], jobs: [] } : recordsOf(n, read, effect) };
}

function effectOf(event: AppleEvent, { identity, user, identities, appleFamilyIds }: NotificationSubject): NotificationEffect {
  if (!isKnownType(event.type)) return { kind: 'none', reason: 'unknown_type' };
  if (!identity || !user) return { kind: 'none', reason: 'unknown_subject' };
  switch (event.type) {
    case 'email-disabled':
    case 'email-enabled': {
      const forwarding: EmailForwarding = event.type === 'email-disabled' ? 'disabled' : 'enabled';
      if (identity.emailForwarding === forwarding) return { kind: 'none', reason: 'unchanged' };
      return { kind: 'email_forwarding', identity, forwarding };
    }
    case 'consent-revoked':
      // The identity stays linked: the user may sign in with Apple again, which asks for consent.
      return { kind: 'revoke_apple_sessions', userId: identity.userId, familyIds: appleFamilyIds };
    case 'account-delete':
      if (identities.some((i) => !(i.provider === identity.provider && i.subject === identity.subject))) {
        return { kind: 'unlink', identity, email: placeholderAfterUnlink(user, identity, identities) };
      }
      return { kind: 'delete_account', userId: identity.userId };
  }
}

/** The `apple.notification` event (every processed notification) and the effect's own records. */
function recordsOf(n: AppleNotificationWrite, read: NotificationSubject, effect: NotificationEffect): Emitted {
  const userId = read.user?.id ?? null;
  const events = [newEvent('apple.notification', n.realmId, n.now, { type: n.event.type, eventTime: n.event.eventTime, userId })];
  const audit = [];
  const actor = appleActor(n.jti);
  const record = (action: string, targetId: string, changes: Record<string, { before: unknown; after: unknown }>) =>
    newAuditRecord({ at: n.now, realmId: n.realmId, actor, action, targetId, changes, requestId: n.requestId });
  switch (effect.kind) {
    case 'email_forwarding': {
      const id = effect.identity;
      events.push(
        newEvent('user.email_forwarding_changed', n.realmId, n.now, { userId: id.userId, provider: id.provider, emailForwarding: effect.forwarding }),
      );
      audit.push(record('user.email_forwarding', id.userId, { emailForwarding: { before: id.emailForwarding, after: effect.forwarding } }));
      break;
    }
    case 'revoke_apple_sessions':
      for (const sessionId of effect.familyIds) {
        events.push(newEvent('session.revoked', n.realmId, n.now, { userId: effect.userId, sessionId, reason: 'apple_consent_revoked' }));
      }
      audit.push(record('user.sessions_revoke', effect.userId, { sessionsRevoked: { before: 0, after: effect.familyIds.length } }));
      break;
    case 'unlink': {
      const unlinked = unlinkRecords(effect.identity, read.identities, actor, n.requestId, n.now);
      events.push(...unlinked.events);
      audit.push(...unlinked.audit);
      break;
    }
  }
  return { events, audit, jobs: [] };
}

function isKnownType(type: string): type is AppleEventType {
  return type === 'email-disabled' || type === 'email-enabled' || type === 'consent-revoked' || type === 'account-delete';
}
