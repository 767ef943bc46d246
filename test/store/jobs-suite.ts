// JobStore contract: the durable queue. What is due, the backoff and giving up are retry.ts's rules
// (tested beside it); here: that a claim takes due jobs only, that no two replicas hold one job
// while its lease lasts, that a lost lease cannot finish a job, and that the end of a job writes
// its audit record in the same transaction.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Job, JobPolicy } from '../../server/jobs/model.ts';
import { afterAttempt, claimed, newJob } from '../../server/jobs/retry.ts';
import { HOUR, SECOND, type StoreFactory, type StoreFixture, seedRealm, T0 } from './contract.ts';

const KINDS = ['test.kind'];
const policy: JobPolicy = { baseDelayMs: 10 * SECOND, maxDelayMs: HOUR, leaseMs: 60 * SECOND, lifetimeMs: 24 * HOUR, auditOutcome: true };

export function describeJobStore(backend: string, factory: StoreFactory): void {
  describe(`${backend}: JobStore`, () => {
    let s: StoreFixture;
    before(async () => {
      s = await factory();
    });
    after(() => s.close());

    const job = (realm: string, at = T0, secret: string | null = null): Job => newJob('test.kind', realm, { n: 1 }, secret, at, policy);
    const claimAs = (owner: string, now: number) => (j: Job) => claimed(j, owner, now, policy);

    it('keeps a job as queued, its payload and secret included', async () => {
      const realm = await seedRealm(s);
      const j = job(realm, T0, 'apple-refresh-token');
      await s.jobs.enqueue(j);
      assert.deepEqual(await s.jobs.get(j.id), j);
      assert.deepEqual(await s.jobs.list(realm, { limit: 10 }), [j]);
      assert.deepEqual(await s.jobs.list(realm, { status: 'done', limit: 10 }), []);
    });

    it('claims only due jobs, oldest due first, up to the limit, and holds them for the lease', async () => {
      const realm = await seedRealm(s);
      const peer = await s.peer();
      const early = job(realm, T0 - 2 * SECOND);
      const late = job(realm, T0 - SECOND);
      const future = job(realm, T0 + HOUR);
      for (const j of [late, future, early]) await s.jobs.enqueue(j);
      const taken = await s.jobs.claim(T0, 1, KINDS, claimAs('a', T0), early.id);
      assert.deepEqual(
        taken.map((j) => [j.id, j.status, j.leaseOwner, j.attempts]),
        [[early.id, 'running', 'a', 1]],
      );
      assert.deepEqual(await peer.jobs.claim(T0, 1, KINDS, claimAs('b', T0), early.id), [], 'held by a while the lease lasts');
      assert.deepEqual(await peer.jobs.claim(T0, 1, KINDS, claimAs('b', T0), future.id), [], 'not due yet');
      assert.equal((await peer.jobs.claim(T0 + 60 * SECOND, 1, KINDS, claimAs('b', T0 + 60 * SECOND), early.id))[0]?.leaseOwner, 'b', 'the lease ran out');
      const now = T0 + 100 * SECOND;
      const rest = (await s.jobs.claim(now, 100, KINDS, claimAs('c', now))).map((j) => j.id);
      assert.ok(rest.includes(late.id));
      assert.ok(!rest.includes(future.id), 'not due yet');
      assert.ok(!rest.includes(early.id), "b's lease still holds");
    });

    it('claims only the kinds asked for, and tells whether any is due without writing', async () => {
      const realm = await seedRealm(s);
      const other = { ...job(realm, T0 - HOUR), kind: 'other.kind' };
      await s.jobs.enqueue(other);
      assert.equal(await s.jobs.anyDue(T0 - HOUR, ['other.kind']), true);
      assert.equal(await s.jobs.anyDue(T0 - HOUR - 1, ['other.kind']), false);
      assert.equal(await s.jobs.anyDue(T0 + 100 * HOUR, ['no.such.kind']), false);
      assert.deepEqual(await s.jobs.claim(T0, 1, KINDS, claimAs('a', T0), other.id), []);
      assert.equal((await s.jobs.get(other.id))?.status, 'pending');
      assert.equal((await s.jobs.claim(T0, 1, ['other.kind'], claimAs('a', T0), other.id))[0]?.id, other.id);
    });

    it('never lets two replicas claiming at once hold the same job', async () => {
      const realm = await seedRealm(s);
      const peer = await s.peer();
      const jobs = Array.from({ length: 20 }, () => job(realm, T0));
      for (const j of jobs) await s.jobs.enqueue(j);
      const ids = new Set(jobs.map((j) => j.id));
      const now = T0 + 20 * HOUR;
      const rounds = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? peer : s).jobs.claim(now, 5, KINDS, claimAs(`replica-${i}`, now))));
      const mine = rounds.flat().filter((j) => ids.has(j.id));
      assert.equal(new Set(mine.map((j) => j.id)).size, mine.length, 'each job claimed once');
      for (const j of mine) assert.equal((await s.jobs.get(j.id))?.leaseOwner, j.leaseOwner);
    });

    it('finishes a job only for the replica holding it, and writes the audit record of its end with it', async () => {
      const realm = await seedRealm(s);
      const peer = await s.peer();
      const j = job(realm, T0);
      await s.jobs.enqueue(j);
      await s.jobs.claim(T0, 1, KINDS, claimAs('a', T0), j.id);
      await peer.jobs.claim(T0 + 61 * SECOND, 1, KINDS, claimAs('b', T0 + 61 * SECOND), j.id);
      const fail = (x: Job) => afterAttempt(x, { kind: 'fail', error: 'refused' }, T0 + 62 * SECOND, policy, 0);
      assert.equal(await s.jobs.finish(j.id, 'a', fail), false, "a's lease was lost to b");
      assert.equal((await s.jobs.get(j.id))?.status, 'running');
      // The realm's own creation is audited too; the job's records are those that name it.
      const ofJob = async () => (await s.records.audit(realm, { limit: 10 })).filter((a) => a.targetId === j.id);
      assert.deepEqual(await ofJob(), []);
      assert.equal(await peer.jobs.finish(j.id, 'b', fail), true);
      const end = await s.jobs.get(j.id);
      assert.deepEqual([end?.status, end?.attempts, end?.leaseOwner, end?.lastError], ['failed', 2, null, 'refused']);
      const [record] = await ofJob();
      assert.deepEqual([record?.action, record?.targetId, record?.actor.type], ['job.give_up', j.id, 'system']);
      assert.deepEqual(await s.records.audit(realm, { action: 'job.done', limit: 10 }), []);
      assert.equal(await peer.jobs.finish(j.id, 'b', fail), false, 'a finished job stays finished');
    });

    it('a retried job is due again at the planned time and survives a new connection', async () => {
      const realm = await seedRealm(s);
      const j = job(realm, T0);
      await s.jobs.enqueue(j);
      await s.jobs.claim(T0, 1, KINDS, claimAs('a', T0), j.id);
      assert.equal(await s.jobs.finish(j.id, 'a', (x) => afterAttempt(x, { kind: 'retry', error: 'HTTP 503' }, T0, policy, 0)), true);
      const peer = await s.peer();
      assert.deepEqual(await peer.jobs.claim(T0 + 5 * SECOND - 1, 1, KINDS, claimAs('b', T0), j.id), []);
      const [again] = await peer.jobs.claim(T0 + 5 * SECOND, 1, KINDS, claimAs('b', T0 + 5 * SECOND), j.id);
      assert.deepEqual([again?.attempts, again?.lastError], [2, 'HTTP 503']);
    });

    it('deletes finished jobs older than the cutoff, oldest first and a batch at a time; never a pending job or a webhook delivery', async () => {
      const realm = await seedRealm(s);
      const DAY = 24 * HOUR;
      const at = (j: Job, status: Job['status'], updatedAt: number, kind = j.kind): Job => ({
        ...j,
        kind,
        status,
        updatedAt,
        leaseOwner: null,
        leaseUntil: null,
      });
      const old = T0 - 40 * DAY; // older than anything the other cases write
      const done1 = at(job(realm), 'done', old);
      const failed = at(job(realm), 'failed', old + SECOND);
      const done2 = at(job(realm), 'done', old + 2 * SECOND);
      const pending = at(job(realm), 'pending', old);
      const delivery = at(job(realm), 'done', old, 'webhook.deliver');
      const recent = at(job(realm), 'done', T0 - DAY);
      for (const j of [done2, pending, done1, delivery, recent, failed]) await s.jobs.enqueue(j);
      const cutoff = T0 - 30 * DAY;
      assert.equal(await s.jobs.pruneFinished(cutoff, 2), 2);
      assert.equal(await s.jobs.get(done1.id), null, 'the oldest first');
      assert.equal(await s.jobs.get(failed.id), null);
      assert.ok(await s.jobs.get(done2.id));
      assert.equal(await s.jobs.pruneFinished(cutoff, 2), 1);
      assert.equal(await s.jobs.pruneFinished(cutoff, 2), 0);
      for (const kept of [pending, delivery, recent]) assert.deepEqual(await s.jobs.get(kept.id), kept);
    });
  });
}
