import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type LinkPlan, type LinkRequest, planLink, planUnlink, type UnlinkRequest } from './linking.ts';
import type { Identity, User } from './model.ts';

describe('linking a provider identity to an account', () => {
  const now = 5_000;
  const req: LinkRequest = {
    realmId: 'r',
    userId: 'usr_1',
    provider: 'google',
    subject: 'g1',
    email: 'ada@example.com',
    emailVerified: true,
    now,
    requestId: 'req-1',
  };
  const user = (over: Partial<User> = {}): User => ({
    id: 'usr_1',
    realmId: 'r',
    email: 'a1@apple.placeholder',
    emailVerified: false,
    givenName: null,
    familyName: null,
    createdAt: 0,
    updatedAt: 0,
    disabledAt: null,
    ...over,
  });
  const identity = (provider: string, subject: string, userId = 'usr_1'): Identity => ({
    realmId: 'r',
    provider,
    subject,
    userId,
    email: null,
    emailForwarding: null,
    createdAt: 1,
  });
  const linked = (email: string | null) => ({
    kind: 'link',
    identity: { realmId: 'r', provider: 'google', subject: 'g1', userId: 'usr_1', email: 'ada@example.com', emailForwarding: null, createdAt: now },
    email,
  });
  const withoutRecords = (plan: LinkPlan) => (plan.kind === 'link' ? { kind: plan.kind, identity: plan.identity, email: plan.email } : plan);
  const apple = identity('apple', 'a1');

  const table: Array<[string, LinkRequest, User | null, Identity | null, Identity[], User | null, unknown]> = [
    ['a placeholder email becomes the verified one the token brings', req, user(), null, [apple], null, linked('ada@example.com')],
    ['a verified email is never replaced', req, user({ email: 'old@example.com', emailVerified: true }), null, [apple], null, linked(null)],
    ['an unverified real email is not replaced either (only placeholders are)', req, user({ email: 'x@example.com' }), null, [apple], null, linked(null)],
    ['an email the provider does not state verified is not taken', { ...req, emailVerified: false }, user(), null, [apple], null, linked(null)],
    [
      'an email another account holds is not taken (the link still is)',
      req,
      user(),
      null,
      [apple],
      user({ id: 'usr_2', email: 'ada@example.com' }),
      linked(null),
    ],
    [
      'the same subject linked to this account already is unchanged',
      req,
      user(),
      identity('google', 'g1'),
      [apple, identity('google', 'g1')],
      null,
      { kind: 'unchanged', identity: identity('google', 'g1') },
    ],
    ['a subject linked to another account is in use', req, user(), identity('google', 'g1', 'usr_2'), [apple], null, { kind: 'identity_in_use' }],
    ['another subject of a provider the account has is refused', req, user(), null, [apple, identity('google', 'g0')], null, { kind: 'provider_linked' }],
    ['no account, no link', req, null, null, [], null, { kind: 'no_user' }],
  ];
  for (const [name, r, u, owner, identities, holder, want] of table) {
    it(name, () => assert.deepEqual(withoutRecords(planLink(r, u, owner, identities, holder)), want));
  }

  it('records the link as user.identity_linked and an audit record by the user', () => {
    const plan = planLink(req, user(), null, [apple], null);
    assert.equal(plan.kind, 'link');
    if (plan.kind !== 'link') return;
    assert.deepEqual(
      plan.emitted.events.map((e) => [e.type, e.realmId, e.createdAt, e.data]),
      [['user.identity_linked', 'r', now, { userId: 'usr_1', provider: 'google' }]],
    );
    assert.deepEqual(
      plan.emitted.audit.map((a) => [a.actor, a.action, a.targetId, a.changes, a.requestId]),
      [
        [
          { type: 'user', id: 'usr_1' },
          'user.identity_link',
          'usr_1',
          { identities: { before: ['apple'], after: ['apple', 'google'] }, emailVerified: { before: false, after: true } },
          'req-1',
        ],
      ],
    );
  });
});

describe('unlinking a provider identity', () => {
  const id = (provider: string): Identity => ({
    realmId: 'r',
    provider,
    subject: `${provider}-1`,
    userId: 'u',
    email: null,
    emailForwarding: null,
    createdAt: 0,
  });
  const owner: User = {
    id: 'u',
    realmId: 'r',
    email: 'u@example.com',
    emailVerified: true,
    givenName: null,
    familyName: null,
    createdAt: 0,
    updatedAt: 0,
    disabledAt: null,
  };
  const by = (provider: string): UnlinkRequest => ({
    realmId: 'r',
    userId: 'u',
    provider,
    actor: { type: 'api_key', id: 'key_1' },
    requestId: 'req-2',
    now: 9,
  });
  it('removes the provider identity when another is left, recorded as an event and an audit record', () => {
    const plan = planUnlink(owner, [id('apple'), id('google')], by('google'));
    assert.equal(plan.kind === 'unlink' && plan.identity.provider, 'google');
    if (plan.kind !== 'unlink') return;
    assert.deepEqual(
      plan.emitted.events.map((e) => [e.type, e.data]),
      [['user.identity_unlinked', { userId: 'u', provider: 'google' }]],
    );
    assert.deepEqual(
      plan.emitted.audit.map((a) => [a.actor, a.action, a.targetId, a.changes, a.requestId]),
      [[{ type: 'api_key', id: 'key_1' }, 'user.identity_unlink', 'u', { identities: { before: ['apple', 'google'], after: ['apple'] } }, 'req-2']],
    );
  });
  it("moves the account's placeholder email to an identity it keeps", () => {
    const plan = planUnlink({ ...owner, email: 'apple-1@apple.placeholder', emailVerified: false }, [id('apple'), id('google')], by('apple'));
    assert.equal(plan.kind === 'unlink' && plan.email, 'google-1@google.placeholder');
  });
  it('keeps a real email when unlinking', () => {
    const plan = planUnlink(owner, [id('apple'), id('google')], by('apple'));
    assert.equal(plan.kind === 'unlink' && plan.email, null);
  });
  it('refuses the last identity', () => assert.deepEqual(planUnlink(owner, [id('apple')], by('apple')), { kind: 'last_identity' }));
  it('finds nothing to unlink for a provider the account lacks', () =>
    assert.deepEqual(planUnlink(owner, [id('apple')], by('google')), { kind: 'not_linked' }));
});
