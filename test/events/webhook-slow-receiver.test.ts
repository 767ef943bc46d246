// A receiver slower than the queue (docs/events.md "Delivery": a 2xx within 10 seconds is
// delivered): an endpoint's POSTs go in order on its one connection (pipelined: the receiver answers
// them one after another), so those of a claim wait behind each other, and each still has its whole
// timeout from its turn at the receiver. Here each answer takes a fifth of the timeout and a claim's
// worth of events are delivered in one round: all of them at their first attempt, although the
// last waits for its turn several timeouts long.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { CLAIM_BATCH } from '../../server/jobs/queue.ts';
import { ManualClock } from '../../server/lib/clock.ts';
import { api } from '../helpers/http.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';
import { T0 } from '../store/contract.ts';

const REALM = 'slow';
const TIMEOUT_MS = 1000;
/** How long the receiver takes over each answer. */
const ANSWER_AFTER_MS = TIMEOUT_MS / 5;
/** A claim's worth: the last waits for the connection (CLAIM_BATCH − 1) / 5 timeouts. */
const EVENTS = CLAIM_BATCH;

/** A receiver on loopback answering 204 to each request ANSWER_AFTER_MS after it came, noting
 *  each `webhook-id`. */
async function slowReceiver(): Promise<{ url: string; ids: string[]; close(): Promise<void> }> {
  const ids: string[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      ids.push(String(req.headers['webhook-id']));
      setTimeout(() => res.writeHead(204).end(), ANSWER_AFTER_MS);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    ids,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('a webhook receiver answering slower than the queue sends', () => {
  const clock = new ManualClock(T0);
  let server: InProcessServer;
  let receiver: Awaited<ReturnType<typeof slowReceiver>>;

  before(async () => {
    receiver = await slowReceiver();
    server = await startInProcess({ clock, tuning: { jobIntervalMs: 3_600_000, webhookTimeoutMs: TIMEOUT_MS } });
  });
  after(async () => {
    await server.stop();
    await receiver.close();
  });

  it("delivers a claim's worth of events at their first attempt: each POST's timeout counts from when it is sent, not from when it queued for the connection", async () => {
    const admin = api(server.http, server.adminKey);
    assert.equal((await admin.post('/api/admin/realms', { id: REALM, name: 'Slow' })).status, 200);
    const hook = await admin.post(`/api/admin/realms/${REALM}/webhooks`, { url: receiver.url, eventTypes: ['user.created'] });
    assert.equal(hook.status, 200, hook.text);
    for (let i = 0; i < EVENTS; i++) assert.equal((await admin.post(`/api/admin/realms/${REALM}/users`, { email: `u${i}@example.com` })).status, 200);

    await server.running.app.jobs.runOnce();

    assert.equal(receiver.ids.length, EVENTS, 'every event sent once');
    assert.equal(new Set(receiver.ids).size, EVENTS);
    const listed = await admin.get(`/api/admin/realms/${REALM}/webhooks/${hook.body.id}/deliveries?pageSize=200`);
    assert.equal(listed.status, 200, listed.text);
    const deliveries = listed.body.deliveries as Array<{ status: string; attempts: Array<{ httpStatus: number; error: string }> }>;
    assert.equal(deliveries.length, EVENTS);
    for (const d of deliveries) {
      assert.deepEqual(
        { status: d.status, attempts: d.attempts.map((a) => [a.httpStatus, a.error]) },
        { status: 'delivered', attempts: [[204, '']] },
        'delivered at the first attempt',
      );
    }
  });
});
