// The webhook RPCs of AdminService (docs/events.md) and the audit listing. Thin handlers:
// validate, ask model.ts, call the store, shape the answer. A secret leaves only through create and
// rotate-secret.

import type { AdminStore } from '../admin/store.ts';
import { requireRealm } from '../admin/store.ts';
import { actorOf } from '../audit/actor.ts';
import { badRequest, notFound } from '../errors.ts';
import { decodePageToken, pageOf, pageSize } from '../events/page-token.ts';
import { newEvent } from '../events/plan.ts';
import type { RecordStore } from '../events/store.ts';
import type { Clock } from '../lib/clock.ts';
import { toTimestamp, toTimestampOrNull } from '../lib/timestamp.ts';
import type { ServiceImpl } from '../rpc/types.ts';
import {
  createdEndpoint,
  DELIVERY_STATUSES,
  type DeliveryStatus,
  type DeliveryView,
  newDelivery,
  patchedEndpoint,
  rotatedEndpoint,
  validateDescription,
  validateEventTypes,
  type WebhookEndpoint,
  type WebhookPatch,
  webhookAuditRecord,
} from './model.ts';
import type { WebhookStore } from './store.ts';
import { checkUrlSyntax, type HostResolver, resolveAllowed } from './url-rules.ts';

type Admin = ServiceImpl<'gatehouse.v1.AdminService'>;
export type WebhookHandlers = Pick<
  Admin,
  | 'createWebhook'
  | 'listWebhooks'
  | 'getWebhook'
  | 'updateWebhook'
  | 'deleteWebhook'
  | 'rotateWebhookSecret'
  | 'testWebhook'
  | 'listWebhookDeliveries'
  | 'redeliverWebhook'
  | 'listAuditRecords'
>;

export interface WebhookServiceDeps {
  webhooks: WebhookStore;
  records: RecordStore;
  admin: AdminStore;
  clock: Clock;
  resolve: HostResolver;
  allowPrivate: boolean;
}

const endpointView = (e: WebhookEndpoint, secret = '') => ({
  id: e.id,
  realmId: e.realmId,
  url: e.url,
  eventTypes: e.eventTypes,
  description: e.description,
  enabled: e.enabled,
  secret,
  createdAt: toTimestamp(e.createdAt),
  updatedAt: toTimestamp(e.updatedAt),
  previousSecretExpiresAt: toTimestampOrNull(e.previousSecretExpiresAt),
});

const deliveryView = (d: DeliveryView) => ({
  id: d.id,
  webhookId: d.webhookId,
  eventId: d.eventId,
  eventType: d.eventType,
  status: d.status,
  attemptCount: d.attemptCount,
  createdAt: toTimestamp(d.createdAt),
  nextAttemptAt: toTimestampOrNull(d.nextAttemptAt),
  attempts: d.attempts.map((a) => ({ at: toTimestamp(a.at), httpStatus: a.httpStatus ?? 0, error: a.error ?? '', durationMs: a.durationMs })),
});

function parseTime(field: 'since' | 'until', value: string): number | undefined {
  if (value === '') return undefined;
  const ms = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(ms)) throw badRequest(`${field}: expected an RFC 3339 time`, { field });
  return ms;
}

export function createWebhookService(deps: WebhookServiceDeps): WebhookHandlers {
  const { webhooks, clock } = deps;

  /** The URL rules at registration: its syntax, then what its host resolves to now. */
  async function checkUrl(url: string): Promise<string> {
    await resolveAllowed(checkUrlSyntax(url), deps.resolve, deps.allowPrivate);
    return url;
  }

  async function requireEndpoint(realmId: string, id: string): Promise<WebhookEndpoint> {
    const e = await webhooks.get(realmId, id);
    if (!e) throw notFound(`Webhook ${id} not found in realm ${realmId}`);
    return e;
  }

  return {
    async createWebhook(req, ctx) {
      await requireRealm(deps.admin, req.realmId);
      const eventTypes = validateEventTypes(req.eventTypes);
      const description = validateDescription(req.description);
      const url = await checkUrl(req.url);
      const now = clock.now();
      const endpoint = createdEndpoint({ realmId: req.realmId, url, eventTypes, description, enabled: req.enabled ?? true }, now);
      await webhooks.create(endpoint, webhookAuditRecord('create', null, endpoint, actorOf(ctx), ctx.requestId, now));
      return endpointView(endpoint, endpoint.secret);
    },

    async listWebhooks(req) {
      await requireRealm(deps.admin, req.realmId);
      return { webhooks: (await webhooks.list(req.realmId)).map((e) => endpointView(e)) };
    },

    async getWebhook(req) {
      return endpointView(await requireEndpoint(req.realmId, req.webhookId));
    },

    async updateWebhook(req, ctx) {
      const patch: WebhookPatch = {};
      if (req.url !== undefined) patch.url = await checkUrl(req.url);
      if (req.eventTypes) patch.eventTypes = validateEventTypes(req.eventTypes.values);
      if (req.description !== undefined) patch.description = validateDescription(req.description);
      if (req.enabled !== undefined) patch.enabled = req.enabled;
      const now = clock.now();
      const updated = await webhooks.update(req.realmId, req.webhookId, (current) => {
        const after = patchedEndpoint(current, patch, now);
        return { endpoint: after, audit: webhookAuditRecord('update', current, after, actorOf(ctx), ctx.requestId, now) };
      });
      if (!updated) throw notFound(`Webhook ${req.webhookId} not found in realm ${req.realmId}`);
      return endpointView(updated);
    },

    async deleteWebhook(req, ctx) {
      const now = clock.now();
      const deleted = await webhooks.delete(req.realmId, req.webhookId, (e) => webhookAuditRecord('delete', e, null, actorOf(ctx), ctx.requestId, now));
      if (!deleted) throw notFound(`Webhook ${req.webhookId} not found in realm ${req.realmId}`);
      return endpointView(deleted);
    },

    async rotateWebhookSecret(req, ctx) {
      const now = clock.now();
      const rotated = await webhooks.update(req.realmId, req.webhookId, (current) => {
        const after = rotatedEndpoint(current, now);
        return { endpoint: after, audit: webhookAuditRecord('rotate_secret', current, after, actorOf(ctx), ctx.requestId, now) };
      });
      if (!rotated) throw notFound(`Webhook ${req.webhookId} not found in realm ${req.realmId}`);
      return endpointView(rotated, rotated.secret);
    },

    async testWebhook(req) {
      const endpoint = await requireEndpoint(req.realmId, req.webhookId);
      const now = clock.now();
      const event = newEvent('webhook.test', req.realmId, now, { webhookId: endpoint.id });
      const { delivery, job } = newDelivery(endpoint, event, now);
      await webhooks.queueDirect(event, delivery, job);
      return { eventId: event.id, deliveryId: delivery.id };
    },

    async listWebhookDeliveries(req) {
      await requireEndpoint(req.realmId, req.webhookId);
      if (req.status !== '' && !(DELIVERY_STATUSES as readonly string[]).includes(req.status)) {
        throw badRequest(`status: one of ${DELIVERY_STATUSES.join(', ')}`, { field: 'status' });
      }
      const status = req.status === '' ? undefined : (req.status as DeliveryStatus);
      const limit = pageSize(req.pageSize);
      const listing = ['deliveries', req.webhookId, status ?? null];
      const start = decodePageToken(req.pageToken, listing);
      const page = await webhooks.listDeliveries(req.webhookId, { status, after: start && { createdAt: start.at, id: start.id }, limit: limit + 1 });
      const { shown, nextPageToken } = pageOf(page, limit, listing, (d) => ({ at: d.createdAt, id: d.id }));
      return { deliveries: shown.map(deliveryView), nextPageToken };
    },

    async redeliverWebhook(req) {
      const endpoint = await requireEndpoint(req.realmId, req.webhookId);
      const previous = await webhooks.getDelivery(endpoint.id, req.deliveryId);
      if (!previous) throw notFound(`Delivery ${req.deliveryId} not found for webhook ${req.webhookId}`);
      const { delivery, job } = newDelivery(endpoint, { id: previous.eventId, type: previous.eventType }, clock.now());
      await webhooks.queueDelivery(delivery, job);
      return deliveryView({ ...delivery, status: 'pending', attemptCount: 0, nextAttemptAt: job.runAt, attempts: [] });
    },

    async listAuditRecords(req) {
      // "*" holds the changes of no one realm (an API key for every realm): readable by the keys
      // that cover every realm, as the call chain's realm check lets only them ask for it.
      if (req.realmId !== '*') await requireRealm(deps.admin, req.realmId);
      const since = parseTime('since', req.since);
      const until = parseTime('until', req.until);
      const limit = pageSize(req.pageSize);
      const filters = { action: req.action || undefined, targetId: req.targetId || undefined, actorId: req.actorId || undefined, since, until };
      const listing = ['audit', req.realmId, filters];
      const start = decodePageToken(req.pageToken, listing);
      const page = await deps.records.auditPage(req.realmId, { ...filters, after: start && { at: start.at, auditId: start.id }, limit: limit + 1 });
      const { shown, nextPageToken } = pageOf(page, limit, listing, (r) => ({ at: r.at, id: r.auditId }));
      return {
        records: shown.map((r) => ({
          auditId: r.auditId,
          at: toTimestamp(r.at),
          realmId: r.realmId,
          actor: r.actor,
          action: r.action,
          targetId: r.targetId,
          changesJson: JSON.stringify(r.changes),
          requestId: r.requestId ?? '',
        })),
        nextPageToken,
      };
    },
  };
}
