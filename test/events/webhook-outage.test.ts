// A receiver down for a day, then back (docs/events.md "Delivery"): with the server's manual clock,
// one endpoint refuses everything (HTTP 500) for 24 hours while events keep coming, another
// endpoint of the realm answers 204 throughout; then the first answers 2xx again. Every event
// reaches it exactly once among its 2xx answers (deduplicated on `webhook-id`, as a receiver
// does), each retry wave (one queue round) in order of creation; the healthy endpoint got every
// event in the round it was written; and the server's heap after full GCs does not grow with the
// retries (the queue lives in the database, not in the process).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import { CLAIM_BATCH } from '../../server/jobs/queue.ts';
import { ManualClock } from '../../server/lib/clock.ts';
import { describeEachBackend } from '../helpers/backends.ts';
import { liveHeapMiB, logChars } from '../helpers/heap.ts';
import { api } from '../helpers/http.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';

const REALM = 'outage';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Events written per step of the outage, and the step. */
const EVENTS_PER_STEP = 10;
const STEP_MS = 30 * MINUTE;
const OUTAGE_MS = 24 * HOUR;
/** The clock's step once the receiver is back: short, so each round's wave is the few deliveries
 *  that came due since the last one (1 s while the latest events' first retries come due, then
 *  1 min while the rest, backed off for up to 6 h, do). */
const recoveryStepMs = (sinceRecovery: number) => (sinceRecovery < 30 * MINUTE ? 1_000 : MINUTE);

/** Bytes of heap growth per failed attempt allowed: the event's body alone is more. */
const MAX_BYTES_PER_ATTEMPT = 512;

/** A receiver on loopback that answers `ok ? 204 : 500` and notes each request's `webhook-id` in
 *  the current wave (only ids: it holds nothing that grows with the retries but the ids). */
async function waveReceiver(): Promise<{ url: string; ok: boolean; wave: string[]; nextWave(): string[]; requests(): number; close(): Promise<void> }> {
  let wave: string[] = [];
  let requests = 0;
  const state = { ok: true };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      wave.push(String(req.headers['webhook-id']));
      res.writeHead(state.ok ? 204 : 500).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    get ok() {
      return state.ok;
    },
    set ok(v: boolean) {
      state.ok = v;
    },
    get wave() {
      return wave;
    },
    nextWave() {
      const done = wave;
      wave = [];
      return done;
    },
    requests: () => requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describeEachBackend('a webhook receiver down for a day, then back', (backend) => {
  const clock = new ManualClock(Date.now());
  let server: InProcessServer;
  let admin: ReturnType<typeof api>;
  const runQueue = () => server.running.app.jobs.runOnce();

  before(async () => {
    server = await startInProcess({ backend, clock, tuning: { jobIntervalMs: 3_600_000, webhookTimeoutMs: 2000 } });
    admin = api(server.http, server.adminKey);
    assert.equal((await admin.post('/api/admin/realms', { id: REALM, name: 'Outage' })).status, 200);
  });
  after(async () => {
    await server.stop();
  });

  it('delivers every event once, each retry wave in order of creation, without holding up the other endpoint or growing the heap', async () => {
    const down = await waveReceiver();
    const healthy = await waveReceiver();
    down.ok = false;
    try {
      for (const r of [down, healthy]) {
        const hook = await admin.post(`/api/admin/realms/${REALM}/webhooks`, { url: r.url, eventTypes: ['user.deleted'] });
        assert.equal(hook.status, 200, hook.text);
      }
      // The events in order of creation, as the healthy endpoint got them (each in its round).
      const created: string[] = [];
      let heapAtHalf = 0;
      let logsAtHalf = 0;
      let requestsAtHalf = 0;
      for (let step = 0; step < OUTAGE_MS / STEP_MS; step++) {
        if (step > 0) clock.advance(STEP_MS);
        for (let i = 0; i < EVENTS_PER_STEP; i++) {
          const user = await admin.post(`/api/admin/realms/${REALM}/users`, { email: `u${step}-${i}@example.com` });
          assert.equal(user.status, 200, user.text);
          assert.equal((await admin.delete(`/api/admin/realms/${REALM}/users/${user.body.id}`)).status, 200);
          clock.advance(1); // distinct creation times: the order of creation is unambiguous
        }
        await runQueue();
        const got = healthy.nextWave();
        assert.equal(got.length, EVENTS_PER_STEP, `the healthy endpoint got step ${step}'s events in its round`);
        created.push(...got);
        down.nextWave();
        if (step === OUTAGE_MS / STEP_MS / 2) {
          logsAtHalf = logChars(server.logs());
          heapAtHalf = liveHeapMiB();
          requestsAtHalf = down.requests();
        }
      }
      assert.equal(new Set(created).size, created.length);
      assert.ok(down.requests() > created.length, 'the down endpoint was retried');
      // What the test itself keeps growing (the server's log lines, held as one string) aside, the
      // heap grew over the second half of the day (thousands of failed attempts; the first hours
      // warm up) by less than MAX_BYTES_PER_ATTEMPT per attempt: less than an attempt's job, event
      // and body weigh, so none of them is kept in the process.
      const attempts = down.requests() - requestsAtHalf;
      const logGrowth = logChars(server.logs()) - logsAtHalf;
      const perAttempt = ((liveHeapMiB() - heapAtHalf) * 2 ** 20 - logGrowth) / attempts;
      assert.ok(perAttempt < MAX_BYTES_PER_ATTEMPT, `the heap grew by ${Math.round(perAttempt)} bytes per attempt over ${attempts} attempts`);

      // Back: the next rounds deliver what is due, wave by wave, until every event has arrived.
      down.ok = true;
      const order = new Map(created.map((id, i) => [id, i]));
      const delivered = new Map<string, number>();
      const recovered = clock.now();
      while (delivered.size < created.length) {
        clock.advance(recoveryStepMs(clock.now() - recovered));
        assert.ok(clock.now() - recovered < 8 * HOUR, `every delivery retried within the backoff's cap: ${delivered.size}/${created.length}`);
        await runQueue();
        const wave = down.nextWave();
        // The steps are short enough that what comes due in one is claimed at once (one wave).
        assert.ok(wave.length <= CLAIM_BATCH, `a wave of ${wave.length} deliveries`);
        const positions = wave.map((id) => order.get(id)!);
        assert.deepEqual(
          positions,
          [...positions].sort((a, b) => a - b),
          'a wave in order of creation',
        );
        for (const id of wave) delivered.set(id, (delivered.get(id) ?? 0) + 1);
      }
      assert.deepEqual([...delivered.keys()].sort(), [...created].sort(), 'every event, and no other');
      assert.ok(
        [...delivered.values()].every((n) => n === 1),
        'each event once',
      );
      // Nothing more comes: every delivery is recorded as delivered.
      clock.advance(7 * HOUR);
      await runQueue();
      assert.deepEqual(down.nextWave(), []);
      assert.deepEqual(healthy.nextWave(), []);
    } finally {
      clock.set(Date.now());
      await down.close();
      await healthy.close();
    }
  });
});
