import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Job, JobPolicy } from './model.ts';
import { afterAttempt, claimed, isDue, newJob, retryDelayMs } from './retry.ts';

const T0 = Date.UTC(2026, 2, 10, 9);
const SECOND = 1000;
const HOUR = 3600 * SECOND;
const policy: JobPolicy = { baseDelayMs: 10 * SECOND, maxDelayMs: HOUR, leaseMs: 60 * SECOND, lifetimeMs: 24 * HOUR, auditOutcome: true };

const fresh = (): Job => newJob('apple.revoke', 'r1', { userId: 'usr_1' }, 'secret', T0, policy);

describe('job retries', () => {
  it('a new job is due at once and given up a lifetime after its creation', () => {
    const j = fresh();
    assert.equal(j.status, 'pending');
    assert.equal(isDue(j, T0), true);
    assert.equal(isDue(j, T0 - 1), false);
    assert.equal(j.giveUpAt, T0 + 24 * HOUR);
  });

  it('a claim counts an attempt and holds the job for the lease; it is due again only when the lease runs out', () => {
    const held = claimed(fresh(), 'replica-a', T0, policy);
    assert.deepEqual([held.status, held.attempts, held.leaseOwner, held.leaseUntil], ['running', 1, 'replica-a', T0 + 60 * SECOND]);
    assert.equal(isDue(held, T0 + 60 * SECOND - 1), false);
    assert.equal(isDue(held, T0 + 60 * SECOND), true);
  });

  it('done and failed jobs are never due', () => {
    const held = claimed(fresh(), 'a', T0, policy);
    assert.equal(isDue(afterAttempt(held, { kind: 'done' }, T0, policy, 0).job, T0 + 100 * HOUR), false);
    assert.equal(isDue(afterAttempt(held, { kind: 'fail', error: 'x' }, T0, policy, 0).job, T0 + 100 * HOUR), false);
  });

  it('the backoff doubles from the base per attempt up to the cap, with half of it jittered', () => {
    const table: Array<[attempts: number, random: number, delay: number]> = [
      [1, 0, 5 * SECOND],
      [1, 0.999999, 10 * SECOND - 1],
      [2, 0, 10 * SECOND],
      [3, 0.5, 30 * SECOND],
      [9, 0, 1280 * SECOND],
      [10, 0, HOUR / 2],
      [10, 0.999999, HOUR - 2],
      [1000, 0, HOUR / 2],
    ];
    for (const [attempts, random, delay] of table) assert.equal(retryDelayMs(attempts, policy, random), delay, `attempt ${attempts}, random ${random}`);
  });

  it('a failed attempt releases the lease and plans the retry after the backoff, keeping the error', () => {
    const held = claimed(fresh(), 'a', T0, policy);
    const { job, audit } = afterAttempt(held, { kind: 'retry', error: 'HTTP 400 invalid_grant' }, T0 + SECOND, policy, 0);
    assert.deepEqual(
      [job.status, job.runAt, job.leaseOwner, job.leaseUntil, job.lastError],
      ['pending', T0 + 6 * SECOND, null, null, 'HTTP 400 invalid_grant'],
    );
    assert.equal(audit, null);
  });

  it('a retry is never planned past the give-up instant, and a failure from then on gives the job up with an audit record', () => {
    let job = claimed({ ...fresh(), attempts: 30 }, 'a', T0 + 24 * HOUR - SECOND, policy);
    const retry = afterAttempt(job, { kind: 'retry', error: 'unreachable' }, T0 + 24 * HOUR - SECOND, policy, 0.5);
    assert.equal(retry.job.runAt, T0 + 24 * HOUR);
    job = claimed(retry.job, 'b', T0 + 24 * HOUR, policy);
    const end = afterAttempt(job, { kind: 'retry', error: 'still unreachable' }, T0 + 24 * HOUR, policy, 0.5);
    assert.equal(end.job.status, 'failed');
    assert.equal(end.audit?.action, 'job.give_up');
    assert.equal(end.audit?.targetId, job.id);
    assert.deepEqual(end.audit?.actor, { type: 'system', id: 'gatehouse' });
    assert.deepEqual(end.audit?.changes.lastError, { before: null, after: 'still unreachable' });
    assert.equal(JSON.stringify(end).includes('secret'), true, 'the job keeps its secret');
    assert.equal(JSON.stringify(end.audit).includes('secret'), false, 'the audit record never shows it');
  });

  it('a permanent failure gives up at once; a success writes its audit record only when the kind asks', () => {
    const held = claimed(fresh(), 'a', T0, policy);
    assert.equal(afterAttempt(held, { kind: 'fail', error: 'not configured' }, T0, policy, 0).job.status, 'failed');
    const done = afterAttempt(held, { kind: 'done', detail: { outcome: 'revoked' } }, T0, policy, 0);
    assert.equal(done.audit?.action, 'job.done');
    assert.deepEqual(done.audit?.changes.outcome, { before: null, after: 'revoked' });
    assert.equal(afterAttempt(held, { kind: 'done' }, T0, { ...policy, auditOutcome: false }, 0).audit, null);
  });

  it('keeps at most 500 characters of an error', () => {
    const held = claimed(fresh(), 'a', T0, policy);
    assert.equal(afterAttempt(held, { kind: 'retry', error: 'x'.repeat(2000) }, T0, policy, 0).job.lastError?.length, 500);
  });
});
