// SQLite implementation of WebhookStore. Every write is one immediate() unit, so the outbox's
// fan-out of two processes on one file never hands an event out twice.
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
import { type EventRow, insertSql, MARKED_MOVEMENT_COLUMNS, type MarkedMovementRow, outboxHead, toEventHeader } from '../record-rows.ts';
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
import { finishHeldJobs } from './job-store.ts';
import { type Db, immediate, immediateForgetting, type Synchronous } from './open.ts';
import { forgetEndpoints, recordWriter } from './records.ts';
import { objectRows } from './rows.ts';

const question = () => '?';
const bit = (b: boolean) => (b ? 1 : 0);
const oldestOf = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));

export class SqliteWebhookStore implements WebhookStore {
  private readonly s;

  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
  ) {
    this.s = {
      insert: db.prepare(insertSql('webhooks', WEBHOOK_COLUMNS, question)),
      get: db.prepare('SELECT * FROM webhooks WHERE realm_id = ? AND id = ?'),
      getById: db.prepare('SELECT * FROM webhooks WHERE id = ?'),
      list: db.prepare('SELECT * FROM webhooks WHERE realm_id = ? ORDER BY created_at, id'),
      update: db.prepare(updateWebhookSql(question)),
      delete: db.prepare('DELETE FROM webhooks WHERE id = ?'),
      deleteAttempts: db.prepare('DELETE FROM webhook_attempts WHERE webhook_id = ?'),
      deleteDeliveries: db.prepare('DELETE FROM webhook_deliveries WHERE webhook_id = ?'),
      insertDelivery: db.prepare(insertSql('webhook_deliveries', DELIVERY_COLUMNS, question)),
      insertAttempt: db.prepare(insertSql('webhook_attempts', ATTEMPT_COLUMNS, question)),
      // The events with their data: the bodies of the deliveries they make (dispatch's contexts).
      undispatched: objectRows(
        db.prepare('SELECT id, type, realm_id, created_at, data FROM events WHERE dispatched_at IS NULL ORDER BY created_at, id LIMIT ?'),
      ),
      // The movements whose points.consumed event is still owed (migration 021), oldest first.
      marked: objectRows(
        db.prepare(`SELECT ${MARKED_MOVEMENT_COLUMNS} FROM points_transactions WHERE event_pending IS NOT NULL ORDER BY created_at, id LIMIT ?`),
      ),
      unmark: db.prepare('UPDATE points_transactions SET event_pending = NULL WHERE id IN (SELECT value FROM json_each(?))'),
      enabledOf: objectRows(db.prepare('SELECT * FROM webhooks WHERE enabled = 1 AND realm_id IN (SELECT value FROM json_each(?)) ORDER BY created_at, id')),
      markDispatched: db.prepare('UPDATE events SET dispatched_at = ? WHERE id IN (SELECT value FROM json_each(?))'),
      insertEventDispatched: db.prepare('INSERT INTO events (id, type, realm_id, created_at, data, dispatched_at) VALUES (?, ?, ?, ?, ?, ?)'),
      delivery: db.prepare('SELECT * FROM webhook_deliveries WHERE id = ?'),
      deliveryOf: db.prepare('SELECT * FROM webhook_deliveries WHERE webhook_id = ? AND id = ?'),
      event: db.prepare('SELECT * FROM events WHERE id = ?'),
      deliveries: db.prepare(listDeliveriesSql((n) => `@p${n}`, '')),
      attemptsOf: db.prepare('SELECT * FROM webhook_attempts WHERE delivery_id IN (SELECT value FROM json_each(?)) ORDER BY at, id'),
      prunable: db
        .prepare(`SELECT id FROM events e WHERE dispatched_at IS NOT NULL AND created_at < ? AND NOT EXISTS (
        SELECT 1 FROM webhook_deliveries d JOIN jobs j ON j.id = d.id WHERE d.event_id = e.id AND j.status IN ('pending', 'running')) LIMIT ?`)
        .pluck(),
      pruneAttempts: db.prepare(
        'DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE event_id IN (SELECT value FROM json_each(?)))',
      ),
      pruneJobs: db.prepare('DELETE FROM jobs WHERE id IN (SELECT id FROM webhook_deliveries WHERE event_id IN (SELECT value FROM json_each(?)))'),
      pruneDeliveries: db.prepare('DELETE FROM webhook_deliveries WHERE event_id IN (SELECT value FROM json_each(?))'),
      pruneEvents: db.prepare('DELETE FROM events WHERE id IN (SELECT value FROM json_each(?))'),
      pruneAudit: db.prepare('DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE at < ? LIMIT ?)'),
      anyUndispatched: db
        .prepare('SELECT 1 FROM events WHERE dispatched_at IS NULL UNION ALL SELECT 1 FROM points_transactions WHERE event_pending IS NOT NULL LIMIT 1')
        .pluck(),
      outbox: db.prepare('SELECT count(*) AS depth, min(created_at) AS oldest FROM events WHERE dispatched_at IS NULL'),
      outboxMarked: db.prepare('SELECT count(*) AS depth, min(created_at) AS oldest FROM points_transactions WHERE event_pending IS NOT NULL'),
    };
  }

  /** immediate() for a unit that may write endpoints: what records.ts eventsOwed knows of them goes. */
  private writingEndpoints<T>(fn: () => Synchronous<T>): Promise<T> {
    return immediateForgetting(this.db, () => forgetEndpoints(this.db), fn);
  }

  async create(endpoint: WebhookEndpoint, audit: AuditRecord): Promise<void> {
    await this.writingEndpoints(() => {
      this.s.insert.run(...webhookValues(endpoint, bit, this.secrets));
      recordWriter(this.db, this.secrets)({ events: [], audit: [audit], jobs: [] });
    });
  }

  async get(realmId: string, id: string): Promise<WebhookEndpoint | null> {
    const r = this.s.get.get(realmId, id) as WebhookRow | undefined;
    return r ? toEndpoint(r, this.secrets) : null;
  }

  async list(realmId: string): Promise<WebhookEndpoint[]> {
    return (this.s.list.all(realmId) as WebhookRow[]).map((r) => toEndpoint(r, this.secrets));
  }

  update(realmId: string, id: string, change: EndpointChange): Promise<WebhookEndpoint | null> {
    return this.writingEndpoints(() => {
      const r = this.s.get.get(realmId, id) as WebhookRow | undefined;
      if (!r) return null;
      return this.apply(toEndpoint(r, this.secrets), change);
    });
  }

  private apply(current: WebhookEndpoint, change: EndpointChange): WebhookEndpoint {
    const decided = change(current);
    if (!decided) return current;
    this.s.update.run(...updateWebhookValues(decided.endpoint, bit, this.secrets));
    if (decided.audit) recordWriter(this.db, this.secrets)({ events: [], audit: [decided.audit], jobs: [] });
    return decided.endpoint;
  }

  delete(realmId: string, id: string, audit: (e: WebhookEndpoint) => AuditRecord): Promise<WebhookEndpoint | null> {
    return this.writingEndpoints(() => {
      const r = this.s.get.get(realmId, id) as WebhookRow | undefined;
      if (!r) return null;
      const endpoint = toEndpoint(r, this.secrets);
      this.s.deleteAttempts.run(id);
      this.s.deleteDeliveries.run(id);
      this.s.delete.run(id);
      recordWriter(this.db, this.secrets)({ events: [], audit: [audit(endpoint)], jobs: [] });
      return endpoint;
    });
  }

  async queueDirect(event: GatehouseEvent, delivery: Delivery, job: Job): Promise<void> {
    await immediate(this.db, () => {
      this.s.insertEventDispatched.run(event.id, event.type, event.realmId, event.createdAt, JSON.stringify(event.data), event.createdAt);
      this.s.insertDelivery.run(...deliveryValues(delivery));
      recordWriter(this.db, this.secrets)({ events: [], audit: [], jobs: [job] });
    });
  }

  dispatch(
    now: number,
    limit: number,
    plan: (events: EventHeader[], subscribers: Subscriber[]) => { deliveries: Delivery[]; jobs: Job[] },
  ): Promise<Dispatched> {
    return immediate(this.db, () => {
      // The outbox's rows and its marked movements, merged oldest first; a marked movement's event
      // is written out as a row dispatched now and the mark cleared.
      const head = outboxHead(this.s.undispatched.all(limit) as EventRow[], this.s.marked.all(limit) as MarkedMovementRow[], limit);
      const rows = head.events;
      if (rows.length === 0) return { events: 0, contexts: new Map() };
      for (const e of head.fromMarks) this.s.insertEventDispatched.run(e.id, e.type, e.realm_id, e.created_at, e.data, now);
      if (head.movementIds.length > 0) this.s.unmark.run(JSON.stringify(head.movementIds));
      const events = rows.map(toEventHeader);
      const realms = [...new Set(events.map((e) => e.realmId))];
      const endpoints = this.s.enabledOf.all(JSON.stringify(realms)) as WebhookRow[];
      const planned = plan(events, endpoints.map(toSubscriber));
      for (const d of planned.deliveries) this.s.insertDelivery.run(...deliveryValues(d));
      recordWriter(this.db, this.secrets)({ events: [], audit: [], jobs: planned.jobs });
      if (head.rowIds.length > 0) this.s.markDispatched.run(now, JSON.stringify(head.rowIds));
      return { events: events.length, contexts: deliveryContextsOf(planned.deliveries, endpoints, rows, this.secrets) };
    });
  }

  async deliveryContexts(deliveryIds: readonly string[]): Promise<Map<string, DeliveryContext>> {
    const deliveries: Delivery[] = [];
    // A claim's deliveries mostly go to a few endpoints, an event's to each of its endpoints: each
    // endpoint and event is read once (undefined: gone).
    const endpoints = new Map<string, WebhookRow | undefined>();
    const events = new Map<string, EventRow | undefined>();
    for (const id of deliveryIds) {
      const d = this.s.delivery.get(id) as DeliveryRow | undefined;
      if (!d) continue;
      deliveries.push(toDelivery(d));
      if (!endpoints.has(d.webhook_id)) endpoints.set(d.webhook_id, this.s.getById.get(d.webhook_id) as WebhookRow | undefined);
      if (!events.has(d.event_id)) events.set(d.event_id, this.s.event.get(d.event_id) as EventRow | undefined);
    }
    const found = <T>(rows: Map<string, T | undefined>) => [...rows.values()].filter((r) => r !== undefined);
    return deliveryContextsOf(deliveries, found(endpoints), found(events), this.secrets);
  }

  recordAttempts(owner: string, attempts: readonly ClaimedAttempt[], change: EndpointAttemptsChange): Promise<boolean[]> {
    // The change may disable an endpoint (webhooks/model.ts), which eventsOwed's cache must then
    // forget (records.ts); the rest of what it writes (a failing streak begun or ended) the cache
    // does not hold, so a claim that disables none leaves it.
    let disabled = false;
    return immediateForgetting(
      this.db,
      () => {
        if (disabled) forgetEndpoints(this.db);
      },
      () => {
        const finished = finishHeldJobs(
          this.db,
          this.secrets,
          owner,
          attempts.map((a) => a.outcome),
        );
        for (const [webhookId, ofEndpoint] of attemptsByEndpoint(attempts)) {
          const w = this.s.getById.get(webhookId) as WebhookRow | undefined;
          // An endpoint deleted meanwhile went with its delivery records: its attempts go too.
          if (!w) continue;
          for (const a of ofEndpoint) this.s.insertAttempt.run(...attemptValues(a.attempt));
          const current = toEndpoint(w, this.secrets);
          if (this.apply(current, (c) => change(c, ofEndpoint)).enabled !== current.enabled) disabled = true;
        }
        return finished;
      },
    );
  }

  async getDelivery(webhookId: string, deliveryId: string): Promise<Delivery | null> {
    const d = this.s.deliveryOf.get(webhookId, deliveryId) as DeliveryRow | undefined;
    return d ? toDelivery(d) : null;
  }

  async listDeliveries(webhookId: string, opts: { status?: DeliveryStatus; after: DeliveryCursor | null; limit: number }): Promise<DeliveryView[]> {
    const status = opts.status === undefined ? null : JOB_STATUS_OF_DELIVERY[opts.status];
    const rows = this.s.deliveries.all({
      p1: webhookId,
      p2: status,
      p3: opts.after?.createdAt ?? null,
      p4: opts.after?.id ?? null,
      p5: opts.limit,
    }) as DeliveryJobRow[];
    const attempts = (this.s.attemptsOf.all(JSON.stringify(rows.map((r) => r.id))) as AttemptRow[]).map(toAttempt);
    return rows.map((r) => toDeliveryView(r, attempts));
  }

  async queueDelivery(delivery: Delivery, job: Job): Promise<void> {
    await immediate(this.db, () => {
      this.s.insertDelivery.run(...deliveryValues(delivery));
      recordWriter(this.db, this.secrets)({ events: [], audit: [], jobs: [job] });
    });
  }

  pruneEvents(before: number, limit: number): Promise<number> {
    return immediate(this.db, () => {
      const ids = JSON.stringify(this.s.prunable.all(before, limit));
      this.s.pruneAttempts.run(ids);
      this.s.pruneJobs.run(ids);
      this.s.pruneDeliveries.run(ids);
      return this.s.pruneEvents.run(ids).changes;
    });
  }

  pruneAudit(before: number, limit: number): Promise<number> {
    return immediate(this.db, () => this.s.pruneAudit.run(before, limit).changes);
  }

  async anyUndispatched(): Promise<boolean> {
    return this.s.anyUndispatched.get() !== undefined;
  }

  async outbox(): Promise<{ depth: number; oldestCreatedAt: number | null }> {
    const rows = this.s.outbox.get() as { depth: number; oldest: number | null };
    const marked = this.s.outboxMarked.get() as { depth: number; oldest: number | null };
    return { depth: rows.depth + marked.depth, oldestCreatedAt: oldestOf(rows.oldest, marked.oldest) };
  }
}
