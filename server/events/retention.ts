// Retention of the outbox and the audit log (docs/events.md): handed-out events whose deliveries are
// all delivered or failed, with their deliveries and attempts, after 30 days; audit records after
// --audit-retention-days (400 by default). Run by the periodic sweep (auth/sweep.ts) in its
// bounded batches, each batch its own short write.
import type { WebhookStore } from '../webhooks/store.ts';

const DAY = 86_400_000;
export const EVENT_RETENTION_MS = 30 * DAY;

/** One batch of a prune: rows deleted, at most `limit`. */
export type Prune = (now: number, limit: number) => Promise<number>;

/** The instants before which each kind of record goes, at `now`. */
export function retentionCutoffs(now: number, auditRetentionDays: number): { events: number; audit: number } {
  return { events: now - EVENT_RETENTION_MS, audit: now - auditRetentionDays * DAY };
}

/** The sweep's prunes of events and audit records, by name (the sweep's counts). */
export function recordPrunes(store: WebhookStore, auditRetentionDays: number): Record<string, Prune> {
  return {
    events: (now, limit) => store.pruneEvents(retentionCutoffs(now, auditRetentionDays).events, limit),
    audit: (now, limit) => store.pruneAudit(retentionCutoffs(now, auditRetentionDays).audit, limit),
  };
}
