// PostgreSQL: the writer of a use case's Emitted records (outbox events, audit records, queued
// jobs), sent on the use case's own transaction, and the reads of the outbox and audit log; the
// twin of sqlite/records.ts over the same column lists.
import type { AuditRecord } from '../../audit/model.ts';
import type { SecretBox } from '../../crypto/secrets.ts';
import type { GatehouseEvent } from '../../events/model.ts';
import type { Emitted } from '../../events/plan.ts';
import type { AuditQuery, RecordStore } from '../../events/store.ts';
import { CONSUMED_EVENT } from '../../points/events.ts';
import {
  AUDIT_COLUMNS,
  type AuditRow,
  auditValues,
  EVENT_COLUMNS,
  type EventRow,
  eventValues,
  insertSql,
  JOB_COLUMNS,
  jobValues,
  MARKED_MOVEMENT_COLUMNS,
  type MarkedMovementRow,
  outboxNewest,
  toAuditRecord,
  toEvent,
} from '../record-rows.ts';
import { query, type Tx, type TxContext } from './tx.ts';

const dollar = (n: number) => `$${n}`;

/** The outbox insert: the outbox keeps what some receiver is owed (docs/events.md "Which
 *  events an endpoint gets"): an event is written only while an enabled endpoint of its realm
 *  subscribes to its type, its own or "*" — webhooks/model.ts `subscribes`, asked in the insert
 *  itself so the use case's transaction sees every endpoint committed before it, on any replica, at
 *  no round trip (SQLite asks a per-connection cache instead: sqlite/records.ts eventsOwed). Its
 *  values (in eventValues' order) named by `p`: numbered $1…$5 alone (SQL.insertEvent), or
 *  parameters of a larger statement that writes the event with its other writes. */
const outboxInsert = (p: readonly string[]): string =>
  `INSERT INTO events (${EVENT_COLUMNS.join(', ')}) SELECT ${p.join(', ')}
    WHERE EXISTS (SELECT 1 FROM webhooks w WHERE w.realm_id = ${p[2]} AND w.enabled AND w.event_types::jsonb ?| ARRAY[${p[1]}, '*'])`;

const SQL = {
  insertEvent: outboxInsert(['$1::text', '$2::text', '$3::text', '$4::bigint', '$5::text']),
  insertAudit: insertSql('audit_log', AUDIT_COLUMNS, dollar),
  insertJob: insertSql('jobs', JOB_COLUMNS, dollar),
  events: 'SELECT * FROM events WHERE realm_id = $1 AND ($2::text IS NULL OR type = $2) ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT $3',
  // The realm's movements whose points.consumed event the outbox still holds as a mark (migration 021).
  marked: `SELECT ${MARKED_MOVEMENT_COLUMNS} FROM points_transactions WHERE event_pending IS NOT NULL AND realm_id = $1
    ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT $2`,
  audit: `SELECT * FROM audit_log WHERE realm_id = $1 AND ($2::text IS NULL OR action = $2) AND ($3::text IS NULL OR target_id = $3)
    ORDER BY at DESC, id COLLATE "C" DESC LIMIT $4`,
  auditPage: `SELECT * FROM audit_log WHERE realm_id = $1 AND ($2::text IS NULL OR action = $2) AND ($3::text IS NULL OR target_id = $3)
    AND ($4::text IS NULL OR actor_id = $4) AND ($5::bigint IS NULL OR at >= $5) AND ($6::bigint IS NULL OR at < $6)
    AND ($7::bigint IS NULL OR at < $7 OR (at = $7 AND id COLLATE "C" < $8::text)) ORDER BY at DESC, id COLLATE "C" DESC LIMIT $9`,
};

/** The SQL types of an event's values (eventValues), in their order. */
const EVENT_TYPES = ['text', 'text', 'text', 'bigint', 'text'] as const;

/** The outbox insert of `e` as a part of another statement, its values added by `param`. */
export function outboxInsertOf(e: GatehouseEvent, param: (value: unknown, type: string) => string): string {
  const values = eventValues(e);
  return outboxInsert(EVENT_TYPES.map((t, i) => param(values[i], t)));
}

/** Sends the inserts of `emitted` on `tx` (checked at COMMIT, like every write of the use case); a
 *  job's secret is sealed with `secrets` (crypto/secrets.ts). */
export function writeEmitted(tx: Tx, emitted: Emitted, secrets: SecretBox | null = null): void {
  for (const e of emitted.events) tx.run(SQL.insertEvent, eventValues(e));
  for (const a of emitted.audit) tx.run(SQL.insertAudit, auditValues(a));
  for (const j of emitted.jobs) tx.run(SQL.insertJob, jobValues(j, secrets));
}

export class PostgresRecordStore implements RecordStore {
  constructor(private readonly ctx: TxContext) {}

  async events(realmId: string, opts: { type?: string; limit: number }): Promise<GatehouseEvent[]> {
    const marks = opts.type === undefined || opts.type === CONSUMED_EVENT;
    const [rows, marked] = await Promise.all([
      query<EventRow>(this.ctx.pool, SQL.events, [realmId, opts.type ?? null, opts.limit]),
      marks ? query<MarkedMovementRow>(this.ctx.pool, SQL.marked, [realmId, opts.limit]) : [],
    ]);
    return outboxNewest(rows, marked, opts.limit).map(toEvent);
  }

  async auditPage(realmId: string, q: AuditQuery): Promise<AuditRecord[]> {
    const values = [
      realmId,
      q.action ?? null,
      q.targetId ?? null,
      q.actorId ?? null,
      q.since ?? null,
      q.until ?? null,
      q.after?.at ?? null,
      q.after?.auditId ?? null,
      q.limit,
    ];
    return (await query<AuditRow>(this.ctx.pool, SQL.auditPage, values)).map(toAuditRecord);
  }

  async audit(realmId: string, opts: { action?: string; targetId?: string; limit: number }): Promise<AuditRecord[]> {
    const rows = await query<AuditRow>(this.ctx.pool, SQL.audit, [realmId, opts.action ?? null, opts.targetId ?? null, opts.limit]);
    return rows.map(toAuditRecord);
  }
}
