import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type AppleEvent,
  type AppleNotificationWrite,
  type NotificationEffect,
  type NotificationPlan,
  type NotificationSubject,
  planAppleNotification,
  readAppleEvents,
} from './apple-notification.ts';
import type { Identity, User } from './model.ts';

describe("reading Apple's events claim", () => {
  const good = { type: 'email-disabled', sub: '001.abc', event_time: 1_700_000_000_000, email: 'x@privaterelay.appleid.com', is_private_email: 'true' };
  const read: AppleEvent = { type: 'email-disabled', sub: '001.abc', eventTime: 1_700_000_000_000, email: 'x@privaterelay.appleid.com', isPrivateEmail: true };
  const table: Array<[string, unknown, AppleEvent | null]> = [
    ['a JSON-encoded string, as Apple sends it', JSON.stringify(good), read],
    ['the object itself', good, read],
    [
      'without the optional fields',
      { type: 'consent-revoked', sub: 's', event_time: 1 },
      { type: 'consent-revoked', sub: 's', eventTime: 1, email: null, isPrivateEmail: null },
    ],
    ['is_private_email as a boolean', { ...good, is_private_email: false }, { ...read, isPrivateEmail: false }],
    ['an unknown type is read (and then ignored)', { ...good, type: 'something-new' }, { ...read, type: 'something-new' }],
    ['a string that is not JSON', '{"type":', null],
    ['JSON that is not an object', '[1,2]', null],
    ['null', 'null', null],
    ['a number claim', 42, null],
    ['no type', { sub: 's', event_time: 1 }, null],
    ['an empty sub', { ...good, sub: '' }, null],
    ['a sub that is a number', { ...good, sub: 7 }, null],
    ['event_time as a string', { ...good, event_time: '1700000000000' }, null],
    ['a fractional event_time', { ...good, event_time: 1.5 }, null],
    ['an email that is not a string', { ...good, email: ['a@b.c'] }, null],
    ['is_private_email of another kind', { ...good, is_private_email: 'yes' }, null],
  ];
  for (const [name, claim, want] of table) it(name, () => assert.deepEqual(readAppleEvents(claim), want));
});

describe('what an Apple notification does', () => {
  const write = (type: string): AppleNotificationWrite => ({
    realmId: 'r',
    jti: 'jti-1',
    event: { type, sub: 'a1', eventTime: 7, email: null, isPrivateEmail: null },
    now: 1_000,
    expiresAt: 2_000,
    requestId: 'req-1',
  });
  const apple: Identity = { realmId: 'r', provider: 'apple', subject: 'a1', userId: 'u', email: null, emailForwarding: null, createdAt: 0 };
  const google: Identity = { ...apple, provider: 'google', subject: 'g1' };
  const user: User = {
    id: 'u',
    realmId: 'r',
    email: 'a1@apple.placeholder',
    emailVerified: false,
    givenName: null,
    familyName: null,
    createdAt: 0,
    updatedAt: 0,
    disabledAt: null,
  };
  const read = (identity: Identity | null, identities: Identity[], appleFamilyIds: string[] = []): NotificationSubject => ({
    identity,
    user: identity ? user : null,
    identities,
    appleFamilyIds,
  });
  const effect = ({ emitted: _, ...rest }: NotificationPlan) => rest;
  const table: Array<[string, string, NotificationSubject, NotificationEffect]> = [
    ['email-disabled turns forwarding off', 'email-disabled', read(apple, [apple]), { kind: 'email_forwarding', identity: apple, forwarding: 'disabled' }],
    ['email-enabled turns it on', 'email-enabled', read(apple, [apple]), { kind: 'email_forwarding', identity: apple, forwarding: 'enabled' }],
    [
      'email-disabled when already disabled changes nothing',
      'email-disabled',
      read({ ...apple, emailForwarding: 'disabled' }, [apple]),
      { kind: 'none', reason: 'unchanged' },
    ],
    [
      "consent-revoked revokes the account's live Apple-opened families",
      'consent-revoked',
      read(apple, [apple, google], ['sid_1', 'sid_2']),
      { kind: 'revoke_apple_sessions', userId: 'u', familyIds: ['sid_1', 'sid_2'] },
    ],
    [
      'account-delete unlinks Apple when another identity is left',
      'account-delete',
      read(apple, [apple, google]),
      { kind: 'unlink', identity: apple, email: 'g1@google.placeholder' },
    ],
    ['account-delete of the only identity deletes the account', 'account-delete', read(apple, [apple]), { kind: 'delete_account', userId: 'u' }],
    ['an unknown subject does nothing', 'consent-revoked', read(null, []), { kind: 'none', reason: 'unknown_subject' }],
    ['an unknown type does nothing', 'something-new', read(apple, [apple]), { kind: 'none', reason: 'unknown_type' }],
  ];
  for (const [name, type, r, want] of table) it(name, () => assert.deepEqual(effect(planAppleNotification(write(type), r)), want));

  const recorded = (plan: NotificationPlan) => ({
    events: plan.emitted.events.map((e) => [e.type, e.data]),
    audit: plan.emitted.audit.map((a) => [a.actor, a.action, a.targetId, a.changes, a.requestId]),
  });
  const byApple = { type: 'apple', id: 'jti-1' };

  it('records every processed notification as apple.notification, with no email or subject', () => {
    assert.deepEqual(recorded(planAppleNotification(write('something-new'), read(null, []))), {
      events: [['apple.notification', { type: 'something-new', eventTime: 7, userId: null }]],
      audit: [],
    });
  });

  it('records a forwarding change as an event and an audit record by Apple', () => {
    assert.deepEqual(recorded(planAppleNotification(write('email-disabled'), read(apple, [apple]))), {
      events: [
        ['apple.notification', { type: 'email-disabled', eventTime: 7, userId: 'u' }],
        ['user.email_forwarding_changed', { userId: 'u', provider: 'apple', emailForwarding: 'disabled' }],
      ],
      audit: [[byApple, 'user.email_forwarding', 'u', { emailForwarding: { before: null, after: 'disabled' } }, 'req-1']],
    });
  });

  it('records one session.revoked per family on consent-revoked', () => {
    const plan = planAppleNotification(write('consent-revoked'), read(apple, [apple], ['sid_1', 'sid_2']));
    assert.deepEqual(recorded(plan).events.slice(1), [
      ['session.revoked', { userId: 'u', sessionId: 'sid_1', reason: 'apple_consent_revoked' }],
      ['session.revoked', { userId: 'u', sessionId: 'sid_2', reason: 'apple_consent_revoked' }],
    ]);
    assert.deepEqual(recorded(plan).audit, [[byApple, 'user.sessions_revoke', 'u', { sessionsRevoked: { before: 0, after: 2 } }, 'req-1']]);
  });

  it('records the unlink of account-delete; the deletion records its own', () => {
    assert.deepEqual(recorded(planAppleNotification(write('account-delete'), read(apple, [apple, google]))).audit, [
      [byApple, 'user.identity_unlink', 'u', { identities: { before: ['apple', 'google'], after: ['google'] } }, 'req-1'],
    ]);
    assert.deepEqual(planAppleNotification(write('account-delete'), read(apple, [apple])).emitted, { events: [], audit: [], jobs: [] });
  });
});
