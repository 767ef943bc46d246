// docs/events.md "Retention": a delivery given up (`failed`) after its 3 days of retries is kept, with its event,
// attempts and job, for 30 days like a delivered one, and then pruned by the periodic sweep, on both
// backends. A receiver on loopback answers 500 throughout; the server's clock is manual and the test
// runs the queue's rounds and the sweep itself; what is left is read from the database itself.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../server/lib/clock.ts';
import { describeEachBackend } from '../helpers/backends.ts';
import { api } from '../helpers/http.ts';
import { type RawDb, rawDb } from '../helpers/raw-db.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';
import { receiver } from '../helpers/webhook-receiver.ts';

const REALM = 'given-up';
const DAY = 86_400_000;

describeEachBackend('the retention of a failed delivery', (backend) => {
  const clock = new ManualClock(Date.UTC(2026, 9, 1));
  let server: InProcessServer;
  let admin: ReturnType<typeof api>;
  let hook: Awaited<ReturnType<typeof receiver>>;
  let db: RawDb;

  before(async () => {
    server = await startInProcess({ backend, clock, tuning: { jobIntervalMs: 3_600_000, sweepIntervalMs: 3_600_000, webhookTimeoutMs: 1000 } });
    admin = api(server.http, server.adminKey);
    assert.equal((await admin.post('/api/admin/realms', { id: REALM, name: 'Given up' })).status, 200);
    hook = await receiver();
    hook.mode = '500';
    db = await rawDb(server.dbPath, backend);
  });
  after(async () => {
    await db.close();
    await hook.close();
    await server.stop();
  });

  it('keeps a given-up delivery with its event, attempts and job for 30 days from the event, then prunes them all', async () => {
    const hooks = `/api/admin/realms/${REALM}/webhooks`;
    const endpoint = await admin.post(hooks, { url: hook.url, eventTypes: ['webhook.test'] });
    assert.equal(endpoint.status, 200, endpoint.text);
    const created = clock.now();
    const test = await admin.post(`${hooks}/${endpoint.body.id}/test`, {});
    assert.equal(test.status, 200, test.text);
    const { eventId, deliveryId } = test.body as { eventId: string; deliveryId: string };
    const listed = async () => {
      const res = await admin.get(`${hooks}/${endpoint.body.id}/deliveries`);
      assert.equal(res.status, 200, res.text);
      return res.body.deliveries as Array<{ id: string; status: string; nextAttemptAt: string; attempts: unknown[] }>;
    };
    const rowsLeft = async () => ({
      events: await db.count('SELECT count(*) FROM events WHERE id = $1', [eventId]),
      deliveries: await db.count('SELECT count(*) FROM webhook_deliveries WHERE id = $1', [deliveryId]),
      attempts: await db.count('SELECT count(*) FROM webhook_attempts WHERE delivery_id = $1', [deliveryId]),
      jobs: await db.count('SELECT count(*) FROM jobs WHERE id = $1', [deliveryId]),
    });

    await server.running.app.jobs.runOnce(); // the relay hands the event out, its first attempt fails
    for (;;) {
      const [d] = await listed();
      if (d!.status !== 'pending') break;
      clock.set(Date.parse(d!.nextAttemptAt));
      await server.running.app.jobs.runOnce();
    }
    const [failed] = await listed();
    assert.equal(failed!.status, 'failed');
    const attempts = failed!.attempts.length;
    assert.ok(attempts > 1);
    assert.deepEqual(await rowsLeft(), { events: 1, deliveries: 1, attempts, jobs: 1 });

    clock.set(created + 30 * DAY - 1);
    await server.running.sweeper.runOnce();
    assert.deepEqual(await rowsLeft(), { events: 1, deliveries: 1, attempts, jobs: 1 }, 'kept inside the 30 days');
    assert.equal((await listed())[0]!.status, 'failed');

    clock.set(created + 30 * DAY + 1);
    assert.ok((await server.running.sweeper.runOnce()).events! >= 1);
    assert.deepEqual(await rowsLeft(), { events: 0, deliveries: 0, attempts: 0, jobs: 0 }, 'pruned after them');
    assert.deepEqual(await listed(), []);
  });
});
