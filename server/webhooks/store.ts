// Storage of webhook endpoints, their deliveries and attempts. Each method is one transaction;
// what a change or an attempt makes of an endpoint is model.ts's decision, passed in.
import type { AuditRecord } from '../audit/model.ts';
import type { EventHeader, GatehouseEvent } from '../events/model.ts';
import type { Job } from '../jobs/model.ts';
import type { AttemptOutcome } from '../jobs/retry.ts';
import type { AttemptEnd, Delivery, DeliveryAttempt, DeliveryStatus, DeliveryView, Subscriber, WebhookEndpoint } from './model.ts';

/** Where a listing of deliveries goes on from: the last one of the previous page. */
export interface DeliveryCursor {
  createdAt: number;
  id: string;
}

/** A change of one endpoint with its audit record; null leaves the endpoint as it is (nothing
 *  written). */
export type EndpointChange = (current: WebhookEndpoint) => { endpoint: WebhookEndpoint; audit: AuditRecord | null } | null;

/** A delivery with what its attempt needs: its endpoint, its event and the body sent (model.ts
 *  storedEventBody, from the data as stored). */
export interface DeliveryContext {
  delivery: Delivery;
  endpoint: WebhookEndpoint;
  event: EventHeader;
  body: string;
}

/** A claimed delivery's attempt, as recordAttempts writes it: the attempt (null when none was made:
 *  its endpoint or event gone, or the endpoint disabled), whether it delivered and when it ended
 *  (what its endpoint's failing streak counts), and what it makes of the delivery's job, decided on
 *  the job as its claim holds it (while the lease is this process's, nobody else changes it). */
export interface ClaimedAttempt extends AttemptEnd {
  deliveryId: string;
  attempt: DeliveryAttempt | null;
  outcome: AttemptOutcome;
}

/** What a hand-out of outbox events wrote: how many events it handed, and the context of each
 *  delivery it made, by delivery id, read in its own transaction. */
export interface Dispatched {
  events: number;
  contexts: Map<string, DeliveryContext>;
}

/** What a claim's attempts to one endpoint make of it, with its audit record; null leaves it as
 *  it is (nothing written, nothing locked). */
export type EndpointAttemptsChange = (
  current: WebhookEndpoint,
  attempts: readonly ClaimedAttempt[],
) => { endpoint: WebhookEndpoint; audit: AuditRecord | null } | null;

export interface WebhookStore {
  create(endpoint: WebhookEndpoint, audit: AuditRecord): Promise<void>;
  get(realmId: string, id: string): Promise<WebhookEndpoint | null>;
  /** The realm's endpoints, oldest first. */
  list(realmId: string): Promise<WebhookEndpoint[]>;
  /** Applies `change` to the stored endpoint; the endpoint as it stands after (null: not found). */
  update(realmId: string, id: string, change: EndpointChange): Promise<WebhookEndpoint | null>;
  /** Removes the endpoint and its deliveries' records; its queued jobs then fail (no endpoint). */
  delete(realmId: string, id: string, audit: (e: WebhookEndpoint) => AuditRecord): Promise<WebhookEndpoint | null>;
  /** Writes `event` (already handed out: it is not fanned out) and its delivery to one endpoint. */
  queueDirect(event: GatehouseEvent, delivery: Delivery, job: Job): Promise<void>;
  /** Hands up to `limit` undispatched outbox events, oldest first, to their deliveries (`plan`
   *  given the events and every enabled endpoint of their realms; its jobs written as it gives
   *  them, possibly already held), and marks them dispatched; how many events were handed, and
   *  each delivery's context (each endpoint's secrets opened once). Events another replica is
   *  handing at the moment are skipped. */
  dispatch(
    now: number,
    limit: number,
    plan: (events: EventHeader[], subscribers: Subscriber[]) => { deliveries: Delivery[]; jobs: Job[] },
  ): Promise<Dispatched>;
  /** Deliveries with their endpoint and event, by delivery id (none for a delivery, or its
   *  endpoint or event, gone). */
  deliveryContexts(deliveryIds: readonly string[]): Promise<Map<string, DeliveryContext>>;
  /** Records a claim's attempts in one transaction: each attempt made; each delivery's job given
   *  its `outcome` (with the outcome's audit record) if `owner` still holds it; and `change` applied
   *  to each endpoint attempted, given its attempts. The endpoint's row is locked (against a
   *  replica recording its own attempts at the same time) only when `change` finds something to
   *  write. Per attempt, in order, whether its job was finished (false: the lease was lost; the
   *  attempt is kept). */
  recordAttempts(owner: string, attempts: readonly ClaimedAttempt[], change: EndpointAttemptsChange): Promise<boolean[]>;
  getDelivery(webhookId: string, deliveryId: string): Promise<Delivery | null>;
  /** The endpoint's deliveries, newest first, with their job's state and attempts. */
  listDeliveries(webhookId: string, opts: { status?: DeliveryStatus; after: DeliveryCursor | null; limit: number }): Promise<DeliveryView[]>;
  /** Queues a new delivery of an event to an endpoint (redeliver). */
  queueDelivery(delivery: Delivery, job: Job): Promise<void>;
  /** Deletes up to `limit` handed-out events created before `before` none of whose deliveries is
   *  still pending or running, with their deliveries, attempts and jobs (docs/events.md); how many
   *  events it deleted. */
  pruneEvents(before: number, limit: number): Promise<number>;
  /** Deletes up to `limit` audit records written before `before`; how many. */
  pruneAudit(before: number, limit: number): Promise<number>;
  /** Whether an outbox event waits to be handed out: a plain read, so an idle poll writes nothing. */
  anyUndispatched(): Promise<boolean>;
  /** Outbox events not yet handed out, and the oldest one's creation time. */
  outbox(): Promise<{ depth: number; oldestCreatedAt: number | null }>;
}
