// Receivers that misbehave for hours (docs/events.md "Delivery"): endpoints whose receivers never
// answer, answer with 10 MiB, reset the connection, or redirect (to a receiver that must get
// nothing: no redirect is followed), while events keep coming, each delivery
// retried round after round on the server's manual clock. The server's heap after full GCs does
// not grow with the attempts (what it sends, reads and waits for is not kept in the process), as
// test/events/webhook-outage.test.ts shows for receivers answering 500.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../server/lib/clock.ts';
import { describeEachBackend } from '../helpers/backends.ts';
import { liveHeapMiB, logChars } from '../helpers/heap.ts';
import { api } from '../helpers/http.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';

const REALM = 'misbehaving';
const KINDS = ['hang', 'huge', 'reset', 'redirect'] as const;
type Kind = (typeof KINDS)[number];
/** Endpoints per kind (each has a connection of its own, so their timeouts run side by side). */
const ENDPOINTS_PER_KIND = 6;
const STEPS = 16;
const EVENTS_PER_STEP = 1;
const STEP_MS = 30 * 60_000;
/** Bytes of heap growth per failed attempt allowed: the event's body alone is more. */
const MAX_BYTES_PER_ATTEMPT = 512;

/** 1 MiB, sent ten times for each request the `huge` receiver answers. */
const MEBIBYTE = Buffer.alloc(2 ** 20, 'x');

/** A receiver that misbehaves as `kind` says and only counts the requests it gets (it keeps
 *  nothing that grows with them). */
async function misbehaving(kind: Kind, location = ''): Promise<{ url: string; requests(): number; close(): Promise<void> }> {
  let requests = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      if (kind === 'reset') return void req.socket.destroy();
      if (kind === 'hang') return; // never answers
      if (kind === 'redirect') return void res.writeHead(307, { location }).end();
      res.writeHead(500, { 'content-type': 'text/plain' });
      for (let i = 0; i < 10; i++) res.write(MEBIBYTE);
      res.end();
    });
  });
  server.on('clientError', (_e, socket) => socket.destroy());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    requests: () => requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describeEachBackend('webhook receivers that hang, send 10 MiB, reset or redirect', (backend) => {
  const clock = new ManualClock(Date.now());
  let server: InProcessServer;
  let admin: ReturnType<typeof api>;

  before(async () => {
    server = await startInProcess({ backend, clock, tuning: { jobIntervalMs: 3_600_000, webhookTimeoutMs: 25 } });
    admin = api(server.http, server.adminKey);
    assert.equal((await admin.post('/api/admin/realms', { id: REALM, name: 'Misbehaving' })).status, 200);
  });
  after(() => server.stop());

  it('retries every delivery to each of them round after round without growing the heap', async () => {
    // Where the redirects point: a receiver that must get nothing.
    const elsewhere = await misbehaving('hang');
    const receivers = new Map<Kind, Array<Awaited<ReturnType<typeof misbehaving>>>>();
    for (const kind of KINDS) receivers.set(kind, await Promise.all(Array.from({ length: ENDPOINTS_PER_KIND }, () => misbehaving(kind, elsewhere.url))));
    const requestsOf = (kind: Kind) => receivers.get(kind)!.reduce((n, r) => n + r.requests(), 0);
    const allRequests = () => KINDS.reduce((n, kind) => n + requestsOf(kind), 0);
    try {
      for (const r of [...receivers.values()].flat()) {
        const hook = await admin.post(`/api/admin/realms/${REALM}/webhooks`, { url: r.url, eventTypes: ['user.deleted'] });
        assert.equal(hook.status, 200, hook.text);
      }
      let heapAtHalf = 0;
      let logsAtHalf = 0;
      let requestsAtHalf = 0;
      for (let step = 0; step < STEPS; step++) {
        if (step > 0) clock.advance(STEP_MS);
        for (let i = 0; i < EVENTS_PER_STEP; i++) {
          const user = await admin.post(`/api/admin/realms/${REALM}/users`, { email: `u${step}-${i}@example.com` });
          assert.equal(user.status, 200, user.text);
          assert.equal((await admin.delete(`/api/admin/realms/${REALM}/users/${user.body.id}`)).status, 200);
        }
        await server.running.app.jobs.runOnce();
        if (step === STEPS / 2) {
          logsAtHalf = logChars(server.logs());
          heapAtHalf = liveHeapMiB();
          requestsAtHalf = allRequests();
        }
      }
      const events = STEPS * EVENTS_PER_STEP;
      for (const kind of KINDS) assert.ok(requestsOf(kind) > 2 * events * ENDPOINTS_PER_KIND, `${kind}: ${requestsOf(kind)} attempts, each delivery retried`);
      assert.equal(elsewhere.requests(), 0, 'no redirect followed');
      // The server's log aside (the test keeps it), the heap grew over the second half by less than
      // MAX_BYTES_PER_ATTEMPT per attempt: less than an attempt's job, event and body weigh.
      const attempts = allRequests() - requestsAtHalf;
      const logGrowth = logChars(server.logs()) - logsAtHalf;
      const perAttempt = ((liveHeapMiB() - heapAtHalf) * 2 ** 20 - logGrowth) / attempts;
      assert.ok(
        perAttempt < MAX_BYTES_PER_ATTEMPT,
        `the heap grew by ${Math.round(perAttempt)} bytes per attempt over ${attempts} attempts (${KINDS.map((k) => `${k} ${requestsOf(k)}`).join(', ')})`,
      );
    } finally {
      for (const r of [...receivers.values()].flat()) await r.close();
      await elsewhere.close();
    }
  });
});
