// Retention of finished jobs (docs/events.md "Retention"): a job done or failed is kept 30 days for
// the operator's listing, then the periodic sweep (auth/sweep.ts) deletes it in its bounded batches,
// each its own short write. Webhook deliveries are not among them: they go with their events.
import type { Prune } from '../events/retention.ts';
import type { JobStore } from './store.ts';

export const FINISHED_JOB_RETENTION_MS = 30 * 86_400_000;

/** The sweep's prune of finished jobs, by name (the sweep's counts). */
export function jobPrunes(store: JobStore): Record<string, Prune> {
  return { jobs: (now, limit) => store.pruneFinished(now - FINISHED_JOB_RETENTION_MS, limit) };
}
