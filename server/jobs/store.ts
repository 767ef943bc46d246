// Storage of the job queue. Each method is one transaction; which jobs are due and what an attempt
// makes of a job are retry.ts's decisions, passed in.

import type { Job, JobStatus } from './model.ts';
import type { AttemptOutcome } from './retry.ts';

export interface JobStore {
  /** Queues a job on its own (a use case queues its jobs in its own transaction: Emitted.jobs). */
  enqueue(job: Job): Promise<void>;
  /** Whether a job of these kinds is due at `now`: a plain read, so an idle poll writes nothing. */
  anyDue(now: number, kinds: readonly string[]): Promise<boolean>;
  /** Takes up to `limit` due jobs of these kinds (`onlyId`: that one, if due), oldest due first,
   *  each made `claim(job)` (retry.ts claimed). A job another replica holds, or is claiming at the
   *  same moment, is skipped: no two replicas hold one job while its lease lasts. */
  claim(now: number, limit: number, kinds: readonly string[], claim: (job: Job) => Job, onlyId?: string): Promise<Job[]>;
  /** Applies `decide(job)` to a job `owner` still holds, with its audit record; false (nothing
   *  written) when the lease was lost to another replica meanwhile. */
  finish(id: string, owner: string, decide: (job: Job) => AttemptOutcome): Promise<boolean>;
  get(id: string): Promise<Job | null>;
  /** Deletes up to `limit` jobs done or failed before `before` (not webhook deliveries: they go
   *  with their events), oldest first, in one short transaction; how many went. */
  pruneFinished(before: number, limit: number): Promise<number>;
  /** The realm's jobs, newest first. */
  list(realmId: string, opts: { kind?: string; status?: JobStatus; limit: number }): Promise<Job[]>;
}
