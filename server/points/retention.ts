// Retention of stored idempotency answers (docs/events.md): after --idempotency-retention-days (30 by
// default) the periodic sweep (auth/sweep.ts) prunes them in its bounded batches, each its own short
// write; a replay after that is a new call.
import type { Prune } from '../events/retention.ts';
import type { PointsStore } from './store.ts';

const DAY = 86_400_000;

/** The sweep's prune of stored idempotency answers, by name (the sweep's counts). */
export function idempotencyPrunes(store: PointsStore, retentionDays: number): Record<string, Prune> {
  return { idempotency: (now, limit) => store.pruneIdempotency(now - retentionDays * DAY, limit) };
}
