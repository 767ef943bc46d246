// WebhookStore contract: endpoints kept with their secrets and audited in the transaction of the
// change; the outbox's fan-out handing each event out once, oldest first, also with a peer handing
// at the same time; attempts recorded and listed with their job's state. What a change or an attempt
// makes of an endpoint is webhooks/model.ts's (tested beside it).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { GatehouseEvent } from '../../server/events/model.ts';
import { afterAttempt, claimed } from '../../server/jobs/retry.ts';
import { planAccountDeletion } from '../../server/users/deletion.ts';
import {
  createdEndpoint,
  DELIVERY_POLICY,
  fanOut,
  newDelivery,
  patchedEndpoint,
  subscribes,
  type WebhookEndpoint,
  webhookAuditRecord,
} from '../../server/webhooks/model.ts';
import { DAY, HOUR, SECOND, type StoreFactory, type StoreFixture, type Stores, seedRealm, seedUser, T0 } from './contract.ts';

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
      while ((await s.webhooks.dispatch(T0, 100, () => ({ deliveries: [], jobs: [] }))) > 0);
      for (let i = 0; i < 6; i++) await userDeleted(s, realm, T0 + i * SECOND);
      assert.ok(await s.webhooks.anyUndispatched());
      assert.equal((await s.webhooks.outbox()).depth, 6);
      const peer = await s.peer();
      const handed: GatehouseEvent[][] = [];
      const plan = (events: GatehouseEvent[], endpoints: WebhookEndpoint[]) => {
        handed.push(events);
        return fanOut(events, endpoints, T0 + HOUR);
      };
      const counts = await Promise.all([s.webhooks.dispatch(T0 + HOUR, 4, plan), peer.webhooks.dispatch(T0 + HOUR, 4, plan)]);
      while ((await s.webhooks.dispatch(T0 + HOUR, 4, plan)) > 0);
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

    it('records attempts and lists deliveries newest first with their job state and attempts, by status and by page', async () => {
      const realm = await seedRealm(s);
      const e = await endpointIn(realm);
      const made = [1, 2, 3].map((i) => newDelivery(e, { id: `evt_${realm}_${i}`, type: 'webhook.test' }, T0 + i * SECOND));
      for (const m of made) {
        const event: GatehouseEvent = { id: m.delivery.eventId, type: 'webhook.test', realmId: realm, createdAt: m.delivery.createdAt, data: {} };
        await s.webhooks.queueDirect(event, m.delivery, m.job);
      }
      const first = made[0]!;
      const [held] = await s.jobs.claim(T0 + HOUR, 1, ['webhook.deliver'], (j) => claimed(j, 'me', T0 + HOUR, DELIVERY_POLICY), first.job.id);
      assert.equal(held?.id, first.job.id);
      await s.webhooks.recordAttempt(
        { id: 'wha_1', deliveryId: first.delivery.id, webhookId: e.id, at: T0 + HOUR, httpStatus: 204, error: null, durationMs: 12 },
        (current) => ({ endpoint: { ...current, failingSince: null }, audit: null }),
      );
      await s.jobs.finish(first.job.id, 'me', (j) => afterAttempt(j, { kind: 'done' }, T0 + HOUR, DELIVERY_POLICY, 0));
      const context = await s.webhooks.deliveryContext(first.delivery.id);
      assert.equal(context?.endpoint.secret, e.secret);
      assert.equal(context?.event.id, first.delivery.eventId);
      const all = await s.webhooks.listDeliveries(e.id, { after: null, limit: 10 });
      assert.deepEqual(
        all.map((d) => d.id),
        made.map((m) => m.delivery.id).reverse(),
      );
      const [delivered] = await s.webhooks.listDeliveries(e.id, { status: 'delivered', after: null, limit: 10 });
      assert.equal(delivered?.id, first.delivery.id);
      assert.deepEqual(delivered?.attempts, [
        { id: 'wha_1', deliveryId: first.delivery.id, webhookId: e.id, at: T0 + HOUR, httpStatus: 204, error: null, durationMs: 12 },
      ]);
      const page2 = await s.webhooks.listDeliveries(e.id, { after: { createdAt: all[0]!.createdAt, id: all[0]!.id }, limit: 10 });
      assert.deepEqual(
        page2.map((d) => d.id),
        all.slice(1).map((d) => d.id),
      );
      assert.deepEqual(await s.webhooks.getDelivery(e.id, first.delivery.id), first.delivery);
      assert.equal(await s.webhooks.getDelivery('whk_other', first.delivery.id), null);
    });

    it('deletes an endpoint with its delivery records and audits it', async () => {
      const realm = await seedRealm(s);
      const e = await endpointIn(realm);
      const m = newDelivery(e, { id: `evt_${realm}`, type: 'webhook.test' }, T0);
      await s.webhooks.queueDirect({ id: `evt_${realm}`, type: 'webhook.test', realmId: realm, createdAt: T0, data: {} }, m.delivery, m.job);
      const deleted = await s.webhooks.delete(realm, e.id, (x) => webhookAuditRecord('delete', x, null, actor, null, T0));
      assert.equal(deleted?.id, e.id);
      assert.equal(await s.webhooks.get(realm, e.id), null);
      assert.equal(await s.webhooks.deliveryContext(m.delivery.id), null);
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

    /** Makes the delivery's attempt at `at`: claimed, answered 204, recorded, its job done. */
    async function delivered(stores: Stores, m: ReturnType<typeof newDelivery>, at: number): Promise<void> {
      const [held] = await stores.jobs.claim(at, 1, ['webhook.deliver'], (j) => claimed(j, 'me', at, DELIVERY_POLICY), m.job.id);
      assert.equal(held?.id, m.job.id);
      await stores.webhooks.recordAttempt(
        { id: `wha_${m.delivery.id}`, deliveryId: m.delivery.id, webhookId: m.delivery.webhookId, at, httpStatus: 204, error: null, durationMs: 3 },
        (current) => ({ endpoint: { ...current, failingSince: null }, audit: null }),
      );
      await stores.jobs.finish(m.job.id, 'me', (j) => afterAttempt(j, { kind: 'done' }, at, DELIVERY_POLICY, 0));
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
      assert.equal((await s.webhooks.deliveryContext(again.delivery.id))?.event.id, event.id);
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
          assert.equal(await own.webhooks.deliveryContext(m.delivery.id), null);
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
