// Audit records: one per change through the admin API, grant, refund, deletion…,
// written in the transaction of the change.

export type ActorType = 'api_key' | 'user' | 'apple' | 'system';

/** Who asked for a change: an API key's id, a user's id, Apple (a notification) or gatehouse. */
export interface Actor {
  type: ActorType;
  id: string;
}

export interface FieldChange {
  before: unknown;
  after: unknown;
}

export interface AuditRecord {
  /** `aud_…` */
  auditId: string;
  at: number;
  /** The realm, or `*` for a global change. */
  realmId: string;
  actor: Actor;
  /** `<thing>.<verb>`: `user.delete`, `client.update`, `job.give_up`… */
  action: string;
  targetId: string;
  changes: Record<string, FieldChange>;
  requestId: string | null;
}

/** What a secret or key is shown as in a record. */
export const REDACTED = '[redacted]';

/** gatehouse itself, when no caller asked (the job queue giving up). */
export const SYSTEM_ACTOR: Actor = { type: 'system', id: 'gatehouse' };
