// Webhook endpoints (docs/events.md): the records, and the pure rules that validate
// them, plan an operator's change with its audit record, and decide what an attempt's outcome makes
// of the endpoint. Signing follows Standard Webhooks (standardwebhooks.com).
import { createHmac, randomBytes } from 'node:crypto';
import { type Actor, type AuditRecord, type FieldChange, REDACTED, SYSTEM_ACTOR } from '../audit/model.ts';
import { badRequest } from '../errors.ts';
import { EVENT_TYPES, type EventHeader, type GatehouseEvent } from '../events/model.ts';
import { newAuditRecord } from '../events/plan.ts';
import type { Job, JobPolicy } from '../jobs/model.ts';
import { newJob } from '../jobs/retry.ts';
import { newId } from '../lib/ids.ts';

export const DELIVER = 'webhook.deliver';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Retried for 3 days, the first retry within 10 s (docs/events.md): 5 s doubling (with equal
 *  jitter, 2.5–5 s first) up to 6 hours. The lease outlasts one attempt's 10 s timeout. */
export const DELIVERY_POLICY: JobPolicy = { baseDelayMs: 5000, maxDelayMs: 6 * HOUR, leaseMs: 60_000, lifetimeMs: 3 * DAY, auditOutcome: false };
/** An answer within this is an answer; a 2xx one is a delivery. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Most bytes of an answer read (docs/events.md); the rest is not waited for. */
export const MAX_ANSWER_BYTES = 64 * 1024;
/** After a rotation the old secret signs too, so receivers can switch over. */
export const PREVIOUS_SECRET_LIFETIME_MS = DAY;
/** An endpoint that has failed every attempt for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * DAY;
export const MAX_URL_LENGTH = 2048;
const MAX_DESCRIPTION_LENGTH = 500;

export interface WebhookEndpoint {
  /** `whk_…` */
  id: string;
  realmId: string;
  url: string;
  /** Event types, or `['*']`. */
  eventTypes: string[];
  description: string;
  enabled: boolean;
  /** `whsec_` + base64 of 32 random bytes. */
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: number | null;
  /** The first failed attempt since the last delivered one. */
  failingSince: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface WebhookPatch {
  url?: string;
  eventTypes?: string[];
  description?: string;
  enabled?: boolean;
}

/** One (event, endpoint) delivery; its id is its job's. */
export interface Delivery {
  id: string;
  webhookId: string;
  realmId: string;
  eventId: string;
  eventType: string;
  createdAt: number;
}

export interface DeliveryAttempt {
  /** `wha_…` */
  id: string;
  deliveryId: string;
  webhookId: string;
  at: number;
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
}

export type DeliveryStatus = 'pending' | 'running' | 'delivered' | 'failed';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'running', 'delivered', 'failed'];

/** A delivery as listed: its job's state and its attempts, oldest first. */
export interface DeliveryView extends Delivery {
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: number | null;
  attempts: DeliveryAttempt[];
}

export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export function validateEventTypes(types: readonly string[]): string[] {
  if (types.length === 0) throw badRequest('eventTypes: at least one event type, or ["*"]', { field: 'eventTypes' });
  if (types.includes('*')) {
    if (types.length > 1) throw badRequest('eventTypes: "*" stands alone', { field: 'eventTypes' });
    return ['*'];
  }
  for (const t of types) {
    if (!(EVENT_TYPES as readonly string[]).includes(t)) {
      throw badRequest(`eventTypes: unknown event type "${t}" (known: ${EVENT_TYPES.join(', ')})`, { field: 'eventTypes' });
    }
  }
  return [...new Set(types)];
}

export function validateDescription(description: string): string {
  if (description.length > MAX_DESCRIPTION_LENGTH) throw badRequest(`description: at most ${MAX_DESCRIPTION_LENGTH} characters`, { field: 'description' });
  return description;
}

export function subscribes(endpoint: Pick<WebhookEndpoint, 'enabled' | 'eventTypes'>, type: string): boolean {
  return endpoint.enabled && (endpoint.eventTypes[0] === '*' || endpoint.eventTypes.includes(type));
}

/** A delivery of the event to the endpoint, and its job, due at once. */
export function newDelivery(
  endpoint: Pick<WebhookEndpoint, 'id' | 'realmId'>,
  event: { id: string; type: string },
  now: number,
): { delivery: Delivery; job: Job } {
  const job = newJob(DELIVER, endpoint.realmId, { webhookId: endpoint.id, eventId: event.id }, null, now, DELIVERY_POLICY);
  return { delivery: { id: job.id, webhookId: endpoint.id, realmId: endpoint.realmId, eventId: event.id, eventType: event.type, createdAt: now }, job };
}

/** What the fan-out reads of an endpoint: whom it subscribes, none of its secrets. */
export type Subscriber = Pick<WebhookEndpoint, 'id' | 'realmId' | 'enabled' | 'eventTypes'>;

/** The outbox's fan-out: for each event, oldest first, one delivery per enabled endpoint of its
 *  realm that subscribes to its type. `webhook.test` goes only to the endpoint tested (queued there
 *  directly), never fanned out. */
export function fanOut(events: readonly EventHeader[], endpoints: readonly Subscriber[], now: number): { deliveries: Delivery[]; jobs: Job[] } {
  const deliveries: Delivery[] = [];
  const jobs: Job[] = [];
  for (const event of events) {
    if (event.type === 'webhook.test') continue;
    for (const endpoint of endpoints) {
      if (endpoint.realmId !== event.realmId || !subscribes(endpoint, event.type)) continue;
      const planned = newDelivery(endpoint, event, now);
      deliveries.push(planned.delivery);
      // Due from, and dated by, the event's creation: the queue takes the oldest due first and
      // starts the jobs of a claim in order of creation, so in the order the events were written.
      const created = Math.min(event.createdAt, now);
      jobs.push({ ...planned.job, runAt: created, createdAt: created });
    }
  }
  return { deliveries, jobs };
}

/** The secrets that sign at `now`: the current one, and the previous one while it lasts. */
export function signingSecrets(endpoint: Pick<WebhookEndpoint, 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>, now: number): string[] {
  const live = endpoint.previousSecret !== null && endpoint.previousSecretExpiresAt !== null && now < endpoint.previousSecretExpiresAt;
  return live ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
}

/** `webhook-signature`: `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed by each
 *  secret's decoded bytes, space-separated (Standard Webhooks, "Signature scheme"). */
export function signatureHeader(secrets: readonly string[], id: string, timestampSeconds: number, body: string): string {
  return secrets
    .map((s) => {
      const key = Buffer.from(s.startsWith('whsec_') ? s.slice('whsec_'.length) : s, 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
    })
    .join(' ');
}

/** The body delivered: the event as docs/events.md writes it, createdAt in RFC 3339. */
export function eventBody(event: GatehouseEvent): string {
  return storedEventBody(event, JSON.stringify(event.data));
}

/** eventBody of an event whose data is the JSON text the outbox stored (JSON.stringify's, so the
 *  same bytes): a delivery neither parses it nor writes it again. */
export function storedEventBody(event: EventHeader, data: string): string {
  const header = JSON.stringify({ id: event.id, type: event.type, realmId: event.realmId, createdAt: new Date(event.createdAt).toISOString() });
  return `${header.slice(0, -1)},"data":${data}}`;
}

/** What the audit log shows of an endpoint: its fields, the secrets redacted. */
function audited(e: WebhookEndpoint | null): Record<string, unknown> {
  if (!e) return { url: null, eventTypes: null, description: null, enabled: null, secret: null };
  return { url: e.url, eventTypes: e.eventTypes, description: e.description, enabled: e.enabled, secret: REDACTED };
}

/** `webhook.<verb>` on the endpoint: the fields that changed (every field on create and delete). */
export function webhookAuditRecord(
  verb: 'create' | 'update' | 'delete' | 'rotate_secret' | 'disable',
  before: WebhookEndpoint | null,
  after: WebhookEndpoint | null,
  actor: Actor,
  requestId: string | null,
  now: number,
): AuditRecord {
  const b = audited(before);
  const a = audited(after);
  const changes: Record<string, FieldChange> = {};
  for (const field of Object.keys(a)) {
    const changed = JSON.stringify(b[field]) !== JSON.stringify(a[field]);
    if (changed || (field === 'secret' && verb === 'rotate_secret')) changes[field] = { before: b[field], after: a[field] };
  }
  const target = (after ?? before)!;
  return newAuditRecord({ at: now, realmId: target.realmId, actor, action: `webhook.${verb}`, targetId: target.id, changes, requestId });
}

export function createdEndpoint(
  input: { realmId: string; url: string; eventTypes: string[]; description: string; enabled: boolean },
  now: number,
): WebhookEndpoint {
  return {
    id: newId('whk'),
    ...input,
    secret: newSecret(),
    previousSecret: null,
    previousSecretExpiresAt: null,
    failingSince: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** The endpoint with the patch applied; enabling it again starts its failure count afresh. */
export function patchedEndpoint(e: WebhookEndpoint, patch: WebhookPatch, now: number): WebhookEndpoint {
  const enabledAgain = patch.enabled === true && !e.enabled;
  return { ...e, ...patch, failingSince: enabledAgain ? null : e.failingSince, updatedAt: now };
}

/** A new secret; the old one signs too for PREVIOUS_SECRET_LIFETIME_MS. */
export function rotatedEndpoint(e: WebhookEndpoint, now: number): WebhookEndpoint {
  return { ...e, secret: newSecret(), previousSecret: e.secret, previousSecretExpiresAt: now + PREVIOUS_SECRET_LIFETIME_MS, updatedAt: now };
}

/** What an attempt's outcome makes of its endpoint: a delivery clears its failing streak; a
 *  failure starts one, and one lasting DISABLE_AFTER_FAILING_MS disables the endpoint (audited). */
export function afterDeliveryAttempt(e: WebhookEndpoint, delivered: boolean, now: number): { endpoint: WebhookEndpoint; audit: AuditRecord | null } | null {
  // null: the endpoint stays as it is, nothing written (most attempts, one per delivery).
  if (delivered) return e.failingSince === null ? null : { endpoint: { ...e, failingSince: null }, audit: null };
  const failingSince = e.failingSince ?? now;
  if (e.enabled && now - failingSince >= DISABLE_AFTER_FAILING_MS) {
    const disabled = { ...e, enabled: false, failingSince, updatedAt: now };
    return { endpoint: disabled, audit: webhookAuditRecord('disable', e, disabled, SYSTEM_ACTOR, null, now) };
  }
  return e.failingSince === null ? { endpoint: { ...e, failingSince }, audit: null } : null;
}

/** An attempt as its endpoint's failing streak counts it: whether it delivered, and when it ended. */
export interface AttemptEnd {
  delivered: boolean;
  endedAt: number;
}

/** What several attempts to one endpoint (a claim's) make of it: afterDeliveryAttempt for each in
 *  the order they ended. null when they leave its streak and state as they were (a healthy
 *  endpoint's deliveries, a failing one's further failures, a failure then a delivery): the store
 *  then neither writes nor locks the endpoint. */
export function afterDeliveryAttempts(e: WebhookEndpoint, ends: readonly AttemptEnd[]): { endpoint: WebhookEndpoint; audit: AuditRecord | null } | null {
  let current = e;
  let audit: AuditRecord | null = null;
  for (const end of [...ends].sort((a, b) => a.endedAt - b.endedAt)) {
    const next = afterDeliveryAttempt(current, end.delivered, end.endedAt);
    if (!next) continue;
    current = next.endpoint;
    // Only a disable is audited, and a disabled endpoint is not disabled again.
    audit ??= next.audit;
  }
  const same = current.failingSince === e.failingSince && current.enabled === e.enabled;
  return same && audit === null ? null : { endpoint: current, audit };
}
