// SQLite: the writer of a use case's Emitted records (outbox events, audit records, queued jobs),
// called inside the use case's own immediate() unit, and the reads of the outbox and audit log.
import type { AuditRecord } from '../../audit/model.ts';
import type { SecretBox } from '../../crypto/secrets.ts';
import type { GatehouseEvent } from '../../events/model.ts';
import type { Emitted } from '../../events/plan.ts';
import type { AuditQuery, RecordStore } from '../../events/store.ts';
import { createCache } from '../../lib/cache.ts';
import { perObject } from '../../lib/memo.ts';
import { CONSUMED_EVENT } from '../../points/events.ts';
import { subscribes, type WebhookEndpoint } from '../../webhooks/model.ts';
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
import type { Db } from './open.ts';
import { otherCommitsSignal } from './other-commits.ts';

const question = () => '?';

/** Writes Emitted records on `db`; to be called inside a transaction (immediate()). */
export type RecordWriter = (emitted: Emitted) => void;

const statementsOf = perObject((db: Db) => ({
  event: db.prepare(insertSql('events', EVENT_COLUMNS, question)),
  audit: db.prepare(insertSql('audit_log', AUDIT_COLUMNS, question)),
  job: db.prepare(insertSql('jobs', JOB_COLUMNS, question)),
  subscribers: db.prepare('SELECT event_types FROM webhooks WHERE realm_id = ? AND enabled = 1').pluck(),
}));

type Subscribing = Pick<WebhookEndpoint, 'enabled' | 'eventTypes'>;

// A realm's enabled webhook endpoints, what each subscribes to, per connection: the outbox keeps
// only what some receiver is owed (docs/events.md "Which events an endpoint gets"), so an event no
// endpoint of its realm subscribes to is neither built nor written (most realms, on every consume).
// Dropped when another connection has committed (other-commits.ts) and around this connection's
// own writes of endpoints (forgetEndpoints).
const endpointsOf = perObject((db: Db) => createCache<Subscribing[]>({ max: 1024, invalidation: otherCommitsSignal(db) }));

/** Whether an event of `type` in `realmId` is owed to an enabled endpoint now (webhooks/model.ts
 *  subscribes). Inside a transaction (immediate()). */
export function eventsOwed(db: Db, realmId: string, type: string): boolean {
  const endpoints = endpointsOf(db);
  let subscribing = endpoints.get(realmId);
  if (subscribing === undefined) {
    const types = statementsOf(db).subscribers.all(realmId) as string[];
    subscribing = types.map((t) => ({ enabled: true, eventTypes: JSON.parse(t) as string[] }));
    endpoints.set(realmId, subscribing);
  }
  for (const e of subscribing) if (subscribes(e, type)) return true;
  return false;
}

/** Drops what eventsOwed knows: after this connection writes endpoints, and once that write has
 *  settled (immediateForgetting). */
export function forgetEndpoints(db: Db): void {
  endpointsOf(db).clear();
}

/** The writer of `db`, its statements prepared once per connection; a job's secret is sealed
 *  with `secrets` (crypto/secrets.ts). */
export function recordWriter(db: Db, secrets: SecretBox | null = null): RecordWriter {
  const s = statementsOf(db);
  return (emitted) => {
    for (const e of emitted.events) if (eventsOwed(db, e.realmId, e.type)) s.event.run(...eventValues(e));
    for (const a of emitted.audit) s.audit.run(...auditValues(a));
    for (const j of emitted.jobs) s.job.run(...jobValues(j, secrets));
  };
}

export class SqliteRecordStore implements RecordStore {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      events: db.prepare('SELECT * FROM events WHERE realm_id = ? ORDER BY created_at DESC, id DESC LIMIT ?'),
      eventsOfType: db.prepare('SELECT * FROM events WHERE realm_id = ? AND type = ? ORDER BY created_at DESC, id DESC LIMIT ?'),
      // The realm's movements whose points.consumed event the outbox still holds as a mark (migration 021).
      marked: db.prepare(
        `SELECT ${MARKED_MOVEMENT_COLUMNS} FROM points_transactions WHERE event_pending IS NOT NULL AND realm_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`,
      ),
      audit: db.prepare(`SELECT * FROM audit_log WHERE realm_id = @realm AND (@action IS NULL OR action = @action)
        AND (@target IS NULL OR target_id = @target) ORDER BY at DESC, id DESC LIMIT @limit`),
      auditPage: db.prepare(`SELECT * FROM audit_log WHERE realm_id = @realm AND (@action IS NULL OR action = @action)
        AND (@target IS NULL OR target_id = @target) AND (@actor IS NULL OR actor_id = @actor)
        AND (@since IS NULL OR at >= @since) AND (@until IS NULL OR at < @until)
        AND (@afterAt IS NULL OR at < @afterAt OR (at = @afterAt AND id < @afterId)) ORDER BY at DESC, id DESC LIMIT @limit`),
    };
  }

  async auditPage(realmId: string, q: AuditQuery): Promise<AuditRecord[]> {
    const rows = this.s.auditPage.all({
      realm: realmId,
      action: q.action ?? null,
      target: q.targetId ?? null,
      actor: q.actorId ?? null,
      since: q.since ?? null,
      until: q.until ?? null,
      afterAt: q.after?.at ?? null,
      afterId: q.after?.auditId ?? null,
      limit: q.limit,
    });
    return (rows as AuditRow[]).map(toAuditRecord);
  }

  async events(realmId: string, opts: { type?: string; limit: number }): Promise<GatehouseEvent[]> {
    const rows = opts.type === undefined ? this.s.events.all(realmId, opts.limit) : this.s.eventsOfType.all(realmId, opts.type, opts.limit);
    const marked = opts.type === undefined || opts.type === CONSUMED_EVENT ? (this.s.marked.all(realmId, opts.limit) as MarkedMovementRow[]) : [];
    return outboxNewest(rows as EventRow[], marked, opts.limit).map(toEvent);
  }

  async audit(realmId: string, opts: { action?: string; targetId?: string; limit: number }): Promise<AuditRecord[]> {
    const rows = this.s.audit.all({ realm: realmId, action: opts.action ?? null, target: opts.targetId ?? null, limit: opts.limit });
    return (rows as AuditRow[]).map(toAuditRecord);
  }
}
