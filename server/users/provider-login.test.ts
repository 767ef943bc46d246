import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ProviderLogin, User } from './model.ts';
import { type LoginPlan, mayAnswerByRead, planProviderLogin, writesNothing } from './provider-login.ts';

describe('what a provider login writes', () => {
  const now = 1_000_000;
  const newUser = { newId: () => 'usr_new', now };
  const login: ProviderLogin = { realmId: 'r', provider: 'apple', subject: 'sub1', email: 'a@b.c', emailVerified: true, fullName: null };
  const named = { ...login, fullName: { givenName: 'Ada', familyName: '' } };
  const owner: User = {
    id: 'usr_1',
    realmId: 'r',
    email: 'a@b.c',
    emailVerified: true,
    givenName: null,
    familyName: null,
    createdAt: 0,
    updatedAt: 0,
    disabledAt: null,
  };
  const link = (userId: string) => ({ realmId: 'r', provider: 'apple', subject: 'sub1', userId, email: 'a@b.c', emailForwarding: null, createdAt: now });
  const created = (over: Partial<User>): User => ({
    id: 'usr_new',
    realmId: 'r',
    email: 'a@b.c',
    emailVerified: true,
    givenName: null,
    familyName: null,
    createdAt: now,
    updatedAt: now,
    disabledAt: null,
    ...over,
  });

  // An event's id is fresh: compared without it.
  const userCreated = { type: 'user.created', realmId: 'r', createdAt: now, data: { userId: 'usr_new', provider: 'apple' } };
  const withoutIds = (plan: LoginPlan) => ({ ...plan, events: plan.events.map(({ id: _id, ...rest }) => rest) });

  const table: Array<[string, ProviderLogin, User | null, User | null, Omit<LoginPlan, 'events'> & { events: unknown[] }]> = [
    ['a returning user without a name to store writes nothing', login, owner, null, { user: owner, create: false, setName: false, link: null, events: [] }],
    [
      'a returning user without a name stores the one the login brings',
      named,
      owner,
      null,
      { user: { ...owner, givenName: 'Ada', familyName: null, updatedAt: now }, create: false, setName: true, link: null, events: [] },
    ],
    [
      'a name once stored is never overwritten',
      named,
      { ...owner, familyName: 'King' },
      null,
      { user: { ...owner, familyName: 'King' }, create: false, setName: false, link: null, events: [] },
    ],
    ['a verified account holding the email is linked', login, null, owner, { user: owner, create: false, setName: false, link: link('usr_1'), events: [] }],
    [
      'a linked account gets the name too',
      named,
      null,
      owner,
      { user: { ...owner, givenName: 'Ada', updatedAt: now }, create: false, setName: true, link: link('usr_1'), events: [] },
    ],
    [
      'a new email creates the account, named, and links it',
      named,
      null,
      null,
      { user: created({ givenName: 'Ada' }), create: true, setName: false, link: link('usr_new'), events: [userCreated] },
    ],
    [
      'an unverified account holding the email is not linked: a placeholder account is created',
      login,
      null,
      { ...owner, emailVerified: false },
      { user: created({ email: 'sub1@apple.placeholder', emailVerified: false }), create: true, setName: false, link: link('usr_new'), events: [userCreated] },
    ],
  ];
  for (const [name, l, byIdentity, byEmail, want] of table) {
    it(name, () => assert.deepEqual(withoutIds(planProviderLogin(l, byIdentity, byEmail, newUser)), want));
  }

  it('writes nothing only for a returning user with nothing to store', () => {
    assert.equal(writesNothing(planProviderLogin(login, owner, null, newUser)), true);
    assert.equal(writesNothing(planProviderLogin(named, owner, null, newUser)), false);
    assert.equal(writesNothing(planProviderLogin(login, null, owner, newUser)), false);
    assert.equal(writesNothing(planProviderLogin(login, null, null, newUser)), false);
  });

  it('answers by a read only a login that brings no name', () => {
    assert.equal(mayAnswerByRead(login), true);
    assert.equal(mayAnswerByRead({ ...login, fullName: { givenName: '', familyName: '' } }), true);
    assert.equal(mayAnswerByRead(named), false);
  });
});
