// The two waits of webhook delivery that only real time shows (docs/events.md "Delivery"), each
// against real `gatehouse serve` processes with their defaults and a receiver on loopback: an
// attempt the receiver never answers is given up after the default 10 s, and a server killed
// (SIGKILL) while its POST is in flight leaves the delivery to a server started again on the same
// database once the attempt's lease (a minute) has run out: the same event, delivered, nothing lost.
// The tests wait for what the receiver got and the servers recorded, asking every 100 ms.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { DELIVERY_TIMEOUT_MS } from '../../server/webhooks/model.ts';
import { describeEachBackend } from '../helpers/backends.ts';
import { api } from '../helpers/http.ts';
import { newDatabase, type SpawnedServer, spawnServer, tempDir } from '../helpers/server.ts';
import { receiver } from '../helpers/webhook-receiver.ts';

const REALM = 'waits';

interface Delivery {
  id: string;
  eventId: string;
  status: string;
  nextAttemptAt: string | null;
  attempts: Array<{ at: string; httpStatus: number; error: string; durationMs: number }>;
}

/** The endpoint's deliveries as `server` lists them, asked every 100 ms until `holds`. */
async function deliveriesWhen(server: SpawnedServer, webhookId: string, holds: (deliveries: Delivery[]) => boolean): Promise<Delivery[]> {
  for (;;) {
    const res = await api(server.http, server.adminKey).get(`/api/admin/realms/${REALM}/webhooks/${webhookId}/deliveries`);
    assert.equal(res.status, 200, res.text);
    if (holds(res.body.deliveries)) return res.body.deliveries;
    await sleep(100);
  }
}

async function endpointOn(server: SpawnedServer, url: string): Promise<string> {
  const admin = api(server.http, server.adminKey);
  assert.equal((await admin.post('/api/admin/realms', { id: REALM, name: 'Waits' })).status, 200);
  const hook = await admin.post(`/api/admin/realms/${REALM}/webhooks`, { url, eventTypes: ['webhook.test'] });
  assert.equal(hook.status, 200, hook.text);
  return hook.body.id;
}

describe('the default delivery timeout', () => {
  it('records an attempt the receiver never answers as a timeout after the default 10 s, and plans its retry after it', async () => {
    assert.equal(DELIVERY_TIMEOUT_MS, 10_000);
    const r = await receiver();
    r.mode = 'hang';
    const server = await spawnServer(); // no timeout flag: the default
    try {
      const webhookId = await endpointOn(server, r.url);
      const sentAfter = Date.now();
      const test = await api(server.http, server.adminKey).post(`/api/admin/realms/${REALM}/webhooks/${webhookId}/test`, {});
      assert.equal(test.status, 200, test.text);
      const [d] = await deliveriesWhen(server, webhookId, ([first]) => first !== undefined && first.attempts.length > 0);
      assert.equal(r.received.length, 1, 'no retry yet: the attempt waited its timeout before failing');
      assert.equal(d!.status, 'pending');
      const [attempt] = d!.attempts;
      assert.equal(attempt!.httpStatus, 0);
      assert.match(attempt!.error, /no answer within 10000 ms/);
      assert.ok(attempt!.durationMs >= DELIVERY_TIMEOUT_MS, `waited ${attempt!.durationMs} ms`);
      assert.ok(attempt!.durationMs < 3 * DELIVERY_TIMEOUT_MS, `gave up at ${attempt!.durationMs} ms, not much later`);
      assert.ok(Date.parse(attempt!.at) >= sentAfter - 1000);
      assert.ok(Date.parse(d!.nextAttemptAt!) >= Date.parse(attempt!.at) + attempt!.durationMs, 'the retry planned after the timeout');
    } finally {
      await server.stop();
      await r.close();
    }
  });
});

describeEachBackend('a server killed in the middle of an attempt', (backend) => {
  const servers: SpawnedServer[] = [];
  after(async () => {
    for (const s of servers) await s.kill('SIGKILL');
  });

  it('leaves the delivery to the server started again on its database once the lease runs out: the same event, delivered once recorded, nothing lost', async () => {
    const dir = tempDir();
    const database = await newDatabase(dir, backend);
    const r = await receiver();
    r.mode = 'hang'; // the POST is held open until the server dies
    try {
      const first = await spawnServer({ dbPath: database.dbPath, dir });
      servers.push(first);
      const webhookId = await endpointOn(first, r.url);
      const test = await api(first.http, first.adminKey).post(`/api/admin/realms/${REALM}/webhooks/${webhookId}/test`, {});
      assert.equal(test.status, 200, test.text);
      await r.receivedCount(1);
      await first.kill('SIGKILL'); // its POST in flight, its attempt not recorded
      r.mode = 'ok';

      const again = await spawnServer({ dbPath: database.dbPath, dir });
      servers.push(again);
      await r.receivedCount(2);
      assert.equal(r.received[0]!.headers['webhook-id'], test.body.eventId);
      assert.equal(r.received[1]!.headers['webhook-id'], test.body.eventId, 'the same event again');
      const delivered = await deliveriesWhen(again, webhookId, ([d]) => d?.status === 'delivered');
      assert.deepEqual(
        delivered.map((d) => [d.id, d.eventId, d.status]),
        [[test.body.deliveryId, test.body.eventId, 'delivered']],
      );
      assert.equal(delivered[0]!.attempts.at(-1)!.httpStatus, 204);
      assert.equal(r.received.length, 2, 'sent twice in all: the killed attempt and the one recorded');
      await again.stop();
    } finally {
      await r.close();
      await database.drop();
    }
  });
});
