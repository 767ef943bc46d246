// The rows of webhook endpoints, deliveries and attempts as both backends read and write them (the
// same columns in SQLite and PostgreSQL), and the records they make.
import { ENCRYPTED, type SecretBox } from '../crypto/secrets.ts';
import type { EventHeader } from '../events/model.ts';
import type { JobStatus } from '../jobs/model.ts';
import {
  type Delivery,
  type DeliveryAttempt,
  type DeliveryStatus,
  type DeliveryView,
  type Subscriber,
  storedEventBody,
  type WebhookEndpoint,
} from '../webhooks/model.ts';
import type { ClaimedAttempt, DeliveryContext } from '../webhooks/store.ts';
import { type EventRow, toEventHeader } from './record-rows.ts';
import { flag } from './row-values.ts';

export const WEBHOOK_COLUMNS = [
  'id',
  'realm_id',
  'url',
  'event_types',
  'description',
  'enabled',
  'secret',
  'previous_secret',
  'previous_secret_expires_at',
  'failing_since',
  'created_at',
  'updated_at',
] as const;
export const DELIVERY_COLUMNS = ['id', 'webhook_id', 'realm_id', 'event_id', 'event_type', 'created_at'] as const;
export const ATTEMPT_COLUMNS = ['id', 'delivery_id', 'webhook_id', 'at', 'http_status', 'error', 'duration_ms'] as const;

/** `enabled` as the backend stores a boolean (SQLite 0/1, PostgreSQL boolean); the signing
 *  secrets sealed (crypto/secrets.ts), opened again by toEndpoint. */
export const webhookValues = (e: WebhookEndpoint, bool: (b: boolean) => unknown, secrets: SecretBox): unknown[] => [
  e.id,
  e.realmId,
  e.url,
  JSON.stringify(e.eventTypes),
  e.description,
  bool(e.enabled),
  secrets.seal(ENCRYPTED.webhookSecret, e.secret),
  secrets.sealOrNull(ENCRYPTED.webhookPreviousSecret, e.previousSecret),
  e.previousSecretExpiresAt,
  e.failingSince,
  e.createdAt,
  e.updatedAt,
];

/** `UPDATE webhooks SET <every column but id and realm> WHERE id = …`, the id last. */
export function updateWebhookSql(placeholder: (n: number) => string): string {
  const columns = WEBHOOK_COLUMNS.slice(2);
  return `UPDATE webhooks SET ${columns.map((c, i) => `${c} = ${placeholder(i + 1)}`).join(', ')} WHERE id = ${placeholder(columns.length + 1)}`;
}
export const updateWebhookValues = (e: WebhookEndpoint, bool: (b: boolean) => unknown, secrets: SecretBox): unknown[] => [
  ...webhookValues(e, bool, secrets).slice(2),
  e.id,
];

/** The attempts made (not those of deliveries whose endpoint or event was gone), by endpoint. */
export function attemptsByEndpoint(attempts: readonly ClaimedAttempt[]): Map<string, Array<ClaimedAttempt & { attempt: DeliveryAttempt }>> {
  const groups = new Map<string, Array<ClaimedAttempt & { attempt: DeliveryAttempt }>>();
  for (const a of attempts) {
    if (a.attempt === null) continue;
    const group = groups.get(a.attempt.webhookId);
    if (group) group.push({ ...a, attempt: a.attempt });
    else groups.set(a.attempt.webhookId, [{ ...a, attempt: a.attempt }]);
  }
  return groups;
}

export const deliveryValues = (d: Delivery): unknown[] => [d.id, d.webhookId, d.realmId, d.eventId, d.eventType, d.createdAt];
export const attemptValues = (a: DeliveryAttempt): unknown[] => [a.id, a.deliveryId, a.webhookId, a.at, a.httpStatus, a.error, a.durationMs];

export interface WebhookRow {
  id: string;
  realm_id: string;
  url: string;
  event_types: string;
  description: string;
  enabled: number | boolean;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: number | string | null;
  failing_since: number | string | null;
  created_at: number | string;
  updated_at: number | string;
}

export interface DeliveryRow {
  id: string;
  webhook_id: string;
  realm_id: string;
  event_id: string;
  event_type: string;
  created_at: number | string;
}

/** A delivery joined with its job's state. */
export interface DeliveryJobRow extends DeliveryRow {
  status: JobStatus;
  attempts: number;
  run_at: number | string;
}

export interface AttemptRow {
  id: string;
  delivery_id: string;
  webhook_id: string;
  at: number | string;
  http_status: number | null;
  error: string | null;
  duration_ms: number | string;
}

// PostgreSQL returns BIGINT columns as strings.
const num = (v: number | string): number => Number(v);
const numOrNull = (v: number | string | null): number | null => (v === null ? null : Number(v));

/** An endpoint as the outbox's fan-out plan is given it: whom it subscribes, none of its secrets
 *  (they are opened only for the endpoints the plan hands deliveries to: deliveryContextsOf). */
export const toSubscriber = (r: Pick<WebhookRow, 'id' | 'realm_id' | 'event_types' | 'enabled'>): Subscriber => ({
  id: r.id,
  realmId: r.realm_id,
  eventTypes: JSON.parse(r.event_types),
  enabled: flag(r.enabled),
});

export const toEndpoint = (r: WebhookRow, secrets: SecretBox): WebhookEndpoint => ({
  id: r.id,
  realmId: r.realm_id,
  url: r.url,
  eventTypes: JSON.parse(r.event_types),
  description: r.description,
  enabled: flag(r.enabled),
  secret: secrets.open(ENCRYPTED.webhookSecret, r.secret),
  previousSecret: secrets.openOrNull(ENCRYPTED.webhookPreviousSecret, r.previous_secret),
  previousSecretExpiresAt: numOrNull(r.previous_secret_expires_at),
  failingSince: numOrNull(r.failing_since),
  createdAt: num(r.created_at),
  updatedAt: num(r.updated_at),
});

/** The context of each delivery, by delivery id, from the rows its store read (a hand-out's events
 *  and the enabled endpoints of their realms, WebhookStore.dispatch; or a claim's deliveries with
 *  theirs, deliveryContexts): none for a delivery whose endpoint or event is not among them. Each
 *  endpoint's secrets are opened once, each event's body written once. */
export function deliveryContextsOf(
  deliveries: readonly Delivery[],
  endpoints: readonly WebhookRow[],
  events: readonly EventRow[],
  secrets: SecretBox,
): Map<string, DeliveryContext> {
  const endpointRows = new Map(endpoints.map((r) => [r.id, r]));
  const eventRows = new Map(events.map((r) => [r.id, r]));
  const opened = new Map<string, WebhookEndpoint>();
  const bodies = new Map<string, { event: EventHeader; body: string }>();
  const contexts = new Map<string, DeliveryContext>();
  for (const delivery of deliveries) {
    let endpoint = opened.get(delivery.webhookId);
    if (!endpoint) {
      const row = endpointRows.get(delivery.webhookId);
      if (!row) continue;
      opened.set(delivery.webhookId, (endpoint = toEndpoint(row, secrets)));
    }
    let sent = bodies.get(delivery.eventId);
    if (!sent) {
      const row = eventRows.get(delivery.eventId);
      if (!row) continue;
      const event = toEventHeader(row);
      bodies.set(delivery.eventId, (sent = { event, body: storedEventBody(event, row.data) }));
    }
    contexts.set(delivery.id, { delivery, endpoint, event: sent.event, body: sent.body });
  }
  return contexts;
}

export const toDelivery = (r: DeliveryRow): Delivery => ({
  id: r.id,
  webhookId: r.webhook_id,
  realmId: r.realm_id,
  eventId: r.event_id,
  eventType: r.event_type,
  createdAt: num(r.created_at),
});

export const toAttempt = (r: AttemptRow): DeliveryAttempt => ({
  id: r.id,
  deliveryId: r.delivery_id,
  webhookId: r.webhook_id,
  at: num(r.at),
  httpStatus: r.http_status,
  error: r.error,
  durationMs: num(r.duration_ms),
});

/** A job's status as a delivery's. */
export const DELIVERY_STATUS_OF_JOB: Record<JobStatus, DeliveryStatus> = { pending: 'pending', running: 'running', done: 'delivered', failed: 'failed' };
export const JOB_STATUS_OF_DELIVERY: Record<DeliveryStatus, JobStatus> = { pending: 'pending', running: 'running', delivered: 'done', failed: 'failed' };

export function toDeliveryView(r: DeliveryJobRow, attempts: DeliveryAttempt[]): DeliveryView {
  const status = DELIVERY_STATUS_OF_JOB[r.status];
  return {
    ...toDelivery(r),
    status,
    attemptCount: r.attempts,
    nextAttemptAt: status === 'pending' ? num(r.run_at) : null,
    attempts: attempts.filter((a) => a.deliveryId === r.id),
  };
}

/** The listing's query over deliveries joined with their jobs, newest first; placeholders in the
 *  order webhook id, status, cursor time, cursor id, limit. */
export function listDeliveriesSql(p: (n: number, cast: 'text' | 'bigint') => string, collate: string): string {
  return `SELECT d.*, j.status, j.attempts, j.run_at FROM webhook_deliveries d JOIN jobs j ON j.id = d.id
    WHERE d.webhook_id = ${p(1, 'text')} AND (${p(2, 'text')} IS NULL OR j.status = ${p(2, 'text')})
      AND (${p(3, 'bigint')} IS NULL OR d.created_at < ${p(3, 'bigint')} OR (d.created_at = ${p(3, 'bigint')} AND d.id${collate} < ${p(4, 'text')}))
    ORDER BY d.created_at DESC, d.id${collate} DESC LIMIT ${p(5, 'bigint')}`;
}
