// The job that reports a quota recovery at the window's exact nextRecoveryAt whether or not the user
// calls again (docs/events.md): queued by the transaction that exhausted the window (alerts.ts), due at
// that instant, and run by whichever replica claims it first. The check is its own transaction and
// reports only what is due, so a check made stale by an earlier recovery reports nothing.
import type { JobHandler } from '../jobs/queue.ts';
import type { Clock } from '../lib/clock.ts';
import { QUOTA_RECOVERY, QUOTA_RECOVERY_POLICY } from './alerts.ts';
import type { PointsStore } from './store.ts';

export function quotaRecoveryHandlers(store: PointsStore, clock: Clock): Map<string, JobHandler> {
  const handler: JobHandler = {
    policy: QUOTA_RECOVERY_POLICY,
    async run(job) {
      await store.checkAlerts(job.realmId, String(job.payload.userId), clock.now());
      return { kind: 'done' };
    },
  };
  return new Map([[QUOTA_RECOVERY, handler]]);
}
