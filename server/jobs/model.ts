// The durable job queue: work done after a commit that must survive a restart
// and a dead replica (an Apple token revocation, a webhook delivery). A replica claims a due job by
// taking its lease; what happens after an attempt is retry.ts's decision.

export type JobStatus = 'pending' | 'running' | 'done' | 'failed';

export interface Job {
  /** `job_…` */
  id: string;
  kind: string;
  realmId: string;
  /** JSON: ids and figures, never a secret. */
  payload: Record<string, unknown>;
  /** What the job needs that is a secret (an Apple token), kept apart from the payload: never
   *  returned by an API, never logged. */
  secret: string | null;
  status: JobStatus;
  /** Attempts started (a claim counts one, also when its replica dies before finishing). */
  attempts: number;
  /** When a pending job is due. */
  runAt: number;
  leaseOwner: string | null;
  /** A running job whose lease has run out is due again (its replica died or hung). */
  leaseUntil: number | null;
  /** A failure at or after this instant gives the job up. */
  giveUpAt: number;
  lastError: string | null;
  createdAt: number;
  updatedAt: number;
}

/** How a kind of job is retried. */
export interface JobPolicy {
  /** The delay before the first retry; each further one doubles it, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** How long a claim holds the job before another replica may take it. */
  leaseMs: number;
  /** How long after its creation a job is retried. */
  lifetimeMs: number;
  /** Whether the job's end (done or given up) writes an audit record. */
  auditOutcome: boolean;
}

/** What an attempt came to. */
export type AttemptResult = { kind: 'done'; detail?: Record<string, unknown> } | { kind: 'retry'; error: string } | { kind: 'fail'; error: string };
