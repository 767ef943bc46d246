// The records a use case emits, planned beside its other decisions (pure but for fresh ids): the
// store writes them in the use case's own transaction (store/sqlite/records.ts, store/postgres/records.ts).
import type { AuditRecord } from '../audit/model.ts';
import type { Job } from '../jobs/model.ts';
import { newId } from '../lib/ids.ts';
import type { EventType, GatehouseEvent, SessionRevokedReason } from './model.ts';

/** Outbox events, audit records and queued jobs to write with a change. */
export interface Emitted {
  events: GatehouseEvent[];
  audit: AuditRecord[];
  jobs: Job[];
}

export const NOTHING_EMITTED: Emitted = { events: [], audit: [], jobs: [] };

export function newEvent(type: EventType, realmId: string, now: number, data: Record<string, unknown>): GatehouseEvent {
  return { id: newId('evt'), type, realmId, createdAt: now, data };
}

export function newAuditRecord(r: Omit<AuditRecord, 'auditId'>): AuditRecord {
  return { auditId: newId('aud'), ...r };
}

/** `session.revoked` for a session, which is a token family (docs/events.md). */
export function sessionRevokedEvent(f: { id: string; realmId: string; userId: string }, reason: SessionRevokedReason, now: number): GatehouseEvent {
  return newEvent('session.revoked', f.realmId, now, { userId: f.userId, sessionId: f.id, reason });
}
