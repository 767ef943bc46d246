// UserStore contract: accounts and the store's part of provider login — match by (provider,
// subject), then by email, else create and link, in one transaction. Which email may link is the
// users domain's rule (planLoginMatch, tested beside it); here: that the store hands it the facts
// and applies its answer.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TokenFamily } from '../../server/auth/store.ts';
import type { AppleEvent } from '../../server/users/apple-notification.ts';
import type { AccountSnapshot } from '../../server/users/deletion.ts';
import type { LinkRequest } from '../../server/users/linking.ts';
import type { ProviderLogin } from '../../server/users/model.ts';
import { subscribeToEveryEvent } from '../helpers/stores.ts';
import { DAY, rejectsWith, type StoreFactory, type StoreFixture, seedRealm, seedUser, T0, unique } from './contract.ts';

const N = 12;

export function describeUserStore(backend: string, factory: StoreFactory): void {
  describe(`${backend}: UserStore`, () => {
    let s: StoreFixture;
    let realm: string;
    before(async () => {
      s = await factory();
      realm = await seedRealm(s);
      await subscribeToEveryEvent(s, realm, T0);
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
    const fresh = (now = T0) => {
      const id = unique('usr');
      return { id, newId: () => id, now };
    };

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

      it('gives every account a stable UUID of its own for StoreKit (appAccountToken)', async () => {
        const a = await seedUser(s, realm);
        const b = await seedUser(s, realm);
        const token = await s.users.appAccountTokenOf(a.id);
        assert.match(token ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        assert.equal(await s.users.appAccountTokenOf(a.id), token);
        assert.notEqual(await s.users.appAccountTokenOf(b.id), token);
        assert.equal(await s.users.appAccountTokenOf('no-such-user'), null);
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
          { realmId: realm, provider: 'apple', subject: l.subject, userId: n.id, email: 'new-one@example.com', emailForwarding: null, createdAt: T0 + 5 },
        ]);
      });

      it('answers the linked account for a known subject, whatever email the token carries now', async () => {
        const l = login({ email: 'first@example.com', emailVerified: true });
        const first = await s.users.resolveProviderLogin(l, fresh());
        const again = await s.users.resolveProviderLogin({ ...l, email: 'changed@example.com' }, fresh());
        assert.deepEqual(again, { user: first.user, created: false });
        assert.equal((await s.users.identitiesOf(first.user.id)).length, 1);
      });

      it('draws no new account id for a returning user, with or without a name to store', async () => {
        const l = login();
        const first = await s.users.resolveProviderLogin(l, fresh());
        const noId = { newId: (): string => assert.fail('a returning user drew a new account id'), now: T0 + 3 };
        assert.deepEqual(await s.users.resolveProviderLogin(l, noId), { user: first.user, created: false });
        const named = await s.users.resolveProviderLogin({ ...l, fullName: { givenName: 'Ada', familyName: '' } }, noId);
        assert.equal(named.user.givenName, 'Ada');
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

    describe('the Apple refresh token of the web flow', () => {
      /** The Apple refresh tokens an account's deletion reads, by subject (deletion ends here: the
       *  plan asked for is refused, so nothing is written). */
      const keptTokens = async (userId: string) => {
        let seen: AccountSnapshot | null = null;
        await s.users
          .deleteAccount(realm, userId, (snap) => {
            seen = snap;
            throw new Error('only read');
          })
          .catch(() => {});
        return (seen as AccountSnapshot | null)?.identities.map((i) => [i.subject, i.appleRefreshToken]);
      };

      it('keeps the token on the Apple identity of its subject, for the account’s deletion to revoke, the latest one replacing the last', async () => {
        const first = login();
        const { user } = await s.users.resolveProviderLogin(first, fresh());
        const second = login();
        const other = await s.users.resolveProviderLogin(second, fresh());
        assert.deepEqual(await keptTokens(user.id), [[first.subject, null]]);
        await s.users.keepAppleRefreshToken(realm, first.subject, 'r.apple-1');
        assert.deepEqual(await keptTokens(user.id), [[first.subject, 'r.apple-1']]);
        await s.users.keepAppleRefreshToken(realm, first.subject, 'r.apple-2');
        assert.deepEqual(await keptTokens(user.id), [[first.subject, 'r.apple-2']]);
        assert.deepEqual(await keptTokens(other.user.id), [[second.subject, null]], 'the other account’s identity keeps none');
        // Another realm's identity of the same subject is not this one.
        await s.users.keepAppleRefreshToken(await seedRealm(s), first.subject, 'r.elsewhere');
        assert.deepEqual(await keptTokens(user.id), [[first.subject, 'r.apple-2']]);
        assert.notEqual(await s.users.getUser(realm, user.id), null, 'the refused deletion wrote nothing');
      });
    });

    describe('linking, unlinking and Apple notifications', () => {
      const linkOf = async (userId: string, over: Partial<LinkRequest> = {}) =>
        s.users.linkIdentity({
          realmId: realm,
          userId,
          provider: 'google',
          subject: unique('g'),
          email: null,
          emailVerified: false,
          now: T0 + 9,
          requestId: null,
          ...over,
        });
      const unlinkBy = (userId: string, provider: string) => ({
        realmId: realm,
        userId,
        provider,
        actor: { type: 'api_key' as const, id: 'key_suite' },
        requestId: 'req-suite',
        now: T0 + 10,
      });
      /** The outbox events and audit records about `userId`, oldest first (by time, then by name:
       *  the records of one transaction share their time). */
      const recordsOf = async (userId: string) => ({
        events: (await s.records.events(realm, { limit: 1000 }))
          .filter((e) => e.data.userId === userId)
          .sort((x, y) => x.createdAt - y.createdAt || x.type.localeCompare(y.type))
          .map((e) => [e.type, e.data]),
        audit: (await s.records.audit(realm, { targetId: userId, limit: 1000 }))
          .sort((x, y) => x.at - y.at || x.action.localeCompare(y.action))
          .map((a) => [a.actor.type, a.action]),
      });
      const appleAccount = async () => (await s.users.resolveProviderLogin(login(), fresh())).user;
      const event = (type: string, sub: string): AppleEvent => ({ type, sub, eventTime: 0, email: null, isPrivateEmail: null });
      const notify = (type: string, sub: string, jti = unique('jti'), now = T0 + 20) =>
        s.users.applyAppleNotification({ realmId: realm, jti, event: event(type, sub), now, expiresAt: now + DAY, requestId: null });

      it('links an identity, replaces a placeholder email with its verified one, and is unchanged the second time', async () => {
        const u = await s.users.resolveProviderLogin(login({ email: null }), fresh());
        const email = `${unique('linked')}@example.com`;
        const plan = await linkOf(u.user.id, { subject: 'g-link-1', email, emailVerified: true });
        assert.equal(plan.kind, 'link');
        const stored = await s.users.getUser(realm, u.user.id);
        assert.deepEqual([stored!.email, stored!.emailVerified], [email, true]);
        assert.deepEqual(
          (await s.users.identitiesOf(u.user.id)).map((i) => [i.provider, i.subject, i.createdAt]),
          [
            ['apple', u.user.email.split('@')[0], T0],
            ['google', 'g-link-1', T0 + 9],
          ],
        );
        const totals = await s.users.totals();
        assert.equal((await linkOf(u.user.id, { subject: 'g-link-1', email, emailVerified: true })).kind, 'unchanged');
        assert.deepEqual(await s.users.totals(), totals);
      });

      it("refuses another account's subject and writes nothing", async () => {
        const a = await appleAccount();
        const b = await appleAccount();
        assert.equal((await linkOf(a.id, { subject: 'g-taken' })).kind, 'link');
        const totals = await s.users.totals();
        assert.deepEqual(await linkOf(b.id, { subject: 'g-taken' }), { kind: 'identity_in_use' });
        assert.deepEqual(await s.users.totals(), totals);
        assert.equal((await s.users.identitiesOf(b.id)).length, 1);
        assert.deepEqual(
          await recordsOf(b.id),
          { events: [['user.created', { userId: b.id, provider: 'apple' }]], audit: [] },
          'a refusal records nothing (the account was created by its login)',
        );
        assert.deepEqual(await recordsOf(a.id), {
          events: [
            ['user.created', { userId: a.id, provider: 'apple' }],
            ['user.identity_linked', { userId: a.id, provider: 'google' }],
          ],
          audit: [['user', 'user.identity_link']],
        });
      });

      it('unlinks a provider while another identity is left, never the last', async () => {
        const a = await appleAccount();
        await linkOf(a.id);
        assert.equal((await s.users.unlinkIdentity(unlinkBy(a.id, 'google'))).kind, 'unlink');
        assert.deepEqual(await s.users.unlinkIdentity(unlinkBy(a.id, 'google')), { kind: 'not_linked' });
        assert.deepEqual(await s.users.unlinkIdentity(unlinkBy(a.id, 'apple')), { kind: 'last_identity' });
        assert.deepEqual((await recordsOf(a.id)).events.at(-1), ['user.identity_unlinked', { userId: a.id, provider: 'google' }]);
        assert.deepEqual((await recordsOf(a.id)).audit, [
          ['user', 'user.identity_link'],
          ['api_key', 'user.identity_unlink'],
        ]);
        assert.deepEqual(
          (await s.users.identitiesOf(a.id)).map((i) => i.provider),
          ['apple'],
        );
      });

      it('sets the email forwarding once per jti, and a replayed jti changes nothing', async () => {
        const a = await appleAccount();
        const sub = (await s.users.identitiesOf(a.id))[0]!.subject;
        const r = await notify('email-disabled', sub, 'jti-forwarding');
        assert.equal(r.kind === 'applied' && r.plan.kind, 'email_forwarding');
        assert.equal((await s.users.identitiesOf(a.id))[0]!.emailForwarding, 'disabled');
        await notify('email-enabled', sub, unique('jti'), T0 + 21);
        assert.equal((await s.users.identitiesOf(a.id))[0]!.emailForwarding, 'enabled');
        const recorded = await recordsOf(a.id);
        assert.deepEqual(await notify('email-disabled', sub, 'jti-forwarding'), { kind: 'replayed' });
        assert.equal((await s.users.identitiesOf(a.id))[0]!.emailForwarding, 'enabled');
        assert.deepEqual(await recordsOf(a.id), recorded, 'a replay records nothing');
        assert.deepEqual(recorded, {
          events: [
            ['user.created', { userId: a.id, provider: 'apple' }],
            ['apple.notification', { type: 'email-disabled', eventTime: 0, userId: a.id }],
            ['user.email_forwarding_changed', { userId: a.id, provider: 'apple', emailForwarding: 'disabled' }],
            ['apple.notification', { type: 'email-enabled', eventTime: 0, userId: a.id }],
            ['user.email_forwarding_changed', { userId: a.id, provider: 'apple', emailForwarding: 'enabled' }],
          ],
          audit: [
            ['apple', 'user.email_forwarding'],
            ['apple', 'user.email_forwarding'],
          ],
        });
      });

      it('revokes only the families an Apple sign-in opened on consent-revoked, once', async () => {
        const a = await appleAccount();
        const sub = (await s.users.identitiesOf(a.id))[0]!.subject;
        const fam = (provider: string | null): TokenFamily => ({
          id: unique('sid'),
          realmId: realm,
          userId: a.id,
          clientId: 'app',
          ip: '203.0.113.7',
          ipBinding: 'off',
          accessTtlS: 60,
          refreshTtlS: 600,
          createdAt: T0,
          revokedAt: null,
          provider,
        });
        const [byApple, byGoogle, unknown] = [fam('apple'), fam('google'), fam(null)];
        for (const f of [byApple, byGoogle, unknown]) await s.auth.createFamily(f, { hash: unique('rt'), expiresAt: T0 + DAY });
        const r = await notify('consent-revoked', sub, 'jti-consent');
        assert.deepEqual(r.kind === 'applied' && r.plan.kind === 'revoke_apple_sessions' && r.plan.familyIds, [byApple.id]);
        assert.equal((await s.auth.getFamily(byApple.id))!.revokedAt, T0 + 20);
        assert.equal((await s.auth.getFamily(byGoogle.id))!.revokedAt, null);
        assert.equal((await s.auth.getFamily(unknown.id))!.revokedAt, null);
        assert.equal((await s.users.identitiesOf(a.id)).length, 1, 'the identity stays linked');
        assert.deepEqual(
          (await recordsOf(a.id)).events.filter(([type]) => type === 'session.revoked'),
          [['session.revoked', { userId: a.id, sessionId: byApple.id, reason: 'apple_consent_revoked' }]],
        );
        assert.deepEqual(await notify('consent-revoked', sub, 'jti-consent'), { kind: 'replayed' });
      });

      it('unlinks Apple on account-delete when another identity is left; plans the deletion (claiming nothing) when not', async () => {
        const a = await appleAccount();
        const sub = (await s.users.identitiesOf(a.id))[0]!.subject;
        await linkOf(a.id);
        const r = await notify('account-delete', sub);
        assert.equal(r.kind === 'applied' && r.plan.kind, 'unlink');
        assert.deepEqual(
          (await s.users.identitiesOf(a.id)).map((i) => i.provider),
          ['google'],
        );
        const b = await appleAccount();
        const bSub = (await s.users.identitiesOf(b.id))[0]!.subject;
        const first = await notify('account-delete', bSub, 'jti-delete');
        assert.deepEqual(first.kind === 'applied' && first.plan, { kind: 'delete_account', userId: b.id, emitted: { events: [], audit: [], jobs: [] } });
        assert.equal((await notify('account-delete', bSub, 'jti-delete')).kind, 'applied', 'the jti was not claimed');
      });

      it('claims the jti of a notification about nobody, and the sweep deletes it after its retention', async () => {
        const r = await notify('consent-revoked', 'nobody', 'jti-nobody', T0 + 30);
        assert.deepEqual(r.kind === 'applied' && [r.plan.kind, r.plan.emitted.events.map((e) => e.type)], ['none', ['apple.notification']]);
        assert.deepEqual(await notify('consent-revoked', 'nobody', 'jti-nobody'), { kind: 'replayed' });
        while ((await s.auth.sweep('appleNotifications', T0 + 30 + DAY - 1, 500)) > 0);
        assert.deepEqual(await notify('consent-revoked', 'nobody', 'jti-nobody'), { kind: 'replayed' }, 'kept until it expires');
        assert.ok((await s.auth.sweep('appleNotifications', T0 + 30 + DAY, 500)) >= 1);
        assert.equal((await notify('consent-revoked', 'nobody', 'jti-nobody')).kind, 'applied', 'swept: a new notification');
      });

      it('sweeps expired jtis at most `limit` a statement, batch after batch, and keeps the ones still inside their retention', async () => {
        const at = T0 + 400 * DAY; // after every other case's jtis have expired: clear those first
        while ((await s.auth.sweep('appleNotifications', at + 2 * DAY, 500)) > 0);
        for (let i = 0; i < 7; i++) await notify('consent-revoked', 'nobody', `jti-batch-old-${i}`, at);
        await notify('consent-revoked', 'nobody', 'jti-batch-young', at + DAY);
        const batches: number[] = [];
        for (let n = -1; n !== 0; ) batches.push((n = await s.auth.sweep('appleNotifications', at + DAY, 3)));
        assert.deepEqual(batches, [3, 3, 1, 0]);
        assert.deepEqual(await notify('consent-revoked', 'nobody', 'jti-batch-young', at + DAY), { kind: 'replayed' }, 'inside its retention: kept');
        assert.equal((await notify('consent-revoked', 'nobody', 'jti-batch-old-6', at + DAY)).kind, 'applied', 'swept');
      });

      it(`applies one of ${N} deliveries of one notification racing`, async () => {
        const a = await appleAccount();
        const sub = (await s.users.identitiesOf(a.id))[0]!.subject;
        const results = await Promise.all(Array.from({ length: N }, () => notify('email-disabled', sub, 'jti-race')));
        assert.equal(results.filter((r) => r.kind === 'applied').length, 1);
      });
    });
  });
}
