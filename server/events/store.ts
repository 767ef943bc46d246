// Reads of the outbox and the audit log (listings and tests); they are written by the use cases'
// own transactions (Emitted).
import type { AuditRecord } from '../audit/model.ts';
import type { GatehouseEvent } from './model.ts';

/** The audit API's filters (docs/events.md) and where its page starts (after the last record of the
 *  previous page, newest first). `since` inclusive, `until` exclusive. */
export interface AuditQuery {
  action?: string;
  targetId?: string;
  actorId?: string;
  since?: number;
  until?: number;
  after: { at: number; auditId: string } | null;
  limit: number;
}

/** Reads of the outbox and the audit log, newest first (listing APIs and tests). */
export interface RecordStore {
  /** A page of the realm's audit log, newest first. */
  auditPage(realmId: string, q: AuditQuery): Promise<AuditRecord[]>;
  events(realmId: string, opts: { type?: string; limit: number }): Promise<GatehouseEvent[]>;
  audit(realmId: string, opts: { action?: string; targetId?: string; limit: number }): Promise<AuditRecord[]>;
}
