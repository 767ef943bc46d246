// The queue's decisions, pure: when a job is due, the lease a claim takes, and what an attempt's
// result makes of the job (done, retried after exponential backoff with jitter, or given up with an
// audit record once its lifetime is over). The stores apply them (JobStore).
import { type AuditRecord, SYSTEM_ACTOR } from '../audit/model.ts';
import { newAuditRecord } from '../events/plan.ts';
import { newId } from '../lib/ids.ts';
import type { AttemptResult, Job, JobPolicy } from './model.ts';

/** Most characters of an error kept on the job. */
const MAX_ERROR_LENGTH = 500;

export function newJob(kind: string, realmId: string, payload: Record<string, unknown>, secret: string | null, now: number, policy: JobPolicy): Job {
  return {
    id: newId('job'),
    kind,
    realmId,
    payload,
    secret,
    status: 'pending',
    attempts: 0,
    runAt: now,
    leaseOwner: null,
    leaseUntil: null,
    giveUpAt: now + policy.lifetimeMs,
    lastError: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** A pending job whose time has come, or a running one whose lease has run out. */
export function isDue(job: Pick<Job, 'status' | 'runAt' | 'leaseUntil'>, now: number): boolean {
  if (job.status === 'pending') return job.runAt <= now;
  if (job.status === 'running') return job.leaseUntil !== null && job.leaseUntil <= now;
  return false;
}

/** The job as `owner` holds it after claiming it at `now`. */
export function claimed(job: Job, owner: string, now: number, policy: JobPolicy): Job {
  return { ...job, status: 'running', attempts: job.attempts + 1, leaseOwner: owner, leaseUntil: now + policy.leaseMs, updatedAt: now };
}

/** The delay before the retry after attempt `attempts` (1 = the first): base·2^(attempts−1), capped,
 *  then "equal jitter" (half fixed, half random) so replicas retrying together spread out but a
 *  retry never comes much earlier than its backoff says. `random` is in [0, 1). */
export function retryDelayMs(attempts: number, policy: Pick<JobPolicy, 'baseDelayMs' | 'maxDelayMs'>, random: number): number {
  const exponent = Math.min(Math.max(attempts - 1, 0), 40);
  const capped = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** exponent);
  return Math.floor(capped / 2 + (capped / 2) * random);
}

/** What the store writes after an attempt: the job's new state, and the audit record of its end. */
export interface AttemptOutcome {
  job: Job;
  audit: AuditRecord | null;
}

/** The job after `owner`'s attempt came to `result` at `now`. A retry is never planned past
 *  giveUpAt: the last one runs at giveUpAt, and a failure from then on gives the job up. */
export function afterAttempt(job: Job, result: AttemptResult, now: number, policy: JobPolicy, random: number): AttemptOutcome {
  const released = { ...job, leaseOwner: null, leaseUntil: null, updatedAt: now };
  if (result.kind === 'done') {
    const done: Job = { ...released, status: 'done', lastError: null };
    return { job: done, audit: policy.auditOutcome ? outcomeRecord(done, now, result.detail ?? {}) : null };
  }
  const error = result.error.slice(0, MAX_ERROR_LENGTH);
  if (result.kind === 'fail' || now >= job.giveUpAt) {
    const failed: Job = { ...released, status: 'failed', lastError: error };
    return { job: failed, audit: outcomeRecord(failed, now, {}) };
  }
  const runAt = Math.min(now + retryDelayMs(job.attempts, policy, random), job.giveUpAt);
  return { job: { ...released, status: 'pending', runAt, lastError: error }, audit: null };
}

/** `job.done` or `job.give_up`, on the job, with its kind, attempts and last error. */
function outcomeRecord(job: Job, now: number, detail: Record<string, unknown>): AuditRecord {
  return newAuditRecord({
    at: now,
    realmId: job.realmId,
    actor: SYSTEM_ACTOR,
    action: job.status === 'done' ? 'job.done' : 'job.give_up',
    targetId: job.id,
    changes: {
      status: { before: 'running', after: job.status },
      kind: { before: job.kind, after: job.kind },
      attempts: { before: job.attempts, after: job.attempts },
      ...(job.lastError !== null ? { lastError: { before: null, after: job.lastError } } : {}),
      ...Object.fromEntries(Object.entries(detail).map(([k, v]) => [k, { before: null, after: v }])),
    },
    requestId: null,
  });
}
