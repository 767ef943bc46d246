import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminUserCreated, sessionsEndedByOperator, userDisabledChanged } from './account-events.ts';
import type { User } from './model.ts';

describe('the events and audit records of an account', () => {
  const by = { actor: { type: 'api_key' as const, id: 'key_1' }, requestId: 'req_1' };
  const user: User = {
    id: 'usr_1',
    realmId: 'r',
    email: 'a@b.c',
    emailVerified: true,
    givenName: 'Ada',
    familyName: null,
    createdAt: 5,
    updatedAt: 5,
    disabledAt: null,
  };

  it("an operator's CreateUser: user.created without a provider, and user.create without the names", () => {
    const e = adminUserCreated(user, by);
    assert.deepEqual(
      e.events.map((x) => [x.type, x.createdAt, x.data]),
      [['user.created', 5, { userId: 'usr_1', provider: null }]],
    );
    assert.deepEqual(e.audit[0]!.changes, { email: { before: null, after: 'a@b.c' }, emailVerified: { before: null, after: true } });
    assert.ok(!JSON.stringify(e).includes('Ada'));
  });

  it('a disable or enable records its action; one that changed nothing records nothing', () => {
    const disabled = { ...user, disabledAt: 9 };
    assert.deepEqual(
      userDisabledChanged(user, disabled, by, 9).audit.map((a) => [a.action, a.changes]),
      [['user.disable', { disabledAt: { before: null, after: 9 } }]],
    );
    assert.deepEqual(
      userDisabledChanged(disabled, user, by, 10).audit.map((a) => a.action),
      ['user.enable'],
    );
    assert.deepEqual(userDisabledChanged(disabled, disabled, by, 10), { events: [], audit: [], jobs: [] });
  });

  it("an operator's ending of sessions: session.revoked (admin) for each, and the sign-out's record even with none live", () => {
    const ended = sessionsEndedByOperator({ realmId: 'r', userId: 'usr_1', sessionIds: ['sid_a', 'sid_b'], signOut: false }, by, 7);
    assert.deepEqual(
      ended.events.map((e) => e.data),
      [
        { userId: 'usr_1', sessionId: 'sid_a', reason: 'admin' },
        { userId: 'usr_1', sessionId: 'sid_b', reason: 'admin' },
      ],
    );
    assert.deepEqual(ended.audit, []);
    const signOut = sessionsEndedByOperator({ realmId: 'r', userId: 'usr_1', sessionIds: [], signOut: true }, by, 7);
    assert.deepEqual(signOut.events, []);
    assert.deepEqual(
      signOut.audit.map((a) => [a.action, a.changes, a.requestId]),
      [['user.sign_out', { liveSessions: { before: 0, after: 0 } }, 'req_1']],
    );
  });
});
