// The `user.purge` job (purge.ts): batch after batch, each its own transaction that also renews the
// job's lease, until the deleted account has no row left. Between two batches every other use case
// has its turn at the database. A process that dies mid-purge leaves the job running under a lease
// no one renews; when it runs out another replica (or this one restarted) claims the job and goes
// on where the rows left off: every batch deletes what is still there, so none is done twice.
import type { JobHandler } from '../jobs/queue.ts';
import type { Clock } from '../lib/clock.ts';
import { USER_PURGE, USER_PURGE_POLICY } from './purge.ts';
import type { UserStore } from './store.ts';

export function userPurgeHandlers(users: UserStore, clock: Clock): Array<[string, JobHandler]> {
  const handler: JobHandler = {
    policy: USER_PURGE_POLICY,
    async run(job, signal) {
      const userId = String(job.payload.userId);
      let deleted = 0;
      for (;;) {
        // A stopping server hands the rest back to the queue (any replica takes it up).
        if (signal?.aborted) return { kind: 'retry', error: `stopped after ${deleted} rows` };
        const now = clock.now();
        const batch = await users.purgeAccountBatch(userId, { jobId: job.id, owner: job.leaseOwner ?? '', until: now + USER_PURGE_POLICY.leaseMs, now });
        if (batch === null) return { kind: 'retry', error: 'lease lost to another replica' };
        deleted += batch.deleted;
        if (batch.finished) return { kind: 'done', detail: { deleted } };
      }
    },
  };
  return [[USER_PURGE, handler]];
}
