import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import type { GatehouseEvent } from '../events/model.ts';
import { afterAttempt, newJob, retryDelayMs } from '../jobs/retry.ts';
import {
  afterDeliveryAttempt,
  afterDeliveryAttempts,
  createdEndpoint,
  DELIVER,
  DELIVERY_POLICY,
  DISABLE_AFTER_FAILING_MS,
  eventBody,
  fanOut,
  patchedEndpoint,
  rotatedEndpoint,
  signatureHeader,
  signingSecrets,
  storedEventBody,
  validateEventTypes,
  webhookAuditRecord,
} from './model.ts';

const T = Date.UTC(2026, 0, 1);
const endpoint = (over: Partial<Parameters<typeof createdEndpoint>[0]> = {}) =>
  createdEndpoint({ realmId: 'r', url: 'https://hooks.example/in', eventTypes: ['*'], description: '', enabled: true, ...over }, T);
const event = (type: GatehouseEvent['type'], createdAt: number, realmId = 'r'): GatehouseEvent => ({
  id: `evt_${createdAt}`,
  type,
  realmId,
  createdAt,
  data: { n: 1 },
});

describe('the body delivered', () => {
  it('is the same bytes from the data as the outbox stored it as from the event', () => {
    const data = { userId: 'usr_1', allocations: [{ creditKind: 'topup_credit', amount: 2 }], note: 'é "quoted" \u2028', none: null };
    const e = { ...event('points.consumed', T), data };
    assert.equal(storedEventBody(e, JSON.stringify(data)), eventBody(e));
    assert.deepEqual(JSON.parse(eventBody(e)), { id: e.id, type: e.type, realmId: 'r', createdAt: new Date(T).toISOString(), data });
  });
});

describe('webhook signatures', () => {
  it('are verified by the standardwebhooks package with the secret', () => {
    const e = endpoint();
    const now = Date.now();
    const body = eventBody(event('user.deleted', now));
    const ts = Math.floor(now / 1000);
    const headers = { 'webhook-id': 'evt_1', 'webhook-timestamp': String(ts), 'webhook-signature': signatureHeader([e.secret], 'evt_1', ts, body) };
    assert.deepEqual(new Webhook(e.secret).verify(body, headers), JSON.parse(body));
    assert.throws(() => new Webhook(endpoint().secret).verify(body, headers), 'another secret does not verify');
  });

  it('carry the previous secret for 24 hours after a rotation, then only the new one', () => {
    const rotated = rotatedEndpoint(endpoint(), T);
    assert.equal(signingSecrets(rotated, T + 86_400_000 - 1).length, 2);
    assert.deepEqual(signingSecrets(rotated, T + 86_400_000), [rotated.secret]);
  });
});

describe('fanOut', () => {
  it('makes one delivery per subscribing enabled endpoint of the event realm, in order of creation', () => {
    const all = endpoint();
    const deletions = endpoint({ eventTypes: ['user.deleted'] });
    const off = endpoint({ enabled: false });
    const elsewhere = endpoint({ realmId: 'other' });
    const events = [event('user.deleted', T + 1), event('session.revoked', T + 2), event('webhook.test', T + 3)];
    const { deliveries, jobs } = fanOut(events, [all, deletions, off, elsewhere], T + 10);
    assert.deepEqual(
      deliveries.map((d) => [d.eventId, d.webhookId]),
      [
        [events[0]!.id, all.id],
        [events[0]!.id, deletions.id],
        [events[1]!.id, all.id],
      ],
    );
    assert.deepEqual(
      jobs.map((j) => j.runAt),
      [T + 1, T + 1, T + 2],
    );
    assert.deepEqual(
      jobs.map((j) => j.id),
      deliveries.map((d) => d.id),
    );
  });
});

describe('validateEventTypes', () => {
  it('takes known types or "*" alone', () => {
    assert.deepEqual(validateEventTypes(['*']), ['*']);
    assert.deepEqual(validateEventTypes(['user.deleted', 'user.deleted']), ['user.deleted']);
    for (const bad of [[], ['user.nope'], ['*', 'user.deleted']]) assert.throws(() => validateEventTypes(bad), JSON.stringify(bad));
  });
});

describe('afterDeliveryAttempt', () => {
  it('disables an endpoint that has failed everything for 5 days, with an audit record', () => {
    let e = endpoint();
    assert.equal(afterDeliveryAttempt(e, true, T), null, 'a delivery to a healthy endpoint changes nothing');
    e = afterDeliveryAttempt(e, false, T)!.endpoint;
    assert.equal(e.failingSince, T);
    assert.equal(afterDeliveryAttempt(e, false, T + DISABLE_AFTER_FAILING_MS - 1), null, 'still failing, still enabled: nothing written');
    const end = afterDeliveryAttempt(e, false, T + DISABLE_AFTER_FAILING_MS)!;
    assert.equal(end.endpoint.enabled, false);
    assert.equal(end.audit?.action, 'webhook.disable');
    assert.equal(end.audit?.actor.type, 'system');
  });

  it('starts the count afresh after a delivery, and after being enabled again', () => {
    const failing = afterDeliveryAttempt(endpoint(), false, T)!.endpoint;
    assert.equal(afterDeliveryAttempt(failing, true, T + 1)!.endpoint.failingSince, null);
    const disabled = { ...failing, enabled: false };
    assert.equal(patchedEndpoint(disabled, { enabled: true }, T + 2).failingSince, null);
  });
});

describe('afterDeliveryAttempts', () => {
  const delivered = (endedAt: number) => ({ delivered: true, endedAt });
  const failed = (endedAt: number) => ({ delivered: false, endedAt });

  it('changes nothing for deliveries to a healthy endpoint, nor for further failures of a failing one', () => {
    assert.equal(afterDeliveryAttempts(endpoint(), [delivered(T), delivered(T + 1)]), null);
    const failing = afterDeliveryAttempt(endpoint(), false, T)!.endpoint;
    assert.equal(afterDeliveryAttempts(failing, [failed(T + 1), failed(T + 2)]), null);
    assert.equal(afterDeliveryAttempts(endpoint(), [failed(T + 1), delivered(T + 2)]), null, 'a streak started and ended within the claim');
    assert.equal(afterDeliveryAttempts(endpoint(), []), null);
  });

  it('takes the attempts in the order they ended', () => {
    assert.equal(afterDeliveryAttempts(endpoint(), [failed(T + 5), delivered(T + 1), failed(T + 3)])?.endpoint.failingSince, T + 3);
    const failing = afterDeliveryAttempt(endpoint(), false, T)!.endpoint;
    assert.equal(afterDeliveryAttempts(failing, [delivered(T + 2), failed(T + 1)])?.endpoint.failingSince, null);
  });

  it('disables an endpoint once its streak lasts 5 days, with one audit record', () => {
    const failing = afterDeliveryAttempt(endpoint(), false, T)!.endpoint;
    const end = afterDeliveryAttempts(failing, [
      failed(T + DISABLE_AFTER_FAILING_MS - 1),
      failed(T + DISABLE_AFTER_FAILING_MS),
      failed(T + DISABLE_AFTER_FAILING_MS + 1),
    ])!;
    assert.equal(end.endpoint.enabled, false);
    assert.equal(end.endpoint.failingSince, T);
    assert.equal(end.audit?.action, 'webhook.disable');
  });
});

describe('webhookAuditRecord', () => {
  it('redacts the secret and lists only the fields that changed', () => {
    const before = endpoint();
    const created = webhookAuditRecord('create', null, before, { type: 'api_key', id: 'k' }, 'req', T);
    assert.equal(created.changes.secret?.after, '[redacted]');
    assert.ok(!JSON.stringify(created).includes(before.secret));
    const after = patchedEndpoint(before, { description: 'x' }, T);
    assert.deepEqual(Object.keys(webhookAuditRecord('update', before, after, { type: 'api_key', id: 'k' }, null, T).changes), ['description']);
    const rotated = webhookAuditRecord('rotate_secret', before, rotatedEndpoint(before, T), { type: 'api_key', id: 'k' }, null, T);
    assert.deepEqual(rotated.changes.secret, { before: '[redacted]', after: '[redacted]' });
  });
});

describe('the delivery policy (docs/events.md: exponential backoff with jitter, the first retry within 10 s, doubling up to 6 hours, for 3 days)', () => {
  const HOUR = 3_600_000;
  /** The delays the jitter may give after attempt `attempts`: the least and the most. */
  const range = (attempts: number) => [retryDelayMs(attempts, DELIVERY_POLICY, 0), retryDelayMs(attempts, DELIVERY_POLICY, 1 - 2 ** -40)];

  it('waits 2.5–5 s before the first retry, twice as long before each next one, and at most 6 hours, never less than half of it', () => {
    assert.deepEqual(range(1), [2500, 4999]);
    assert.deepEqual(range(2), [5000, 9999]);
    assert.deepEqual(range(3), [10_000, 19_999]);
    assert.deepEqual(range(4), [20_000, 39_999]);
    // 5 s · 2^12 is 5.7 hours, the last below the cap; from 2^13 on it is 6 hours.
    assert.deepEqual(range(13), [10_240_000, 20_479_999]);
    for (const attempts of [14, 15, 40, 1000]) assert.deepEqual(range(attempts), [3 * HOUR, 6 * HOUR - 1]);
  });

  it('gives a delivery up once it is 3 days old: no retry is planned later, and a failure from then on is final', () => {
    const job = { ...newJob(DELIVER, 'r', {}, null, T, DELIVERY_POLICY), attempts: 30, status: 'running' as const };
    const end = T + 3 * 24 * HOUR;
    assert.equal(job.giveUpAt, end);
    const retried = (now: number) => afterAttempt(job, { kind: 'retry', error: 'HTTP 503' }, now, DELIVERY_POLICY, 0.5).job;
    assert.deepEqual([retried(end - HOUR).status, retried(end - HOUR).runAt], ['pending', end], 'the last retry at the end, not 4.5 hours on');
    assert.deepEqual([retried(end).status, retried(end).lastError], ['failed', 'HTTP 503']);
  });
});
