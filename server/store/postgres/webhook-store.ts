// PostgreSQL implementation of WebhookStore, the twin of sqlite/webhook-store.ts over the same rows.
// The outbox's fan-out locks the events it hands out with FOR UPDATE SKIP LOCKED: replicas relaying
// together each take other events, and an event is handed out once.
import type { AuditRecord } from '../../audit/model.ts';
import type { SecretBox } from '../../crypto/secrets.ts';
import type { EventHeader, GatehouseEvent } from '../../events/model.ts';
import type { Job } from '../../jobs/model.ts';
import type { Delivery, DeliveryStatus, DeliveryView, Subscriber, WebhookEndpoint } from '../../webhooks/model.ts';
import type {
  ClaimedAttempt,
  DeliveryContext,
  DeliveryCursor,
  Dispatched,
  EndpointAttemptsChange,
  EndpointChange,
  WebhookStore,
} from '../../webhooks/store.ts';
import { EVENT_COLUMNS, type EventRow, insertSql, MARKED_MOVEMENT_COLUMNS, type MarkedMovementRow, outboxHead, toEventHeader } from '../record-rows.ts';
import {
  ATTEMPT_COLUMNS,
  type AttemptRow,
  attemptsByEndpoint,
  attemptValues,
  DELIVERY_COLUMNS,
  type DeliveryJobRow,
  type DeliveryRow,
  deliveryContextsOf,
  deliveryValues,
  JOB_STATUS_OF_DELIVERY,
  listDeliveriesSql,
  toAttempt,
  toDelivery,
  toDeliveryView,
  toEndpoint,
  toSubscriber,
  updateWebhookSql,
  updateWebhookValues,
  WEBHOOK_COLUMNS,
  type WebhookRow,
  webhookValues,
} from '../webhook-rows.ts';
import { columnArrays, finishHeldJobs, insertJobs, insertRowsSql, updateRowsByIdSql } from './job-store.ts';
import { writeEmitted } from './records.ts';
import { inTransaction, query, type Tx, type TxContext } from './tx.ts';

const dollar = (n: number) => `$${n}`;
const same = (b: boolean) => b;

/** The statements (exported for the test asking PostgreSQL for their plans). */
export const WEBHOOK_SQL = {
  insert: insertSql('webhooks', WEBHOOK_COLUMNS, dollar),
  get: 'SELECT * FROM webhooks WHERE realm_id = $1 AND id = $2',
  lock: 'SELECT * FROM webhooks WHERE realm_id = $1 AND id = $2 FOR UPDATE',
  getByIds: 'SELECT * FROM webhooks WHERE id = ANY($1::text[])',
  lockByIds: 'SELECT * FROM webhooks WHERE id = ANY($1::text[]) ORDER BY id COLLATE "C" FOR UPDATE',
  list: 'SELECT * FROM webhooks WHERE realm_id = $1 ORDER BY created_at, id COLLATE "C"',
  update: updateWebhookSql(dollar),
  delete: 'DELETE FROM webhooks WHERE id = $1',
  deleteAttempts: 'DELETE FROM webhook_attempts WHERE webhook_id = $1',
  deleteDeliveries: 'DELETE FROM webhook_deliveries WHERE webhook_id = $1',
  insertDelivery: insertSql('webhook_deliveries', DELIVERY_COLUMNS, dollar),
  insertDeliveries: insertRowsSql('webhook_deliveries', DELIVERY_COLUMNS, ['text', 'text', 'text', 'text', 'text', 'bigint']),
  insertAttempts: insertRowsSql('webhook_attempts', ATTEMPT_COLUMNS, ['text', 'text', 'text', 'bigint', 'int', 'text', 'bigint']),
  // The events with their data: the bodies of the deliveries they make (dispatch's contexts).
  undispatched: `SELECT id, type, realm_id, created_at, data FROM events WHERE dispatched_at IS NULL ORDER BY created_at, id COLLATE "C" LIMIT $1 FOR UPDATE SKIP LOCKED`,
  // The movements whose points.consumed event is still owed (migration 021), oldest first.
  marked: `SELECT ${MARKED_MOVEMENT_COLUMNS} FROM points_transactions WHERE event_pending IS NOT NULL
    ORDER BY created_at, id COLLATE "C" LIMIT $1 FOR UPDATE SKIP LOCKED`,
  // `$1` the movements' ids, `$2` null once per id.
  unmark: updateRowsByIdSql('points_transactions', ['event_pending'], ['bool']),
  insertEventsDispatched: insertRowsSql('events', [...EVENT_COLUMNS, 'dispatched_at'], ['text', 'text', 'text', 'bigint', 'text', 'bigint']),
  enabledOf: `SELECT * FROM webhooks WHERE enabled AND realm_id = ANY($1::text[]) ORDER BY created_at, id COLLATE "C"`,
  // `$1` the ids, `$2` the time, once per id.
  markDispatched: updateRowsByIdSql('events', ['dispatched_at'], ['bigint']),
  insertEventDispatched: 'INSERT INTO events (id, type, realm_id, created_at, data, dispatched_at) VALUES ($1, $2, $3, $4, $5, $6)',
  // Each delivery with its endpoint's and its event's rows (as JSON objects of their columns).
  // One delivery, then its endpoint and event, looked up per id (job-store.ts rowsByIdSql: an index
  // lookup each whatever the tables' sizes when the statement was planned).
  contexts: `SELECT c.* FROM unnest($1::text[]) AS ids(id) CROSS JOIN LATERAL (
    SELECT d.*, row_to_json(w) AS endpoint, row_to_json(e) AS event FROM webhook_deliveries d
    JOIN webhooks w ON w.id = d.webhook_id JOIN events e ON e.id = d.event_id WHERE d.id = ids.id OFFSET 0) c`,
  deliveryOf: 'SELECT * FROM webhook_deliveries WHERE webhook_id = $1 AND id = $2',
  deliveries: listDeliveriesSql((n, cast) => `$${n}::${cast}`, ' COLLATE "C"'),
  attemptsOf: 'SELECT * FROM webhook_attempts WHERE delivery_id = ANY($1::text[]) ORDER BY at, id COLLATE "C"',
  prunable: `SELECT id FROM events e WHERE dispatched_at IS NOT NULL AND created_at < $1 AND NOT EXISTS (
    SELECT 1 FROM webhook_deliveries d JOIN jobs j ON j.id = d.id WHERE d.event_id = e.id AND j.status IN ('pending', 'running'))
    LIMIT $2 FOR UPDATE SKIP LOCKED`,
  pruneAttempts: 'DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE event_id = ANY($1::text[]))',
  pruneJobs: 'DELETE FROM jobs WHERE id IN (SELECT id FROM webhook_deliveries WHERE event_id = ANY($1::text[]))',
  pruneDeliveries: 'DELETE FROM webhook_deliveries WHERE event_id = ANY($1::text[])',
  pruneEvents: 'DELETE FROM events WHERE id = ANY($1::text[])',
  pruneAudit: 'DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE at < $1 LIMIT $2)',
  anyUndispatched: 'SELECT 1 FROM events WHERE dispatched_at IS NULL UNION ALL SELECT 1 FROM points_transactions WHERE event_pending IS NOT NULL LIMIT 1',
  outbox: `SELECT e.depth + m.depth AS depth, LEAST(e.oldest, m.oldest) AS oldest
    FROM (SELECT count(*)::int AS depth, min(created_at) AS oldest FROM events WHERE dispatched_at IS NULL) e,
      (SELECT count(*)::int AS depth, min(created_at) AS oldest FROM points_transactions WHERE event_pending IS NOT NULL) m`,
};

export class PostgresWebhookStore implements WebhookStore {
  constructor(
    private readonly ctx: TxContext,
    private readonly secrets: SecretBox,
  ) {}

  async create(endpoint: WebhookEndpoint, audit: AuditRecord): Promise<void> {
    await inTransaction(this.ctx, 'createWebhook', async (tx) => {
      tx.run(WEBHOOK_SQL.insert, webhookValues(endpoint, same, this.secrets));
      writeEmitted(tx, { events: [], audit: [audit], jobs: [] }, this.secrets);
    });
  }

  async get(realmId: string, id: string): Promise<WebhookEndpoint | null> {
    const [r] = await query<WebhookRow>(this.ctx.pool, WEBHOOK_SQL.get, [realmId, id]);
    return r ? toEndpoint(r, this.secrets) : null;
  }

  async list(realmId: string): Promise<WebhookEndpoint[]> {
    return (await query<WebhookRow>(this.ctx.pool, WEBHOOK_SQL.list, [realmId])).map((r) => toEndpoint(r, this.secrets));
  }

  update(realmId: string, id: string, change: EndpointChange): Promise<WebhookEndpoint | null> {
    return inTransaction(this.ctx, 'updateWebhook', async (tx) => {
      const r = await tx.row<WebhookRow>(WEBHOOK_SQL.lock, [realmId, id]);
      return r ? apply(tx, toEndpoint(r, this.secrets), change, this.secrets) : null;
    });
  }

  delete(realmId: string, id: string, audit: (e: WebhookEndpoint) => AuditRecord): Promise<WebhookEndpoint | null> {
    return inTransaction(this.ctx, 'deleteWebhook', async (tx) => {
      const r = await tx.row<WebhookRow>(WEBHOOK_SQL.lock, [realmId, id]);
      if (!r) return null;
      const endpoint = toEndpoint(r, this.secrets);
      tx.run(WEBHOOK_SQL.deleteAttempts, [id]);
      tx.run(WEBHOOK_SQL.deleteDeliveries, [id]);
      tx.run(WEBHOOK_SQL.delete, [id]);
      writeEmitted(tx, { events: [], audit: [audit(endpoint)], jobs: [] }, this.secrets);
      return endpoint;
    });
  }

  async queueDirect(event: GatehouseEvent, delivery: Delivery, job: Job): Promise<void> {
    await inTransaction(this.ctx, 'queueWebhookTest', async (tx) => {
      tx.run(WEBHOOK_SQL.insertEventDispatched, [event.id, event.type, event.realmId, event.createdAt, JSON.stringify(event.data), event.createdAt]);
      tx.run(WEBHOOK_SQL.insertDelivery, deliveryValues(delivery));
      writeEmitted(tx, { events: [], audit: [], jobs: [job] }, this.secrets);
    });
  }

  dispatch(
    now: number,
    limit: number,
    plan: (events: EventHeader[], subscribers: Subscriber[]) => { deliveries: Delivery[]; jobs: Job[] },
  ): Promise<Dispatched> {
    return inTransaction(this.ctx, 'dispatchEvents', async (tx) => {
      // The outbox's rows and its marked movements, merged oldest first; a marked movement's event
      // is written out as a row dispatched now and the mark cleared.
      const [undispatched, marked] = await Promise.all([
        tx.rows<EventRow>(WEBHOOK_SQL.undispatched, [limit]),
        tx.rows<MarkedMovementRow>(WEBHOOK_SQL.marked, [limit]),
      ]);
      const head = outboxHead(undispatched, marked, limit);
      const rows = head.events;
      if (rows.length === 0) return { events: 0, contexts: new Map() };
      if (head.fromMarks.length > 0) {
        const values = head.fromMarks.map((e) => [e.id, e.type, e.realm_id, e.created_at, e.data, now]);
        tx.run(WEBHOOK_SQL.insertEventsDispatched, columnArrays(values, EVENT_COLUMNS.length + 1));
        tx.run(WEBHOOK_SQL.unmark, [head.movementIds, head.movementIds.map(() => null)]);
      }
      const events = rows.map(toEventHeader);
      const realms = [...new Set(events.map((e) => e.realmId))];
      const endpoints = await tx.rows<WebhookRow>(WEBHOOK_SQL.enabledOf, [realms]);
      const planned = plan(events, endpoints.map(toSubscriber));
      if (planned.deliveries.length > 0) tx.run(WEBHOOK_SQL.insertDeliveries, columnArrays(planned.deliveries.map(deliveryValues), DELIVERY_COLUMNS.length));
      insertJobs(tx, planned.jobs, this.secrets);
      if (head.rowIds.length > 0) tx.run(WEBHOOK_SQL.markDispatched, [head.rowIds, head.rowIds.map(() => now)]);
      return { events: events.length, contexts: deliveryContextsOf(planned.deliveries, endpoints, rows, this.secrets) };
    });
  }

  async deliveryContexts(deliveryIds: readonly string[]): Promise<Map<string, DeliveryContext>> {
    const rows = await query<DeliveryRow & { endpoint: WebhookRow; event: EventRow }>(this.ctx.pool, WEBHOOK_SQL.contexts, [deliveryIds]);
    return deliveryContextsOf(
      rows.map(toDelivery),
      rows.map((r) => r.endpoint),
      rows.map((r) => r.event),
      this.secrets,
    );
  }

  recordAttempts(owner: string, attempts: readonly ClaimedAttempt[], change: EndpointAttemptsChange): Promise<boolean[]> {
    const byEndpoint = attemptsByEndpoint(attempts);
    return inTransaction(this.ctx, 'recordWebhookAttempts', async (tx) => {
      const [finished, present] = await Promise.all([
        finishHeldJobs(
          tx,
          owner,
          attempts.map((a) => a.outcome),
          this.secrets,
        ),
        byEndpoint.size > 0 ? tx.rows<WebhookRow>(WEBHOOK_SQL.getByIds, [[...byEndpoint.keys()]]) : [],
      ]);
      // An endpoint deleted meanwhile went with its delivery records: its attempts go too.
      const made = present.flatMap((r) => byEndpoint.get(r.id)!.map((a) => attemptValues(a.attempt)));
      if (made.length > 0) tx.run(WEBHOOK_SQL.insertAttempts, columnArrays(made, ATTEMPT_COLUMNS.length));
      // Most claims change no endpoint (deliveries to a healthy one, more failures of a failing
      // one): decided on the rows as read, without a lock, so replicas recording attempts to one
      // endpoint do not queue behind each other (one that changes nothing commits as if before a
      // concurrent one that does). One that changes is locked and decided again on its locked
      // row, which a concurrent recording may have changed meanwhile.
      const changing = present.filter((r) => change(toEndpoint(r, this.secrets), byEndpoint.get(r.id)!) !== null).map((r) => r.id);
      if (changing.length > 0) {
        for (const r of await tx.rows<WebhookRow>(WEBHOOK_SQL.lockByIds, [changing])) {
          apply(tx, toEndpoint(r, this.secrets), (current) => change(current, byEndpoint.get(r.id)!), this.secrets);
        }
      }
      return finished;
    });
  }

  async getDelivery(webhookId: string, deliveryId: string): Promise<Delivery | null> {
    const [d] = await query<DeliveryRow>(this.ctx.pool, WEBHOOK_SQL.deliveryOf, [webhookId, deliveryId]);
    return d ? toDelivery(d) : null;
  }

  async listDeliveries(webhookId: string, opts: { status?: DeliveryStatus; after: DeliveryCursor | null; limit: number }): Promise<DeliveryView[]> {
    const status = opts.status === undefined ? null : JOB_STATUS_OF_DELIVERY[opts.status];
    const rows = await query<DeliveryJobRow>(this.ctx.pool, WEBHOOK_SQL.deliveries, [
      webhookId,
      status,
      opts.after?.createdAt ?? null,
      opts.after?.id ?? null,
      opts.limit,
    ]);
    const attempts = (await query<AttemptRow>(this.ctx.pool, WEBHOOK_SQL.attemptsOf, [rows.map((r) => r.id)])).map(toAttempt);
    return rows.map((r) => toDeliveryView(r, attempts));
  }

  async queueDelivery(delivery: Delivery, job: Job): Promise<void> {
    await inTransaction(this.ctx, 'queueWebhookDelivery', async (tx) => {
      tx.run(WEBHOOK_SQL.insertDelivery, deliveryValues(delivery));
      writeEmitted(tx, { events: [], audit: [], jobs: [job] }, this.secrets);
    });
  }

  pruneEvents(before: number, limit: number): Promise<number> {
    return inTransaction(this.ctx, 'pruneEvents', async (tx) => {
      const ids = (await tx.rows<{ id: string }>(WEBHOOK_SQL.prunable, [before, limit])).map((r) => r.id);
      if (ids.length === 0) return 0;
      tx.run(WEBHOOK_SQL.pruneAttempts, [ids]);
      tx.run(WEBHOOK_SQL.pruneJobs, [ids]);
      tx.run(WEBHOOK_SQL.pruneDeliveries, [ids]);
      return tx.run(WEBHOOK_SQL.pruneEvents, [ids]);
    });
  }

  pruneAudit(before: number, limit: number): Promise<number> {
    return inTransaction(this.ctx, 'pruneAudit', (tx) => tx.run(WEBHOOK_SQL.pruneAudit, [before, limit]));
  }

  async anyUndispatched(): Promise<boolean> {
    return (await query(this.ctx.pool, WEBHOOK_SQL.anyUndispatched, [])).length > 0;
  }

  async outbox(): Promise<{ depth: number; oldestCreatedAt: number | null }> {
    const [r] = await query<{ depth: number; oldest: number | string | null }>(this.ctx.pool, WEBHOOK_SQL.outbox, []);
    return { depth: r?.depth ?? 0, oldestCreatedAt: r?.oldest == null ? null : Number(r.oldest) };
  }
}

function apply(tx: Tx, current: WebhookEndpoint, change: EndpointChange, secrets: SecretBox): WebhookEndpoint {
  const decided = change(current);
  if (!decided) return current;
  tx.run(WEBHOOK_SQL.update, updateWebhookValues(decided.endpoint, same, secrets));
  if (decided.audit) writeEmitted(tx, { events: [], audit: [decided.audit], jobs: [] }, secrets);
  return decided.endpoint;
}
