// UserStore.deleteAccount contract: one transaction that reads the account under lock, asks the
// plan (users/deletion.ts, tested beside it) and writes it — what every other store then sees of
// the user, and what a new sign-in with a deleted subject gets. Then UserStore.purgeAccountBatch:
// the account's remaining points rows deleted in batches (users/purge.ts), each under its job's lease.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { claimed } from '../../server/jobs/retry.ts';
import type { AccountSnapshot } from '../../server/users/deletion.ts';
import { planAccountDeletion } from '../../server/users/deletion.ts';
import type { ProviderLogin } from '../../server/users/model.ts';
import { PURGE_BATCH_ROWS, USER_PURGE, USER_PURGE_POLICY, userPurgeJob } from '../../server/users/purge.ts';
import { subscribeToEveryEvent } from '../helpers/stores.ts';
import { clientApp, HOUR, rejectsWith, type StoreFactory, type StoreFixture, type Stores, seedRealm, seedUser, T0, unique } from './contract.ts';

const actor = { type: 'api_key' as const, id: 'key_1' };

export function describeAccountDeletion(backend: string, factory: StoreFactory): void {
  describe(`${backend}: UserStore account deletion`, () => {
    let s: StoreFixture;
    before(async () => {
      s = await factory();
    });
    after(() => s.close());

    const login = (realmId: string, subject = unique('sub'), email: string | null = `${unique('u')}@example.com`): ProviderLogin => ({
      realmId,
      provider: 'apple',
      subject,
      email,
      emailVerified: email !== null,
      fullName: { givenName: 'Ada', familyName: 'Lovelace' },
    });

    /** A realm giving 100 registration points and a user signed in through Apple, with a session,
     *  points spent under an idempotency key, an open hold and an active subscription. */
    async function richUser(stores: Stores = s) {
      const realm = await seedRealm(stores);
      await subscribeToEveryEvent(stores, realm, T0);
      await stores.points.putDefaultConfig(realm, { registrationBonusPoints: 100 }, T0);
      const l = login(realm);
      const { user } = await stores.users.resolveProviderLogin(l, { newId: () => unique('usr'), now: T0 });
      await stores.points.grantRegistration(realm, user.id, T0);
      const family = { ...familyOf(realm, user.id), id: unique('sid') };
      await stores.auth.createFamily(family, { hash: unique('rt'), expiresAt: T0 + HOUR });
      await stores.points.consume(
        { realmId: realm, userId: user.id, amount: 10, description: null, idempotencyKey: 'k1', requestHash: 'h1', transactionId: unique('ptx') },
        T0,
      );
      await stores.points.hold(
        { realmId: realm, userId: user.id, amount: 5, description: null, idempotencyKey: null, requestHash: 'h2', holdId: unique('hld'), ttlSeconds: 600 },
        T0,
      );
      const [mapping] = await stores.billing.applyMappingBatch(realm, 'stripe', 'pro', [{ entitlementKey: 'pro' }], T0);
      const sub = await stores.billing.createSubscription(
        { realmId: realm, userId: user.id, mappingId: mapping!.id, externalSubscriptionId: null, id: unique('sub') },
        T0,
      );
      return { realm, user, login: l, family, sub };
    }

    const familyOf = (realmId: string, userId: string) => ({
      id: unique('sid'),
      realmId,
      userId,
      clientId: clientApp(realmId, 'app').clientId,
      ip: '127.0.0.1',
      ipBinding: 'off' as const,
      accessTtlS: 900,
      refreshTtlS: 3600,
      createdAt: T0,
      revokedAt: null,
      provider: null,
    });

    const request = (realmId: string, userId: string) => ({ realmId, userId, actor, requestId: 'req_1' });

    it('reads the live account with its identities, live sessions, open holds and active subscriptions for the plan', async () => {
      const { realm, user, family, sub, login: l } = await richUser();
      let seen: AccountSnapshot | null = null;
      await s.users.deleteAccount(realm, user.id, (snap) => {
        seen = snap;
        return planAccountDeletion(snap, request(realm, user.id), T0 + HOUR, []);
      });
      const snap = seen as AccountSnapshot | null;
      assert.equal(snap?.user.id, user.id);
      assert.deepEqual(
        snap?.identities.map((i) => [i.provider, i.subject, i.appleRefreshToken]),
        [['apple', l.subject, null]],
      );
      assert.deepEqual(snap?.liveFamilyIds, [family.id]);
      assert.equal(snap?.openHolds, 1);
      assert.deepEqual(snap?.activeSubscriptionIds, [sub.id]);
    });

    it('leaves nothing of the account any store can reach, revokes its sessions, cancels its subscriptions, and writes its events and audit record', async () => {
      const { realm, user, family, sub } = await richUser();
      const at = T0 + HOUR;
      const plan = await s.users.deleteAccount(realm, user.id, (snap) => planAccountDeletion(snap, request(realm, user.id), at, []));
      assert.equal(plan?.deletedAt, at);
      const peer = await s.peer();
      for (const stores of [s, peer]) {
        assert.equal(await stores.users.getUser(realm, user.id), null);
        assert.equal(await stores.users.findUserByEmail(realm, user.email), null);
        assert.deepEqual(await stores.users.listUsers(realm, { limit: 10 }), []);
        assert.deepEqual(await stores.users.identitiesOf(user.id), []);
        assert.equal((await stores.auth.getFamily(family.id))?.revokedAt, at);
        await rejectsWith(stores.points.summary(realm, user.id, at), 'not_found');
        // The stored answer is gone with the user: the same key is now a call on a deleted user.
        await rejectsWith(
          stores.points.consume(
            { realmId: realm, userId: user.id, amount: 10, description: null, idempotencyKey: 'k1', requestHash: 'h1', transactionId: unique('ptx') },
            at,
          ),
          'not_found',
        );
        await rejectsWith(stores.points.history({ realmId: realm, userId: user.id, pageSize: 10, after: null, kind: null }, at), 'not_found');
      }
      const canceled = await s.billing.cancelSubscription(realm, sub.id, at + 1);
      assert.deepEqual([canceled.status, canceled.canceledAt], ['canceled', at]);
      // The points events of the account's set-up (its grants) are not the deletion's.
      const events = (await s.records.events(realm, { limit: 20 })).filter((e) => !e.type.startsWith('points.'));
      assert.deepEqual(events.map((e) => e.type).sort(), ['session.revoked', 'user.created', 'user.deleted']);
      assert.deepEqual(events.find((e) => e.type === 'session.revoked')?.data, { userId: user.id, sessionId: family.id, reason: 'user_deleted' });
      const [audit] = await s.records.audit(realm, { action: 'user.delete', limit: 10 });
      assert.deepEqual([audit?.targetId, audit?.actor, audit?.requestId], [user.id, actor, 'req_1']);
    });

    it('finds no account the second time (nothing asked, nothing written), nor an unknown one', async () => {
      const { realm, user } = await richUser();
      const plan = (snap: AccountSnapshot) => planAccountDeletion(snap, request(realm, user.id), T0 + HOUR, []);
      assert.notEqual(await s.users.deleteAccount(realm, user.id, plan), null);
      assert.equal(await s.users.deleteAccount(realm, user.id, () => assert.fail('asked again')), null);
      assert.equal(await s.users.deleteAccount(realm, 'usr_unknown', () => assert.fail('asked')), null);
      assert.equal((await s.records.audit(realm, { action: 'user.delete', limit: 10 })).length, 1);
    });

    it('does not delete an account of another realm', async () => {
      const { user } = await richUser();
      const other = await seedRealm(s);
      assert.equal(await s.users.deleteAccount(other, user.id, () => assert.fail('asked')), null);
      assert.notEqual(await s.users.getUser(user.realmId, user.id), null);
    });

    it('starts no session for a deleted account, even one read live before the deletion', async () => {
      const { realm, user } = await richUser();
      await s.users.deleteAccount(realm, user.id, (snap) => planAccountDeletion(snap, request(realm, user.id), T0 + HOUR, []));
      await rejectsWith(s.auth.createFamily(familyOf(realm, user.id), { hash: unique('rt'), expiresAt: T0 + 2 * HOUR }), 'not_found');
      const totals = await s.auth.totals();
      await rejectsWith(s.auth.createFamily(familyOf(realm, user.id), { hash: unique('rt'), expiresAt: T0 + 2 * HOUR }), 'not_found');
      assert.deepEqual(await s.auth.totals(), totals, 'nothing written');
    });

    it('a new sign-in with a deleted subject creates a new account, with its email free again, but no second registration credit', async () => {
      const { realm, user, login: l } = await richUser();
      await s.users.deleteAccount(realm, user.id, (snap) => planAccountDeletion(snap, request(realm, user.id), T0 + HOUR, []));
      const again = await s.users.resolveProviderLogin(l, { newId: () => unique('usr'), now: T0 + 2 * HOUR });
      assert.equal(again.created, true);
      assert.notEqual(again.user.id, user.id);
      assert.equal(again.user.email, user.email);
      await s.points.grantRegistration(realm, again.user.id, T0 + 2 * HOUR);
      assert.equal((await s.points.summary(realm, again.user.id, T0 + 2 * HOUR)).balances.registration, 0);
      const stranger = await s.users.resolveProviderLogin(login(realm), { newId: () => unique('usr'), now: T0 + 2 * HOUR });
      await s.points.grantRegistration(realm, stranger.user.id, T0 + 2 * HOUR);
      assert.equal((await s.points.summary(realm, stranger.user.id, T0 + 2 * HOUR)).balances.registration, 100);
      const elsewhere = await seedRealm(s);
      await s.points.putDefaultConfig(elsewhere, { registrationBonusPoints: 100 }, T0);
      const there = await s.users.resolveProviderLogin({ ...l, realmId: elsewhere }, { newId: () => unique('usr'), now: T0 + 2 * HOUR });
      await s.points.grantRegistration(elsewhere, there.user.id, T0 + 2 * HOUR);
      assert.equal((await s.points.summary(elsewhere, there.user.id, T0 + 2 * HOUR)).balances.registration, 100, 'per realm');
    });

    const consumeWithKey = (realmId: string, userId: string, key: string, hash: string) =>
      ({ realmId, userId, amount: 1, description: null, idempotencyKey: key, requestHash: hash, transactionId: unique('ptx') }) as const;

    /** Deletes the account with its purge job held by `owner` from `at`; the job's id. */
    async function deleteHeld(realm: string, userId: string, owner: string, at: number): Promise<string> {
      let jobId = '';
      const plan = await s.users.deleteAccount(realm, userId, (snap) => {
        const p = planAccountDeletion(snap, request(realm, userId), at, []);
        const jobs = p.emitted.jobs.map((j) => (j.kind === USER_PURGE ? claimed(j, owner, at, USER_PURGE_POLICY) : j));
        jobId = jobs.find((j) => j.kind === USER_PURGE)!.id;
        return { ...p, emitted: { ...p.emitted, jobs } };
      });
      assert.ok(plan);
      return jobId;
    }

    it('leaves the points rows to the purge job queued with the deletion, which deletes them all under its renewed lease', async () => {
      const { realm, user } = await richUser();
      const at = T0 + HOUR;
      const jobId = await deleteHeld(realm, user.id, 'owner-a', at);
      const job = await s.jobs.get(jobId);
      assert.deepEqual([job?.kind, job?.payload, job?.status, job?.leaseOwner], [USER_PURGE, { userId: user.id }, 'running', 'owner-a']);
      assert.notDeepEqual(await s.points.listTransactions(realm, user.id), [], 'the history waits for the purge');
      assert.notDeepEqual(await s.points.listBalances(realm, user.id), []);

      const lease = { jobId, owner: 'owner-a', until: at + USER_PURGE_POLICY.leaseMs, now: at };
      const first = await s.users.purgeAccountBatch(user.id, lease);
      assert.equal(first?.finished, true);
      assert.ok(first!.deleted > 0);
      assert.equal((await s.jobs.get(jobId))?.leaseUntil, lease.until, 'each batch renews the lease');
      const peer = await s.peer();
      for (const stores of [s, peer]) {
        assert.deepEqual(await stores.points.listTransactions(realm, user.id), []);
        assert.deepEqual(await stores.points.listBalances(realm, user.id), []);
      }
      assert.deepEqual(await s.users.purgeAccountBatch(user.id, { ...lease, now: at + 1 }), { deleted: 0, finished: true }, 'nothing left');
    });

    it('purges in batches of at most PURGE_BATCH_ROWS rows until none is left', async () => {
      const realm = await seedRealm(s);
      const { user } = await s.users.resolveProviderLogin(login(realm), { newId: () => unique('usr'), now: T0 });
      await s.points.grant(
        {
          realmId: realm,
          userId: user.id,
          kind: 'topup_credit',
          amount: 10_000,
          expiresAt: null,
          idempotencyKey: null,
          requestHash: '',
          grantId: unique('grt'),
        },
        T0,
      );
      for (let i = 0; i < 1100; i++) {
        await s.points.consume(
          { realmId: realm, userId: user.id, amount: 1, description: null, idempotencyKey: null, requestHash: '', transactionId: unique('ptx') },
          T0 + i,
        );
      }
      const at = T0 + HOUR;
      const jobId = await deleteHeld(realm, user.id, 'owner-a', at);
      const batches = [];
      for (let i = 0; i < 100 && !batches.at(-1)?.finished; i++) {
        batches.push(await s.users.purgeAccountBatch(user.id, { jobId, owner: 'owner-a', until: at + USER_PURGE_POLICY.leaseMs, now: at }));
      }
      // Every batch full but the last; the last finishes: 1 100 consumes leave over 3 000 rows.
      assert.ok(batches.length > 3, `${batches.length} batches`);
      assert.deepEqual(
        batches.map((b) => [b?.deleted === PURGE_BATCH_ROWS, b?.finished]),
        [...batches.slice(0, -1).map(() => [true, false]), [false, true]],
      );
      assert.deepEqual(await s.points.listTransactions(realm, user.id), []);
    });

    it('writes nothing for a runner whose lease another replica has taken', async () => {
      const { realm, user } = await richUser();
      const at = T0 + HOUR;
      const jobId = await deleteHeld(realm, user.id, 'owner-a', at);
      assert.equal(await s.users.purgeAccountBatch(user.id, { jobId, owner: 'owner-b', until: at + 10, now: at }), null);
      assert.notDeepEqual(await s.points.listTransactions(realm, user.id), []);
      assert.equal((await s.jobs.get(jobId))?.leaseOwner, 'owner-a');
    });

    it('deletes nothing of a live account, whatever job names it', async () => {
      const { realm, user } = await richUser();
      const job = claimed(userPurgeJob(realm, user.id, T0), 'owner-a', T0, USER_PURGE_POLICY);
      await s.jobs.enqueue(job);
      const before = await s.points.listTransactions(realm, user.id);
      assert.deepEqual(await s.users.purgeAccountBatch(user.id, { jobId: job.id, owner: 'owner-a', until: T0 + 10, now: T0 }), { deleted: 0, finished: true });
      assert.deepEqual(await s.points.listTransactions(realm, user.id), before);
      assert.notEqual((await s.points.summary(realm, user.id, T0)).userId, undefined);
    });

    it('shows nothing of a deleted account the purge has not reached: no replayed answer, hold or movement', async () => {
      const { realm, user } = await richUser();
      const closed = await s.points.hold(
        { realmId: realm, userId: user.id, amount: 1, description: null, idempotencyKey: null, requestHash: '', holdId: unique('hld'), ttlSeconds: 600 },
        T0,
      );
      await s.points.release({ realmId: realm, holdId: closed.holdId, idempotencyKey: null, requestHash: '', transactionId: unique('ptx') }, T0);
      const [spent] = await s.points.listTransactions(realm, user.id);
      const at = T0 + HOUR;
      await deleteHeld(realm, user.id, 'owner-a', at);
      const peer = await s.peer();
      for (const stores of [s, peer]) {
        // The same keyed request: a call on a deleted account, not the stored answer.
        await rejectsWith(stores.points.consume(consumeWithKey(realm, user.id, 'k1', 'h1'), at), 'not_found');
        await rejectsWith(stores.points.getHold(realm, closed.holdId, at), 'not_found');
        await rejectsWith(
          stores.points.refund(
            { realmId: realm, transactionId: spent!.transactionId, amount: null, reason: null, idempotencyKey: null, requestHash: '', refundId: unique('rfd') },
            at,
          ),
          'not_found',
        );
      }
      // Another account's call under the same key is another request until the answer is purged.
      const other = await seedUser(s, realm);
      await rejectsWith(s.points.consume(consumeWithKey(realm, other.id, 'k1', 'h-other'), at), 'idempotency_conflict');
    });

    it('deletes an account once when two replicas delete it at the same moment', async () => {
      const { realm, user } = await richUser();
      const peer = await s.peer();
      const plan = (snap: AccountSnapshot) => planAccountDeletion(snap, request(realm, user.id), T0 + HOUR, []);
      const results = await Promise.all([s.users.deleteAccount(realm, user.id, plan), peer.users.deleteAccount(realm, user.id, plan)]);
      assert.equal(results.filter((r) => r !== null).length, 1);
      assert.equal((await s.records.audit(realm, { action: 'user.delete', limit: 10 })).length, 1);
    });
  });
}
