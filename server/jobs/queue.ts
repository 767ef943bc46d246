// Runs the durable queue's jobs: claims due ones (JobStore), runs each kind's handler, and records
// what the attempt came to (retry.ts decides). Every replica runs one; the store makes a claim
// exclusive, so a job runs on one replica at a time, and one whose replica died is taken up again
// when its lease runs out. Time comes from the clock: tests move it and call runOnce().
import { hostname } from 'node:os';
import { GatehouseError } from '../errors.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { errorFields, type Logger } from '../lib/log.ts';
import type { AttemptResult, Job, JobPolicy } from './model.ts';
import { type AttemptOutcome, afterAttempt, claimed } from './retry.ts';
import type { JobStore } from './store.ts';

/** How often a replica looks for due jobs. A retry waits its backoff plus up to this. */
export const JOB_POLL_INTERVAL_MS = 2000;
/** Jobs claimed at once: they run together, started in order of creation. A claim's POSTs to one
 *  endpoint go one after another on its connection, each timed from when it is sent, not from its
 *  wait for the connection (webhooks/send.ts), so a slow endpoint costs a claim time, not its
 *  deliveries; the wait is bounded by the lease (webhooks/delivery.ts), which CLAIMS_AT_ONCE claims
 *  of twenty keep for an endpoint answering within a second. Forty measured no faster than twenty
 *  (bench/webhook-delivery.ts) and would keep that only within half a second. */
export const CLAIM_BATCH = 20;
/** Claims attempting at once in a round: the next is claimed, and its jobs prepared, while the one
 *  before still sends (a claim's database round trips overlap its predecessor's POSTs). */
const CLAIMS_AT_ONCE = 2;

/** What the queue hands a handler that records a claim's outcomes itself (JobHandler.runClaim). */
export interface ClaimContext {
  /** Who holds the claimed jobs: a job is finished only while its lease is still this owner's. */
  owner: string;
  /** What `result` makes of `job` as the claim holds it (retry.ts): while the lease is `owner`'s,
   *  nobody else changes it. */
  decide(job: Job, result: AttemptResult): AttemptOutcome;
  /** Tells the queue the attempts are over and only their recording remains: it may go on to
   *  claim more while they are recorded. */
  attempted(): void;
}

/** A job's attempt in a claim, and whether its outcome was recorded (false: its lease was lost). */
export interface ClaimedResult {
  result: AttemptResult;
  finished: boolean;
}

/** How the jobs of one kind are run: each alone (run), its outcome recorded after it (JobStore
 *  finish), or a claim's jobs of the kind together (runClaim), their outcomes recorded by the
 *  handler in one transaction with its own records of the attempts. */
export type JobHandler = { policy: JobPolicy } & (
  | {
      /** One attempt. A throw is a failed attempt (retried), its message kept on the job.
       *  `signal` aborts when the queue stops: a long attempt may end early and leave the rest to
       *  a retry. */
      run(job: Job, signal?: AbortSignal): Promise<AttemptResult>;
      runClaim?: never;
    }
  | {
      /** One attempt of each job, in the order given (of creation), and their outcomes recorded
       *  (`claim.decide` for each job still held by `claim.owner`); per job, in that order, its
       *  result and whether it was finished. */
      runClaim(jobs: Job[], claim: ClaimContext): Promise<ClaimedResult[]>;
      run?: never;
    }
);

export interface JobQueueDeps {
  store: JobStore;
  clock: Clock;
  log: Logger;
  handlers: ReadonlyMap<string, JobHandler>;
  /** In [0, 1): the backoff's jitter. */
  random?: () => number;
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
  /** Claims and runs what is due now, round after round until nothing is; how many attempts ran.
   *  With `feed`, the jobs it hands (written held by this process, hold, as they were made: the
   *  outbox relay's) run first, a claim's worth at a time as if claimed, until it hands none. */
  runOnce(feed?: () => Promise<Job[]>): Promise<number>;
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

  const decideFor =
    (policy: JobPolicy) =>
    (job: Job, result: AttemptResult): AttemptOutcome =>
      afterAttempt(job, result, clock.now(), policy, random());

  function logOutcome(job: Job, { result, finished }: ClaimedResult): void {
    const fields = { jobId: job.id, kind: job.kind, realmId: job.realmId, attempts: job.attempts, outcome: result.kind };
    if (!finished) deps.log.warn('job lease lost before its attempt was recorded', fields);
    else if (result.kind === 'done') deps.log.info('job done', fields);
    else deps.log.warn('job attempt failed', { ...fields, error: result.error });
  }

  /** One attempt of a job run alone, then its outcome recorded. */
  async function attemptAlone(job: Job, run: (job: Job) => Promise<AttemptResult>, policy: JobPolicy): Promise<ClaimedResult> {
    let result: AttemptResult;
    try {
      result = await run(job);
    } catch (e) {
      result = { kind: 'retry', error: e instanceof Error ? e.message : String(e) };
    }
    const decide = decideFor(policy);
    const finished = await store.finish(job.id, owner, (current) => decide(current, result));
    return { result, finished };
  }

  /** Attempts of held jobs, in the order given: each kind's as its handler runs them. `attempted`
   *  settles once every attempt is over (their outcomes may still be being recorded), `done` with
   *  the results once they are recorded too. */
  function attempt(jobs: Job[]): { attempted: Promise<unknown>; done: Promise<AttemptResult[]> } {
    const byKind = new Map<string, Job[]>();
    for (const job of jobs) byKind.set(job.kind, [...(byKind.get(job.kind) ?? []), job]);
    const outcomes = new Map<string, ClaimedResult>();
    const attempted: Array<Promise<unknown>> = [];
    const groups = [...byKind].map(async ([kind, ofKind]) => {
      const h = handlerOf(kind);
      let over!: () => void;
      attempted.push(new Promise<void>((r) => (over = r)));
      try {
        const results = h.runClaim
          ? await h.runClaim(ofKind, { owner, decide: decideFor(h.policy), attempted: over })
          : await Promise.all(ofKind.map((job) => attemptAlone(job, (j) => h.run(j, stopping.signal), h.policy)));
        ofKind.forEach((job, i) => {
          logOutcome(job, results[i]!);
          outcomes.set(job.id, results[i]!);
        });
      } finally {
        over();
      }
    });
    const done = Promise.all(groups).then(() => jobs.map((job) => outcomes.get(job.id)!.result));
    return { attempted: Promise.all(attempted), done };
  }

  /** Claims up to CLAIM_BATCH due jobs, sorted to start in order of creation (the oldest due are
   *  claimed, then started oldest first). */
  async function claim(): Promise<Job[]> {
    const now = clock.now();
    const jobs = await store.claim(now, CLAIM_BATCH, kinds, (j) => claimed(j, owner, now, handlerOf(j.kind).policy));
    return jobs.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async function pass(feed?: () => Promise<Job[]>): Promise<number> {
    let total = 0;
    // After a full claim the next is claimed at once, so its reads overlap the sends of the ones
    // before: up to CLAIMS_AT_ONCE claims attempting, and as many more being recorded. Otherwise
    // the claims under way end first, then a plain read asks whether anything is due, so an idle
    // poll writes nothing. What `feed` hands counts as a full claim: the next is asked for at once.
    const attempting = new Set<Promise<unknown>>();
    const running = new Set<Promise<unknown>>();
    let full = false;
    let feeding = feed !== undefined;
    try {
      while (!stopped) {
        if (full) {
          while (attempting.size >= CLAIMS_AT_ONCE || running.size >= 2 * CLAIMS_AT_ONCE)
            await Promise.race(running.size >= 2 * CLAIMS_AT_ONCE ? running : attempting);
        } else {
          await Promise.all(running);
          if (!feeding && !(await store.anyDue(clock.now(), kinds))) break;
        }
        if (stopped) break;
        let jobs: Job[];
        if (feeding) {
          jobs = await feed!();
          full = jobs.length > 0;
          if (!full) {
            feeding = false;
            continue;
          }
        } else {
          jobs = await claim();
          if (jobs.length === 0) break; // every due job is held by another replica, or by this one
          full = jobs.length === CLAIM_BATCH;
        }
        total += jobs.length;
        const { attempted, done } = attempt(jobs);
        const over = attempted.finally(() => attempting.delete(over));
        attempting.add(over);
        const recorded = done.finally(() => running.delete(recorded));
        recorded.catch(() => {}); // reported where it is awaited: by a race, or at the end
        running.add(recorded);
      }
      await Promise.all(running);
    } finally {
      await Promise.allSettled(running);
    }
    return total;
  }

  async function runOnce(feed?: () => Promise<Job[]>): Promise<number> {
    while (round) await round.catch(() => {});
    round = pass(feed).finally(() => {
      round = null;
    });
    return round;
  }

  return {
    policy: (kind) => handlerOf(kind).policy,
    hold: (job, now) => claimed(job, owner, now, handlerOf(job.kind).policy),
    runHeld(job) {
      const run = attempt([job]).done.then((results) => results[0]!);
      heldRuns.add(run);
      void run.catch(() => {}).finally(() => heldRuns.delete(run));
      return run;
    },
    runOnce,
    start(intervalMs = JOB_POLL_INTERVAL_MS) {
      if (timer || stopped) return;
      timer = setInterval(() => {
        if (round || stopped) return;
        runOnce().catch((e) => deps.log.warn('job queue round failed', errorFields(GatehouseError.from(e))));
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
