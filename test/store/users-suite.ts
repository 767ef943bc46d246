// UserStore contract: accounts and the store's part of provider login — match by (provider,
// subject), then by email, else create and link, in one transaction. Which email may link is the
// users domain's rule (planLoginMatch, tested beside it); here: that the store hands it the facts
// and applies its answer.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ProviderLogin } from '../../server/users/model.ts';
import { rejectsWith, type StoreFactory, type StoreFixture, seedRealm, seedUser, T0, unique } from './contract.ts';

const N = 12;

export function describeUserStore(backend: string, factory: StoreFactory): void {
  describe(`${backend}: UserStore`, () => {
    let s: StoreFixture;
    let realm: string;
    before(async () => {
      s = await factory();
      realm = await seedRealm(s);
    });
    after(() => s.close());

    const login = (over: Partial<ProviderLogin> = {}): ProviderLogin => ({
      realmId: realm,
      provider: 'apple',
      subject: unique('sub'),
      email: null,
      emailVerified: false,
      fullName: null,
      ...over,
    });
    const fresh = (now = T0) => ({ id: unique('usr'), now });

    describe('accounts', () => {
      it('stores an account as given and finds it by id and by email, within its realm only', async () => {
        const u = await seedUser(s, realm, { givenName: 'Ada', familyName: 'Lovelace', emailVerified: false });
        assert.deepEqual(await s.users.getUser(realm, u.id), u);
        assert.deepEqual(await s.users.findUserByEmail(realm, u.email), u);
        const other = await seedRealm(s);
        assert.equal(await s.users.getUser(other, u.id), null);
        assert.equal(await s.users.findUserByEmail(other, u.email), null);
        assert.equal(await s.users.getUser(realm, 'no-such-user'), null);
      });

      it('refuses a second account with an email taken in the realm, and allows it in another realm', async () => {
        const u = await seedUser(s, realm);
        assert.equal(await s.users.createUser({ ...u, id: unique('usr') }), false);
        const other = await seedRealm(s);
        assert.equal(await s.users.createUser({ ...u, id: unique('usr'), realmId: other }), true);
      });

      it('lists the accounts of a realm oldest first up to the limit, or the one with an email', async () => {
        const r = await seedRealm(s);
        const c = await seedUser(s, r, { createdAt: T0 + 3 });
        const a = await seedUser(s, r, { createdAt: T0 + 1 });
        const b = await seedUser(s, r, { createdAt: T0 + 2 });
        assert.deepEqual(
          (await s.users.listUsers(r, { limit: 10 })).map((u) => u.id),
          [a.id, b.id, c.id],
        );
        assert.deepEqual(
          (await s.users.listUsers(r, { limit: 2 })).map((u) => u.id),
          [a.id, b.id],
        );
        assert.deepEqual(await s.users.listUsers(r, { email: b.email, limit: 10 }), [b]);
        assert.deepEqual(await s.users.listUsers(r, { email: 'nobody@example.com', limit: 10 }), []);
      });
    });

    describe('disabling', () => {
      it('disables an account keeping the first time, enables it again, and finds no account of another realm', async () => {
        const u = await seedUser(s, realm);
        assert.equal((await s.users.setUserDisabled(realm, u.id, T0 + 10))!.disabledAt, T0 + 10);
        assert.equal((await s.users.setUserDisabled(realm, u.id, T0 + 20))!.disabledAt, T0 + 10, 'disabled already: the first time stays');
        assert.deepEqual(await s.users.getUser(realm, u.id), { ...u, disabledAt: T0 + 10 });
        assert.equal((await s.users.setUserDisabled(realm, u.id, null))!.disabledAt, null);
        assert.deepEqual(await s.users.getUser(realm, u.id), u);
        assert.equal(await s.users.setUserDisabled(await seedRealm(s), u.id, T0), null);
        assert.equal(await s.users.setUserDisabled(realm, 'no-such-user', T0), null);
      });

      it('hands a login of a disabled account its disabled state (the login path refuses it)', async () => {
        const l = login({ email: unique('off') + '@example.com', emailVerified: true });
        const first = await s.users.resolveProviderLogin(l, fresh());
        await s.users.setUserDisabled(realm, first.user.id, T0 + 1);
        assert.equal((await s.users.resolveProviderLogin(l, fresh())).user.disabledAt, T0 + 1);
      });
    });

    describe('resolveProviderLogin', () => {
      it('creates an account for an unknown subject and links the subject to it', async () => {
        const l = login({ email: 'new-one@example.com', emailVerified: true, fullName: { givenName: 'Grace', familyName: 'Hopper' } });
        const n = fresh(T0 + 5);
        const before = await s.users.totals();
        const r = await s.users.resolveProviderLogin(l, n);
        assert.deepEqual(await s.users.totals(), { users: before.users + 1, identities: before.identities + 1 });
        assert.deepEqual(r, {
          user: {
            id: n.id,
            realmId: realm,
            email: 'new-one@example.com',
            emailVerified: true,
            givenName: 'Grace',
            familyName: 'Hopper',
            createdAt: T0 + 5,
            updatedAt: T0 + 5,
            disabledAt: null,
          },
          created: true,
        });
        assert.deepEqual(await s.users.getUser(realm, n.id), r.user);
        assert.deepEqual(await s.users.identitiesOf(n.id), [
          { realmId: realm, provider: 'apple', subject: l.subject, userId: n.id, email: 'new-one@example.com', createdAt: T0 + 5 },
        ]);
      });

      it('answers the linked account for a known subject, whatever email the token carries now', async () => {
        const l = login({ email: 'first@example.com', emailVerified: true });
        const first = await s.users.resolveProviderLogin(l, fresh());
        const again = await s.users.resolveProviderLogin({ ...l, email: 'changed@example.com' }, fresh());
        assert.deepEqual(again, { user: first.user, created: false });
        assert.equal((await s.users.identitiesOf(first.user.id)).length, 1);
      });

      it('links a new subject to the account with its verified email, keeping one account', async () => {
        const u = await seedUser(s, realm, { emailVerified: true });
        const l = login({ provider: 'google', email: u.email, emailVerified: true });
        const r = await s.users.resolveProviderLogin(l, fresh());
        assert.equal(r.user.id, u.id);
        assert.equal(r.created, false);
        assert.deepEqual(
          (await s.users.identitiesOf(u.id)).map((i) => [i.provider, i.subject]),
          [['google', l.subject]],
        );
        // From now on the subject alone finds it.
        assert.equal((await s.users.resolveProviderLogin({ ...l, email: null }, fresh())).user.id, u.id);
      });

      it('does not link to an account whose email is unverified: a new placeholder account instead', async () => {
        const u = await seedUser(s, realm, { emailVerified: false });
        const l = login({ email: u.email, emailVerified: true });
        const r = await s.users.resolveProviderLogin(l, fresh());
        assert.notEqual(r.user.id, u.id);
        assert.equal(r.created, true);
        assert.equal(r.user.email, `${l.subject}@apple.placeholder`);
        assert.deepEqual(await s.users.identitiesOf(u.id), []);
      });

      it('gives a token without email a placeholder account, unverified', async () => {
        const l = login({ provider: 'google' });
        const r = await s.users.resolveProviderLogin(l, fresh());
        assert.deepEqual([r.user.email, r.user.emailVerified, r.created], [`${l.subject}@google.placeholder`, false, true]);
      });

      it('refuses, saving nothing, when the placeholder address is taken by another account', async () => {
        const l = login();
        const squatter = await seedUser(s, realm, { email: `${l.subject}@apple.placeholder`, emailVerified: false });
        const n = fresh();
        await rejectsWith(s.users.resolveProviderLogin(l, n), 'conflict');
        assert.equal(await s.users.getUser(realm, n.id), null);
        assert.deepEqual(await s.users.identitiesOf(squatter.id), []);
      });

      it('fills in a missing name, and never overwrites one', async () => {
        const l = login({ email: unique('named') + '@example.com', emailVerified: true });
        const first = await s.users.resolveProviderLogin(l, fresh());
        assert.deepEqual([first.user.givenName, first.user.familyName], [null, null]);
        assert.equal(first.user.updatedAt, T0);
        const named = await s.users.resolveProviderLogin({ ...l, fullName: { givenName: 'Ada', familyName: 'Lovelace' } }, fresh(T0 + 7));
        assert.deepEqual([named.user.givenName, named.user.familyName, named.user.updatedAt], ['Ada', 'Lovelace', T0 + 7]);
        const later = await s.users.resolveProviderLogin({ ...l, fullName: { givenName: 'Eve', familyName: 'X' } }, fresh(T0 + 9));
        assert.deepEqual([later.user.givenName, later.user.familyName, later.user.updatedAt], ['Ada', 'Lovelace', T0 + 7], 'the claims did not change');
        assert.deepEqual(await s.users.getUser(realm, first.user.id), later.user);
      });

      it(`makes one account when ${N} first logins of one subject race`, async () => {
        const l = login({ email: unique('race') + '@example.com', emailVerified: true });
        const tries = Array.from({ length: N }, () => fresh());
        const results = await Promise.all(tries.map((n) => s.users.resolveProviderLogin(l, n)));
        assert.equal(results.filter((r) => r.created).length, 1);
        assert.equal(new Set(results.map((r) => r.user.id)).size, 1);
        assert.equal((await s.users.identitiesOf(results[0]!.user.id)).length, 1);
        let stored = 0;
        for (const n of tries) if (await s.users.getUser(realm, n.id)) stored++;
        assert.equal(stored, 1);
      });

      it('keeps the same subject in two realms as two accounts', async () => {
        const other = await seedRealm(s);
        const l = login();
        const a = await s.users.resolveProviderLogin(l, fresh());
        const b = await s.users.resolveProviderLogin({ ...l, realmId: other }, fresh());
        assert.notEqual(a.user.id, b.user.id);
        assert.equal(b.created, true);
      });
    });
  });
}
