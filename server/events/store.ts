// Reads of the outbox and the audit log (listings and tests); they are written by the use cases'
// own transactions (Emitted).
import type { AuditRecord } from '../audit/model.ts';
import type { GatehouseEvent } from './model.ts';

/** Reads of the outbox and the audit log, newest first (listing APIs and tests). */
export interface RecordStore {
  events(realmId: string, opts: { type?: string; limit: number }): Promise<GatehouseEvent[]>;
  audit(realmId: string, opts: { action?: string; targetId?: string; limit: number }): Promise<AuditRecord[]>;
}
