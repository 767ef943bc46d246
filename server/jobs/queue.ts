// Runs the durable queue's jobs: claims due ones (JobStore), runs each kind's handler, and records
// what the attempt came to (retry.ts decides). Every replica runs one; the store makes a claim
// exclusive, so a job runs on one replica at a time, and one whose replica died is taken up again
// when its lease runs out. Time comes from the clock: tests move it and call runOnce().
import { hostname } from 'node:os';
import { type ErrorTranslator, GatehouseError } from '../errors.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { errorFields, type Logger } from '../lib/log.ts';
import type { AttemptResult, Job, JobPolicy } from './model.ts';
import { afterAttempt, claimed } from './retry.ts';
import type { JobStore } from './store.ts';

/** How often a replica looks for due jobs. A retry waits its backoff plus up to this. */
export const JOB_POLL_INTERVAL_MS = 2000;
/** Jobs claimed at once: they run together, started in order of creation. */
export const CLAIM_BATCH = 10;

export interface JobHandler {
  policy: JobPolicy;
  /** One attempt. A throw is a failed attempt (retried), its message kept on the job. `signal`
   *  aborts when the queue stops: a long attempt may end early and leave the rest to a retry. */
  run(job: Job, signal?: AbortSignal): Promise<AttemptResult>;
}

export interface JobQueueDeps {
  store: JobStore;
  clock: Clock;
  log: Logger;
  handlers: ReadonlyMap<string, JobHandler>;
  /** In [0, 1): the backoff's jitter. */
  random?: () => number;
  translateError?: ErrorTranslator;
}

export interface JobQueue {
  /** The policy jobs of `kind` are queued with. */
  policy(kind: string): JobPolicy;
  /** `job` as this process holds it from `now`: a use case writes it so in its own transaction,
   *  then runs it at once after the commit (runHeld); if this process dies first, another replica
   *  takes it up when the lease runs out, and no poller takes it meanwhile. */
  hold(job: Job, now: number): Job;
  /** One attempt of a job this process holds (hold): what it came to. */
  runHeld(job: Job): Promise<AttemptResult>;
  /** Claims and runs what is due now, round after round until nothing is; how many attempts ran. */
  runOnce(): Promise<number>;
  /** Polls every `intervalMs` (a timer that never keeps the process alive) until stop(). */
  start(intervalMs?: number): void;
  /** Stops polling and waits for the round under way. */
  stop(): Promise<void>;
}

export function createJobQueue(deps: JobQueueDeps): JobQueue {
  const { store, clock, handlers } = deps;
  const random = deps.random ?? Math.random;
  const kinds = [...handlers.keys()];
  // Who holds a lease: this process, distinct from every other replica and restart.
  const owner = `${hostname()}:${process.pid}:${newId('run')}`;
  let round: Promise<number> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const stopping = new AbortController();
  // Attempts of held jobs under way (runHeld): stop() waits for them as for a round.
  const heldRuns = new Set<Promise<AttemptResult>>();

  const handlerOf = (kind: string): JobHandler => {
    const h = handlers.get(kind);
    if (!h) throw new Error(`no handler for jobs of kind ${kind}`);
    return h;
  };

  async function attempt(job: Job): Promise<AttemptResult> {
    const h = handlerOf(job.kind);
    let result: AttemptResult;
    try {
      result = await h.run(job, stopping.signal);
    } catch (e) {
      result = { kind: 'retry', error: e instanceof Error ? e.message : String(e) };
    }
    const finished = await store.finish(job.id, owner, (current) => afterAttempt(current, result, clock.now(), h.policy, random()));
    const fields = { jobId: job.id, kind: job.kind, realmId: job.realmId, attempts: job.attempts, outcome: result.kind };
    if (!finished) deps.log.warn('job lease lost before its attempt was recorded', fields);
    else if (result.kind === 'done') deps.log.info('job done', fields);
    else deps.log.warn('job attempt failed', { ...fields, error: result.error });
    return result;
  }

  async function claimAndRun(): Promise<AttemptResult[]> {
    const now = clock.now();
    const jobs = await store.claim(now, CLAIM_BATCH, kinds, (j) => claimed(j, owner, now, handlerOf(j.kind).policy));
    // A round's jobs start in order of creation (the oldest due are claimed, then started oldest first).
    jobs.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return Promise.all(jobs.map(attempt));
  }

  async function pass(): Promise<number> {
    let total = 0;
    while (!stopped && (await store.anyDue(clock.now(), kinds))) {
      const n = (await claimAndRun()).length;
      total += n;
      if (n === 0) break; // every due job is held by another replica
    }
    return total;
  }

  async function runOnce(): Promise<number> {
    while (round) await round.catch(() => {});
    round = pass().finally(() => {
      round = null;
    });
    return round;
  }

  return {
    policy: (kind) => handlerOf(kind).policy,
    hold: (job, now) => claimed(job, owner, now, handlerOf(job.kind).policy),
    runHeld(job) {
      const run = attempt(job);
      heldRuns.add(run);
      void run.catch(() => {}).finally(() => heldRuns.delete(run));
      return run;
    },
    runOnce,
    start(intervalMs = JOB_POLL_INTERVAL_MS) {
      if (timer || stopped) return;
      timer = setInterval(() => {
        if (round || stopped) return;
        runOnce().catch((e) => deps.log.warn('job queue round failed', errorFields(GatehouseError.from(e, deps.translateError))));
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      stopping.abort();
      if (timer) clearInterval(timer);
      await Promise.allSettled([round, ...heldRuns]);
    },
  };
}
