import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newJob } from '../jobs/retry.ts';
import { sha256Hex } from '../lib/ids.ts';
import { type AccountSnapshot, deletedSubjectHash, erasedEmail, grantsGivenAtCreation, planAccountDeletion } from './deletion.ts';
import { isPlaceholderEmail } from './model.ts';
import { USER_PURGE } from './purge.ts';

const T0 = Date.UTC(2026, 2, 10, 9);
const snapshot: AccountSnapshot = {
  user: {
    id: 'usr_1',
    realmId: 'r1',
    email: 'ada@example.com',
    emailVerified: true,
    givenName: 'Ada',
    familyName: 'Lovelace',
    createdAt: T0 - 1000,
    updatedAt: T0 - 1000,
    disabledAt: null,
  },
  identities: [
    {
      realmId: 'r1',
      provider: 'apple',
      subject: '001.abc',
      userId: 'usr_1',
      email: 'ada@example.com',
      emailForwarding: null,
      createdAt: T0 - 1000,
      appleRefreshToken: 'r.apple-secret',
    },
    {
      realmId: 'r1',
      provider: 'google',
      subject: '1234',
      userId: 'usr_1',
      email: 'ada@example.com',
      emailForwarding: null,
      createdAt: T0 - 500,
      appleRefreshToken: null,
    },
  ],
  liveFamilyIds: ['sid_a', 'sid_b'],
  openHolds: 1,
  activeSubscriptionIds: ['sub_1'],
};
const request = { realmId: 'r1', userId: 'usr_1', actor: { type: 'user' as const, id: 'usr_1' }, requestId: 'req_1' };

describe('account deletion plan', () => {
  it('keeps per identity only the SHA-256 of provider:subject', () => {
    const plan = planAccountDeletion(snapshot, request, T0, []);
    assert.deepEqual(plan.deletedSubjects, [sha256Hex('apple:001.abc'), sha256Hex('google:1234')]);
    assert.equal(deletedSubjectHash('apple', '001.abc'), sha256Hex('apple:001.abc'));
  });

  it('erases the email to a reserved placeholder no login matches, and revokes every live family and cancels every active subscription', () => {
    const plan = planAccountDeletion(snapshot, request, T0, []);
    assert.equal(plan.erasedEmail, erasedEmail('usr_1'));
    assert.equal(isPlaceholderEmail(plan.erasedEmail), true);
    assert.deepEqual(plan.revokeFamilyIds, ['sid_a', 'sid_b']);
    assert.deepEqual(plan.cancelSubscriptionIds, ['sub_1']);
    assert.equal(plan.deletedAt, T0);
  });

  it('emits user.deleted, one session.revoked (user_deleted) per family and the user.delete audit record, none carrying personal data or a token', () => {
    const job = newJob('apple.revoke', 'r1', { userId: 'usr_1' }, 'r.apple-secret', T0, {
      baseDelayMs: 1,
      maxDelayMs: 1,
      leaseMs: 1,
      lifetimeMs: 1,
      auditOutcome: true,
    });
    const { emitted } = planAccountDeletion(snapshot, request, T0, [job]);
    assert.deepEqual(
      emitted.events.map((e) => [e.type, e.data]),
      [
        ['user.deleted', { userId: 'usr_1', deletedAt: T0 }],
        ['session.revoked', { userId: 'usr_1', sessionId: 'sid_a', reason: 'user_deleted' }],
        ['session.revoked', { userId: 'usr_1', sessionId: 'sid_b', reason: 'user_deleted' }],
      ],
    );
    assert.ok(emitted.events.every((e) => e.id.startsWith('evt_') && e.realmId === 'r1' && e.createdAt === T0));
    const [audit] = emitted.audit;
    assert.deepEqual([audit?.action, audit?.targetId, audit?.actor, audit?.requestId], ['user.delete', 'usr_1', request.actor, 'req_1']);
    assert.deepEqual(emitted.jobs[0], job);
    assert.deepEqual(
      emitted.jobs.slice(1).map((j) => [j.kind, j.realmId, j.payload, j.secret, j.status, j.runAt]),
      [[USER_PURGE, 'r1', { userId: 'usr_1' }, null, 'pending', T0]],
      'the purge of the rows left after the commit',
    );
    const shown = JSON.stringify({ events: emitted.events, audit: emitted.audit });
    for (const secret of ['ada@example.com', 'Ada', 'Lovelace', '001.abc', 'r.apple-secret']) assert.equal(shown.includes(secret), false, secret);
  });

  it('counts the registration credit as given to a new account whose subject was deleted before in the realm', () => {
    assert.deepEqual(grantsGivenAtCreation(true), ['registration']);
    assert.deepEqual(grantsGivenAtCreation(false), []);
  });
});
