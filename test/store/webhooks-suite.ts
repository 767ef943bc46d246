// WebhookStore contract: endpoints kept with their secrets and audited in the transaction of the
// change; the outbox's fan-out handing each event out once, oldest first, also with a peer handing
// at the same time; a claim's attempts recorded with their jobs' outcomes and their endpoints'
// changes in one transaction, and listed with their job's state. What a change or an attempt makes
// of an endpoint is webhooks/model.ts's (tested beside it).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { EventHeader, GatehouseEvent } from '../../server/events/model.ts';
import type { Job } from '../../server/jobs/model.ts';
import { afterAttempt, claimed } from '../../server/jobs/retry.ts';
import { planAccountDeletion } from '../../server/users/deletion.ts';
import {
  afterDeliveryAttempt,
  afterDeliveryAttempts,
  createdEndpoint,
  DELIVER,
  DELIVERY_POLICY,
  DISABLE_AFTER_FAILING_MS,
  eventBody,
  fanOut,
  newDelivery,
  patchedEndpoint,
  type Subscriber,
  subscribes,
  type WebhookEndpoint,
  webhookAuditRecord,
} from '../../server/webhooks/model.ts';
import type { ClaimedAttempt } from '../../server/webhooks/store.ts';
import { DAY, HOUR, SECOND, type StoreFactory, type StoreFixture, type Stores, seedRealm, seedUser, T0, unique } from './contract.ts';

const actor = { type: 'api_key' as const, id: 'key_1' };

export function describeWebhookStore(backend: string, factory: StoreFactory): void {
  describe(`${backend}: WebhookStore`, () => {
    let s: StoreFixture;
    before(async () => {
      s = await factory();
    });
    after(() => s.close());

    async function endpointIn(realm: string, over: Partial<Parameters<typeof createdEndpoint>[0]> = {}): Promise<WebhookEndpoint> {
      const e = createdEndpoint({ realmId: realm, url: 'https://hooks.example/in', eventTypes: ['*'], description: '', enabled: true, ...over }, T0);
      await s.webhooks.create(e, webhookAuditRecord('create', null, e, actor, 'req_1', T0));
      return e;
    }

    /** `n` deliveries to the endpoint, each with its event, their jobs claimed by `owner` at `at`. */
    async function claimedDeliveries(e: WebhookEndpoint, n: number, owner: string, at: number): Promise<Job[]> {
      const held: Job[] = [];
      for (let i = 0; i < n; i++) {
        const m = newDelivery(e, { id: unique('evt'), type: 'webhook.test' }, T0 + i);
        await s.webhooks.queueDirect({ id: m.delivery.eventId, type: 'webhook.test', realmId: e.realmId, createdAt: T0 + i, data: {} }, m.delivery, m.job);
        const [job] = await s.jobs.claim(at, 1, [DELIVER], (j) => claimed(j, owner, at, DELIVERY_POLICY), m.job.id);
        held.push(job!);
      }
      return held;
    }

    /** An attempt of a claimed delivery that ended at `at`: delivered, or failed with `error`. */
    function attemptOf(job: Job, webhookId: string, at: number, error: string | null = null): ClaimedAttempt {
      return {
        deliveryId: job.id,
        attempt: { id: unique('wha'), deliveryId: job.id, webhookId, at, httpStatus: error === null ? 204 : 500, error, durationMs: 3 },
        delivered: error === null,
        endedAt: at,
        outcome: afterAttempt(job, error === null ? { kind: 'done' } : { kind: 'retry', error }, at, DELIVERY_POLICY, 0),
      };
    }

    /** Deletes a new user of the realm: its user.deleted event goes to the outbox. */
    async function userDeleted(stores: Stores, realm: string, at: number): Promise<void> {
      const user = await seedUser(stores, realm);
      await stores.users.deleteAccount(realm, user.id, (snap) =>
        planAccountDeletion(snap, { realmId: realm, userId: user.id, actor, requestId: null }, at, []),
      );
    }

    it("keeps an endpoint with its secrets, lists the realm's, and audits its creation in the same transaction", async () => {
      const realm = await seedRealm(s);
      const e = await endpointIn(realm, { eventTypes: ['user.deleted'], enabled: false });
      assert.deepEqual(await s.webhooks.get(realm, e.id), e);
      assert.deepEqual(await s.webhooks.list(realm), [e]);
      assert.equal(await s.webhooks.get('elsewhere', e.id), null);
      const [record] = await s.records.audit(realm, { targetId: e.id, limit: 10 });
      assert.equal(record?.action, 'webhook.create');
    });

    it('applies a change with its audit record; a change deciding nothing writes nothing; an unknown endpoint is null', async () => {
      const realm = await seedRealm(s);
      const e = await endpointIn(realm);
      const updated = await s.webhooks.update(realm, e.id, (current) => {
        const after = patchedEndpoint(current, { description: 'new', enabled: false }, T0 + SECOND);
        return { endpoint: after, audit: webhookAuditRecord('update', current, after, actor, null, T0 + SECOND) };
      });
      assert.equal(updated?.description, 'new');
      assert.deepEqual(await s.webhooks.get(realm, e.id), updated);
      assert.equal(await s.webhooks.update(realm, e.id, () => null).then((x) => x?.description), 'new');
      assert.equal(await s.webhooks.update(realm, 'whk_unknown', () => assert.fail('asked')), null);
      assert.deepEqual(
        (await s.records.audit(realm, { targetId: e.id, limit: 10 })).map((a) => a.action),
        ['webhook.update', 'webhook.create'],
      );
    });

    it('hands each outbox event out once, oldest first, to the enabled subscribers of its realm, also with a peer handing at the same time', async () => {
      const realm = await seedRealm(s);
      const other = await seedRealm(s);
      const subscriber = await endpointIn(realm, { eventTypes: ['user.deleted'] });
      await endpointIn(realm, { enabled: false });
      await endpointIn(other, { eventTypes: ['webhook.test'] });
      // Whatever earlier tests left in the outbox is handed out first.
      while ((await s.webhooks.dispatch(T0, 100, () => ({ deliveries: [], jobs: [] }))).events > 0);
      for (let i = 0; i < 6; i++) await userDeleted(s, realm, T0 + i * SECOND);
      assert.ok(await s.webhooks.anyUndispatched());
      assert.equal((await s.webhooks.outbox()).depth, 6);
      const peer = await s.peer();
      const handed: EventHeader[][] = [];
      const plan = (events: EventHeader[], endpoints: Subscriber[]) => {
        handed.push(events);
        return fanOut(events, endpoints, T0 + HOUR);
      };
      const counts = (await Promise.all([s.webhooks.dispatch(T0 + HOUR, 4, plan), peer.webhooks.dispatch(T0 + HOUR, 4, plan)])).map((d) => d.events);
      while ((await s.webhooks.dispatch(T0 + HOUR, 4, plan)).events > 0);
      const ids = handed.flat().map((e) => e.id);
      assert.equal(new Set(ids).size, ids.length, 'no event handed twice');
      assert.equal(ids.length, 6);
      assert.ok(counts[0]! + counts[1]! >= 4);
      for (const batch of handed)
        assert.deepEqual(
          batch.map((e) => e.createdAt),
          [...batch.map((e) => e.createdAt)].sort((a, b) => a - b),
        );
      assert.equal(await s.webhooks.anyUndispatched(), false);
      assert.deepEqual(await s.webhooks.outbox(), { depth: 0, oldestCreatedAt: null });
      const deliveries = await s.webhooks.listDeliveries(subscriber.id, { after: null, limit: 100 });
      assert.equal(deliveries.length, 6);
      assert.ok(deliveries.every((d) => d.status === 'pending' && d.eventType === 'user.deleted'));
    });

    it("hands out events with each delivery's context read in the same transaction (its endpoint and secrets, its event, the body as stored) and its job as the plan made it: one held is claimed by no replica until its lease runs out", async () => {
      const realm = await seedRealm(s);
      const first = await endpointIn(realm, { eventTypes: ['user.deleted'] });
      const second = await endpointIn(realm, { eventTypes: ['*'] });
      // Whatever earlier tests left in the outbox is handed out first.
      while ((await s.webhooks.dispatch(T0, 100, () => ({ deliveries: [], jobs: [] }))).events > 0);
      for (let i = 0; i < 3; i++) await userDeleted(s, realm, T0 + i * SECOND);
      const at = T0 + HOUR;
      const handed = await s.webhooks.dispatch(at, 2, (events, subscribers) => {
        const planned = fanOut(events, subscribers, at);
        return { deliveries: planned.deliveries, jobs: planned.jobs.map((j) => claimed(j, 'me', at, DELIVERY_POLICY)) };
      });
      assert.equal(handed.events, 2);
      const stored = await s.records.events(realm, { type: 'user.deleted', limit: 10 });
      const contexts = [...handed.contexts.values()];
      assert.deepEqual(
        contexts.map((c) => [c.delivery.eventId, c.delivery.webhookId]).sort(),
        [
          [stored[2]!.id, first.id],
          [stored[2]!.id, second.id],
          [stored[1]!.id, first.id],
          [stored[1]!.id, second.id],
        ].sort(),
      );
      for (const [id, context] of handed.contexts) {
        const event = stored.find((e) => e.id === context.delivery.eventId)!;
        assert.equal(context.delivery.id, id);
        assert.deepEqual(context.endpoint, await s.webhooks.get(realm, context.delivery.webhookId), 'with its secrets');
        assert.deepEqual(context.event, { id: event.id, type: event.type, realmId: event.realmId, createdAt: event.createdAt });
        assert.equal(context.body, eventBody(event), 'the body sent, from the data as stored');
        assert.deepEqual(await s.webhooks.getDelivery(context.delivery.webhookId, id), context.delivery);
      }
      const peer = await s.peer();
      const claimedBy = (owner: string, now: number, id: string) => peer.jobs.claim(now, 1, [DELIVER], (j) => claimed(j, owner, now, DELIVERY_POLICY), id);
      for (const id of handed.contexts.keys()) {
        assert.deepEqual([(await s.jobs.get(id))?.status, (await s.jobs.get(id))?.leaseOwner], ['running', 'me']);
        assert.deepEqual(await claimedBy('other', at + DELIVERY_POLICY.leaseMs - 1, id), [], 'held while its lease lasts');
        const [taken] = await claimedBy('other', at + DELIVERY_POLICY.leaseMs, id);
        assert.deepEqual([taken?.leaseOwner, taken?.attempts], ['other', 2], 'taken up once it has run out');
      }
    });

    it('writes an outbox event only while an enabled endpoint of its realm subscribes to its type, as subscribes() decides', async () => {
      const realm = await seedRealm(s);
      const other = await seedRealm(s);
      const deletedEvents = async () => (await s.records.events(realm, { type: 'user.deleted', limit: 100 })).length;
      await userDeleted(s, realm, T0);
      assert.equal(await deletedEvents(), 0, 'no endpoint');
      await endpointIn(realm, { eventTypes: ['session.revoked'] });
      await endpointIn(realm, { eventTypes: ['user.deleted'], enabled: false });
      await endpointIn(other, { eventTypes: ['*'] });
      await userDeleted(s, realm, T0 + SECOND);
      assert.equal(await deletedEvents(), 0, 'another type, a disabled endpoint, another realm');
      const wanted = await endpointIn(realm, { eventTypes: ['session.revoked', 'user.deleted'] });
      assert.ok(subscribes(wanted, 'user.deleted'));
      await userDeleted(s, realm, T0 + 2 * SECOND);
      assert.equal(await deletedEvents(), 1, 'its type');
      await userDeleted(s, other, T0 + 2 * SECOND);
      assert.equal((await s.records.events(other, { type: 'user.deleted', limit: 100 })).length, 1, '"*"');
    });

    it("writes a realm's outbox events from the unit after its first endpoint's creation, in the same transaction too, and none while it is disabled or once deleted", async () => {
      const realm = await seedRealm(s);
      const deletedEvents = async () => (await s.records.events(realm, { type: 'user.deleted', limit: 100 })).length;
      await userDeleted(s, realm, T0);
      assert.equal(await deletedEvents(), 0, 'no endpoint yet');
      // Queued in one turn: SQLite runs both units in one transaction, the endpoint's first.
      const user = await seedUser(s, realm);
      const e = createdEndpoint({ realmId: realm, url: 'https://hooks.example/in', eventTypes: ['user.deleted'], description: '', enabled: true }, T0);
      await Promise.all([
        s.webhooks.create(e, webhookAuditRecord('create', null, e, actor, null, T0)),
        s.users.deleteAccount(realm, user.id, (snap) => planAccountDeletion(snap, { realmId: realm, userId: user.id, actor, requestId: null }, T0, [])),
      ]);
      assert.equal(await deletedEvents(), 1, 'created in the same turn');
      const enabled = (on: boolean) =>
        s.webhooks.update(realm, e.id, (current) => ({ endpoint: patchedEndpoint(current, { enabled: on }, T0 + SECOND), audit: null }));
      await enabled(false);
      await userDeleted(s, realm, T0 + SECOND);
      assert.equal(await deletedEvents(), 1, 'disabled');
      await enabled(true);
      await userDeleted(s, realm, T0 + 2 * SECOND);
      assert.equal(await deletedEvents(), 2, 'enabled again');
      await s.webhooks.delete(realm, e.id, (x) => webhookAuditRecord('delete', x, null, actor, null, T0 + 3 * SECOND));
      await userDeleted(s, realm, T0 + 3 * SECOND);
      assert.equal(await deletedEvents(), 2, 'deleted');
    });

    it('records attempts and lists deliveries newest first with their job state and attempts, by status and by page', async () => {
      const realm = await seedRealm(s);
      const e = await endpointIn(realm);
      const made = [1, 2, 3].map((i) => newDelivery(e, { id: `evt_${realm}_${i}`, type: 'webhook.test' }, T0 + i * SECOND));
      const events: GatehouseEvent[] = [];
      for (const m of made) {
        const event: GatehouseEvent = { id: m.delivery.eventId, type: 'webhook.test', realmId: realm, createdAt: m.delivery.createdAt, data: { n: m.job.id } };
        await s.webhooks.queueDirect(event, m.delivery, m.job);
        events.push(event);
      }
      const first = made[0]!;
      const [held] = await s.jobs.claim(T0 + HOUR, 1, ['webhook.deliver'], (j) => claimed(j, 'me', T0 + HOUR, DELIVERY_POLICY), first.job.id);
      assert.equal(held?.id, first.job.id);
      const attempt = { id: unique('wha'), deliveryId: first.delivery.id, webhookId: e.id, at: T0 + HOUR, httpStatus: 204, error: null, durationMs: 12 };
      const outcome = afterAttempt(held, { kind: 'done' }, T0 + HOUR, DELIVERY_POLICY, 0);
      assert.deepEqual(
        await s.webhooks.recordAttempts('me', [{ deliveryId: first.job.id, attempt, delivered: true, endedAt: T0 + HOUR, outcome }], afterDeliveryAttempts),
        [true],
      );
      const contexts = await s.webhooks.deliveryContexts([first.delivery.id, 'job_unknown']);
      assert.deepEqual([...contexts.keys()], [first.delivery.id]);
      const context = contexts.get(first.delivery.id);
      assert.equal(context?.endpoint.secret, e.secret);
      assert.equal(context?.event.id, first.delivery.eventId);
      assert.equal(context?.body, eventBody(events[0]!), 'the body sent, from the data as stored');
      assert.deepEqual(context?.delivery, first.delivery);
      const all = await s.webhooks.listDeliveries(e.id, { after: null, limit: 10 });
      assert.deepEqual(
        all.map((d) => d.id),
        made.map((m) => m.delivery.id).reverse(),
      );
      const [delivered] = await s.webhooks.listDeliveries(e.id, { status: 'delivered', after: null, limit: 10 });
      assert.equal(delivered?.id, first.delivery.id);
      assert.deepEqual(delivered?.attempts, [attempt]);
      const page2 = await s.webhooks.listDeliveries(e.id, { after: { createdAt: all[0]!.createdAt, id: all[0]!.id }, limit: 10 });
      assert.deepEqual(
        page2.map((d) => d.id),
        all.slice(1).map((d) => d.id),
      );
      assert.deepEqual(await s.webhooks.getDelivery(e.id, first.delivery.id), first.delivery);
      assert.equal(await s.webhooks.getDelivery('whk_other', first.delivery.id), null);
    });

    it("records a claim's attempts with their jobs' outcomes and their endpoints' changes; a job whose lease was lost keeps its attempt but is not finished", async () => {
      const realm = await seedRealm(s);
      const healthy = await endpointIn(realm);
      const failing = await endpointIn(realm);
      const at = T0 + HOUR;
      const [d1, d2, lost] = await claimedDeliveries(healthy, 3, 'me', at);
      const [d3] = await claimedDeliveries(failing, 1, 'me', at);
      const [gone] = await claimedDeliveries(healthy, 1, 'me', at);
      // The lease of `lost` runs out and another replica claims it before this one records.
      const later = at + DELIVERY_POLICY.leaseMs;
      const peer = await s.peer();
      assert.equal((await peer.jobs.claim(later, 1, [DELIVER], (j) => claimed(j, 'other', later, DELIVERY_POLICY), lost!.id))[0]?.leaseOwner, 'other');
      const ended = later + SECOND;
      const claim: ClaimedAttempt[] = [
        attemptOf(d1!, healthy.id, ended),
        attemptOf(d2!, healthy.id, ended + 1),
        attemptOf(lost!, healthy.id, ended + 2),
        attemptOf(d3!, failing.id, ended + 3, 'HTTP 500'),
        // No attempt was made (its endpoint or event was gone): the job is given up all the same.
        {
          deliveryId: gone!.id,
          attempt: null,
          delivered: false,
          endedAt: ended,
          outcome: afterAttempt(gone!, { kind: 'fail', error: 'gone' }, ended, DELIVERY_POLICY, 0),
        },
      ];
      assert.deepEqual(await s.webhooks.recordAttempts('me', claim, afterDeliveryAttempts), [true, true, false, true, true]);
      const state = async (j: Job) => (await s.jobs.get(j.id))?.status;
      assert.deepEqual(await Promise.all([d1, d2, lost, d3, gone].map((j) => state(j!))), ['done', 'done', 'running', 'pending', 'failed']);
      const attempts = async (e: WebhookEndpoint) =>
        (await s.webhooks.listDeliveries(e.id, { after: null, limit: 10 })).flatMap((d) => d.attempts.map((a) => [d.id, a.at, a.error]));
      assert.deepEqual(
        (await attempts(healthy)).sort(),
        [
          [d1!.id, ended, null],
          [d2!.id, ended + 1, null],
          [lost!.id, ended + 2, null],
        ].sort(),
      );
      assert.deepEqual(await attempts(failing), [[d3!.id, ended + 3, 'HTTP 500']]);
      assert.equal((await s.webhooks.get(realm, healthy.id))?.failingSince, null);
      assert.equal((await s.webhooks.get(realm, failing.id))?.failingSince, ended + 3, 'its failing streak started');
      assert.deepEqual((await s.records.audit(realm, { action: 'webhook.disable', limit: 10 })).length, 0);
    });

    it('finishes no job with the attempt of an earlier claim of it, also one of the same owner: its lease ran out and a later claim holds it', async () => {
      const realm = await seedRealm(s);
      const e = await endpointIn(realm);
      const at = T0 + HOUR;
      const [first] = await claimedDeliveries(e, 1, 'me', at);
      const later = at + DELIVERY_POLICY.leaseMs;
      const [again] = await s.jobs.claim(later, 1, [DELIVER], (j) => claimed(j, 'me', later, DELIVERY_POLICY), first!.id);
      assert.equal(again?.attempts, 2);
      assert.deepEqual(await s.webhooks.recordAttempts('me', [attemptOf(first!, e.id, later + 1, 'HTTP 500')], afterDeliveryAttempts), [false]);
      const state = async () => {
        const job = await s.jobs.get(first!.id);
        return [job?.status, job?.attempts, job?.leaseUntil];
      };
      assert.deepEqual(await state(), ['running', 2, again!.leaseUntil], 'as the later claim holds it');
      assert.deepEqual(await s.webhooks.recordAttempts('me', [attemptOf(again!, e.id, later + 2)], afterDeliveryAttempts), [true]);
      assert.deepEqual(await state(), ['done', 2, null]);
    });

    it("writes nothing of a claim's attempts when one of its writes fails", async () => {
      const realm = await seedRealm(s);
      const e = await endpointIn(realm);
      const at = T0 + HOUR;
      const [d1, d2] = await claimedDeliveries(e, 2, 'me', at);
      const first = attemptOf(d1!, e.id, at);
      // The second attempt's record takes the first's id: its insert fails.
      const clashing = attemptOf(d2!, e.id, at + 1, 'HTTP 500');
      await assert.rejects(
        s.webhooks.recordAttempts('me', [first, { ...clashing, attempt: { ...clashing.attempt!, id: first.attempt!.id } }], afterDeliveryAttempts),
      );
      assert.deepEqual([(await s.jobs.get(d1!.id))?.status, (await s.jobs.get(d2!.id))?.status], ['running', 'running']);
      assert.deepEqual(
        (await s.webhooks.listDeliveries(e.id, { after: null, limit: 10 })).flatMap((d) => d.attempts),
        [],
      );
      assert.equal((await s.webhooks.get(realm, e.id))?.failingSince, null);
    });

    it('disables an endpoint failing for 5 days once, with one audit record, when two replicas record its failures at the same moment', async () => {
      const realm = await seedRealm(s);
      const e = await endpointIn(realm);
      const start = T0 + HOUR;
      await s.webhooks.update(realm, e.id, (current) => afterDeliveryAttempt(current, false, start));
      const peer = await s.peer();
      const at = start + DISABLE_AFTER_FAILING_MS;
      const [mine] = await claimedDeliveries(e, 1, 'me', at);
      const [theirs] = await claimedDeliveries(e, 1, 'other', at);
      const recorded = await Promise.all([
        s.webhooks.recordAttempts('me', [attemptOf(mine!, e.id, at, 'HTTP 500')], afterDeliveryAttempts),
        peer.webhooks.recordAttempts('other', [attemptOf(theirs!, e.id, at + 1, 'HTTP 500')], afterDeliveryAttempts),
      ]);
      assert.deepEqual(recorded, [[true], [true]]);
      const after = await s.webhooks.get(realm, e.id);
      assert.deepEqual([after?.enabled, after?.failingSince], [false, start]);
      const disables = await s.records.audit(realm, { action: 'webhook.disable', limit: 10 });
      assert.deepEqual(
        disables.map((a) => a.targetId),
        [e.id],
      );
    });

    it("writes no more outbox events for an endpoint once a claim's failures disabled it", async () => {
      const realm = await seedRealm(s);
      const deletedEvents = async () => (await s.records.events(realm, { type: 'user.deleted', limit: 100 })).length;
      const e = await endpointIn(realm, { eventTypes: ['user.deleted', 'webhook.test'] });
      const start = T0 + HOUR;
      await s.webhooks.update(realm, e.id, (current) => afterDeliveryAttempt(current, false, start));
      const at = start + DISABLE_AFTER_FAILING_MS;
      const [job] = await claimedDeliveries(e, 1, 'me', at);
      // Written while it is enabled and failing, right before the claim's record.
      await userDeleted(s, realm, at - SECOND);
      assert.equal(await deletedEvents(), 1, 'enabled');
      assert.deepEqual(await s.webhooks.recordAttempts('me', [attemptOf(job!, e.id, at, 'HTTP 500')], afterDeliveryAttempts), [true]);
      assert.equal((await s.webhooks.get(realm, e.id))?.enabled, false);
      await userDeleted(s, realm, at);
      assert.equal(await deletedEvents(), 1, 'disabled by its failures');
    });

    it('deletes an endpoint with its delivery records and audits it', async () => {
      const realm = await seedRealm(s);
      const e = await endpointIn(realm);
      const m = newDelivery(e, { id: `evt_${realm}`, type: 'webhook.test' }, T0);
      await s.webhooks.queueDirect({ id: `evt_${realm}`, type: 'webhook.test', realmId: realm, createdAt: T0, data: {} }, m.delivery, m.job);
      const deleted = await s.webhooks.delete(realm, e.id, (x) => webhookAuditRecord('delete', x, null, actor, null, T0));
      assert.equal(deleted?.id, e.id);
      assert.equal(await s.webhooks.get(realm, e.id), null);
      assert.equal((await s.webhooks.deliveryContexts([m.delivery.id])).size, 0);
      assert.equal(await s.webhooks.delete(realm, e.id, () => assert.fail('asked')), null);
      assert.equal((await s.records.audit(realm, { action: 'webhook.delete', limit: 10 })).length, 1);
    });

    it('pages the audit log newest first under its filters', async () => {
      const realm = await seedRealm(s);
      const e = await endpointIn(realm);
      for (let i = 1; i <= 3; i++) {
        await s.webhooks.update(realm, e.id, (current) => {
          const after = patchedEndpoint(current, { description: `d${i}` }, T0 + i * SECOND);
          return { endpoint: after, audit: webhookAuditRecord('update', current, after, actor, null, T0 + i * SECOND) };
        });
      }
      const page1 = await s.records.auditPage(realm, { targetId: e.id, after: null, limit: 2 });
      assert.deepEqual(
        page1.map((a) => a.at),
        [T0 + 3 * SECOND, T0 + 2 * SECOND],
      );
      const page2 = await s.records.auditPage(realm, { targetId: e.id, after: { at: page1[1]!.at, auditId: page1[1]!.auditId }, limit: 2 });
      assert.deepEqual(
        page2.map((a) => a.action),
        ['webhook.update', 'webhook.create'],
      );
      assert.equal((await s.records.auditPage(realm, { since: T0 + 2 * SECOND, until: T0 + 3 * SECOND, after: null, limit: 10 })).length, 1);
      assert.equal((await s.records.auditPage(realm, { actorId: 'key_other', after: null, limit: 10 })).length, 0);
      assert.equal((await s.records.auditPage(realm, { action: 'webhook.create', actorId: 'key_1', after: null, limit: 10 })).length, 1);
    });

    /** Makes the delivery's attempt at `at`: claimed, answered 204, recorded with its job done. */
    async function delivered(stores: Stores, m: ReturnType<typeof newDelivery>, at: number): Promise<void> {
      const [held] = await stores.jobs.claim(at, 1, ['webhook.deliver'], (j) => claimed(j, 'me', at, DELIVERY_POLICY), m.job.id);
      assert.equal(held?.id, m.job.id);
      const attempt = {
        id: `wha_${m.delivery.id}`,
        deliveryId: m.delivery.id,
        webhookId: m.delivery.webhookId,
        at,
        httpStatus: 204,
        error: null,
        durationMs: 3,
      };
      const outcome = afterAttempt(held, { kind: 'done' }, at, DELIVERY_POLICY, 0);
      assert.deepEqual(
        await stores.webhooks.recordAttempts('me', [{ deliveryId: m.job.id, attempt, delivered: true, endedAt: at, outcome }], afterDeliveryAttempts),
        [true],
      );
    }

    it('queues a redelivery of an event beside its first delivery, due at once', async () => {
      const realm = await seedRealm(s);
      const e = await endpointIn(realm);
      const event: GatehouseEvent = { id: `evt_${realm}_again`, type: 'webhook.test', realmId: realm, createdAt: T0, data: {} };
      const first = newDelivery(e, event, T0);
      await s.webhooks.queueDirect(event, first.delivery, first.job);
      await delivered(s, first, T0 + SECOND);
      const again = newDelivery(e, event, T0 + HOUR);
      await s.webhooks.queueDelivery(again.delivery, again.job);
      assert.deepEqual(
        (await s.webhooks.listDeliveries(e.id, { after: null, limit: 10 })).map((d) => [d.id, d.eventId, d.status]),
        [
          [again.delivery.id, event.id, 'pending'],
          [first.delivery.id, event.id, 'delivered'],
        ],
      );
      assert.deepEqual(await s.webhooks.getDelivery(e.id, again.delivery.id), again.delivery);
      assert.equal((await s.webhooks.deliveryContexts([again.delivery.id])).get(again.delivery.id)?.event.id, event.id);
      const [due] = await s.jobs.claim(T0 + HOUR, 1, ['webhook.deliver'], (j) => claimed(j, 'me', T0 + HOUR, DELIVERY_POLICY), again.job.id);
      assert.equal(due?.id, again.job.id);
    });

    it('prunes events made before a time whose deliveries are all done, with their deliveries, attempts and jobs, and audit records likewise, at most `limit` at once', async () => {
      const own = await factory(); // a database of its own: the counts are exact
      try {
        const realm = await seedRealm(own);
        const e = createdEndpoint({ realmId: realm, url: 'https://hooks.example/in', eventTypes: ['*'], description: '', enabled: true }, T0);
        await own.webhooks.create(e, webhookAuditRecord('create', null, e, actor, null, T0));
        const queued = async (n: number, at: number) => {
          const event: GatehouseEvent = { id: `evt_${realm}_${n}`, type: 'webhook.test', realmId: realm, createdAt: at, data: {} };
          const m = newDelivery(e, event, at);
          await own.webhooks.queueDirect(event, m.delivery, m.job);
          return m;
        };
        const done = [await queued(1, T0), await queued(2, T0), await queued(3, T0)];
        for (const m of done) await delivered(own, m, T0 + SECOND);
        const waiting = await queued(4, T0);
        const recent = await queued(5, T0 + DAY);
        await delivered(own, recent, T0 + DAY);
        assert.equal(await own.webhooks.pruneEvents(T0 + HOUR, 2), 2);
        assert.equal(await own.webhooks.pruneEvents(T0 + HOUR, 2), 1);
        assert.equal(await own.webhooks.pruneEvents(T0 + HOUR, 2), 0);
        for (const m of done) {
          assert.equal(await own.webhooks.getDelivery(e.id, m.delivery.id), null);
          assert.equal((await own.webhooks.deliveryContexts([m.delivery.id])).size, 0);
          assert.equal(await own.jobs.get(m.job.id), null);
        }
        assert.deepEqual(
          (await own.webhooks.listDeliveries(e.id, { after: null, limit: 10 })).map((d) => [d.id, d.status, d.attempts.length]),
          [
            [recent.delivery.id, 'delivered', 1],
            [waiting.delivery.id, 'pending', 0],
          ],
        );

        for (const at of [T0 + SECOND, T0 + 2 * SECOND, T0 + DAY]) {
          await own.webhooks.update(realm, e.id, (current) => {
            const after = patchedEndpoint(current, { description: `at ${at}` }, at);
            return { endpoint: after, audit: webhookAuditRecord('update', current, after, actor, null, at) };
          });
        }
        // Before T0 + HOUR: the realm's creation, the endpoint's and its first two updates.
        assert.equal(await own.webhooks.pruneAudit(T0 + HOUR, 3), 3);
        assert.equal(await own.webhooks.pruneAudit(T0 + HOUR, 3), 1);
        assert.equal(await own.webhooks.pruneAudit(T0 + HOUR, 3), 0);
        assert.deepEqual(
          (await own.records.audit(realm, { limit: 10 })).map((a) => [a.action, a.at]),
          [['webhook.update', T0 + DAY]],
        );
      } finally {
        await own.close();
      }
    });
  });
}
