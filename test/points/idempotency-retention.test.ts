// Retention of stored idempotency answers (docs/events.md "Retention", docs/points.md "Retrying safely"): a stream of keyed consumes over months on
// a manual clock, the periodic sweep run each day, leaves only the answers of the last 30 days
// (what was stored less what the sweep deleted, counted by the sweep itself); a replay inside the
// retention answers the first call again, a replay after it is a new call.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../server/lib/clock.ts';
import { describeEachBackend } from '../helpers/backends.ts';
import { api } from '../helpers/http.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';
import { type Api, createRealm, createUser } from './helpers.ts';

const REALM = 'retain';
const DAY = 86_400_000;
const PER_DAY = 4;

describeEachBackend('idempotency answers retention', (backend) => {
  const clock = new ManualClock(Date.UTC(2026, 7, 1));
  let server: InProcessServer;
  let admin: Api;
  let userId: string;

  before(async () => {
    server = await startInProcess({ backend, clock, tuning: { sweepIntervalMs: 3_600_000, jobIntervalMs: 3_600_000 } });
    admin = api(server.http, server.adminKey);
    await createRealm(admin, REALM);
    assert.equal((await admin.put(`/api/points/${REALM}/default-config`, { registrationBonusPoints: 1_000_000 })).status, 200);
    userId = await createUser(admin, REALM, 'keyed@example.com');
  });
  after(async () => {
    await server.stop();
  });

  const consume = async (key: string, amount = 1) => {
    const r = await admin.post(`/api/points/${REALM}/consume`, { userId, amount, idempotencyKey: key });
    assert.equal(r.status, 200, r.text);
    return r.body as { transactionId: string; remaining: { total: number } };
  };

  it('keeps the stored answers bounded under a stream of keyed consumes', async () => {
    const start = clock.now();
    const made: number[] = []; // when each answer was stored
    let pruned = 0;
    for (let day = 0; day < 75; day++) {
      clock.set(start + day * DAY);
      for (let i = 0; i < PER_DAY; i++) {
        await consume(`stream-${day}-${i}`);
        made.push(clock.now());
      }
      pruned += (await server.running.sweeper.runOnce()).idempotency ?? 0;
      // Everything stored before the cutoff is gone, everything after it is kept.
      const older = made.filter((t) => t < clock.now() - 30 * DAY).length;
      assert.equal(pruned, older, `day ${day}`);
      assert.ok(made.length - pruned <= 31 * PER_DAY);
    }
    assert.equal(pruned, (75 - 31) * PER_DAY);
  });

  it('answers a replay inside the retention with the first answer, and one after it as a new call', async () => {
    const first = await consume('late-replay', 3);
    clock.advance(30 * DAY - 1);
    await server.running.sweeper.runOnce();
    const inside = await consume('late-replay', 3);
    assert.equal(inside.transactionId, first.transactionId);
    assert.equal(inside.remaining.total, first.remaining.total, 'nothing deducted by the replay');
    clock.advance(2);
    assert.ok((await server.running.sweeper.runOnce()).idempotency! >= 1);
    const later = await consume('late-replay', 3);
    assert.notEqual(later.transactionId, first.transactionId);
    assert.equal(later.remaining.total, first.remaining.total - 3, 'deducted again');
    // Kept again under the key from now on.
    assert.equal((await consume('late-replay', 3)).transactionId, later.transactionId);
  });
});
