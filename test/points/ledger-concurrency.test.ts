// Two OS processes (two `gatehouse serve` on one database: a SQLite file, and PostgreSQL: two
// replicas behind no load balancer) hold, settle, release and refund for the same user at once,
// each hold settled through the other process. No overdraw: what stays charged never exceeds what
// there was, the summary, the window and the balances match it exactly, and a settlement replayed
// with its idempotency key on the other process answers its first result and charges nothing more.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, it } from 'node:test';
import { describeEachBackend } from '../helpers/backends.ts';
import { api } from '../helpers/http.ts';
import { newDatabase, type SpawnedServer, spawnServer, tempDir } from '../helpers/server.ts';
import { withStores } from '../helpers/stores.ts';
import { createMapping, createRealm, createUser, subscribe, w } from './helpers.ts';

const REALM = 'ledger';

describeEachBackend('holds, settlements and refunds from two processes on one database', (backend) => {
  const dir = tempDir();
  let db: Awaited<ReturnType<typeof newDatabase>>;
  let servers: SpawnedServer[] = [];
  before(async () => {
    db = await newDatabase(dir, backend);
    servers = await Promise.all([0, 1].map(() => spawnServer({ dir, dbPath: db.dbPath })));
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('never charge more than there was, and a settlement replayed on the other process answers its first result', async () => {
    const [a, b] = servers.map((s) => api(s.http, s.adminKey)) as [ReturnType<typeof api>, ReturnType<typeof api>];
    await createRealm(a, REALM);
    const user = await createUser(a, REALM, 'holder@example.com');
    const m = await createMapping(a, REALM, { entitlementKey: 'ledger', quotaWindows: [w(18000, 300), w(86400, 450)] }, 'ledger');
    await subscribe(a, REALM, user, m.mappingId);
    assert.equal((await a.post(`/api/points/${REALM}/users/${user}/grants`, { kind: 'topup_credit', amount: 400 })).status, 200);
    const available = 700;

    // 60 jobs at once: hold on one process, settle on the other below, at or above the held amount
    // (demand ≈ 1 400 > 700), replay the settlement on the first; every third settled job is
    // refunded in part through the first process, while the others go on.
    let seed = 5;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % 36) + 5;
    const jobs = Array.from({ length: 60 }, async (_, i) => {
      const [first, other] = i % 2 ? [a, b] : [b, a];
      const held = rnd();
      const h = await first.post(`/api/points/${REALM}/holds`, { userId: user, amount: held });
      if (h.status === 409) {
        assert.equal(h.body.error, 'insufficient_points', h.text);
        return { charged: 0, settled: 0 };
      }
      assert.equal(h.status, 200, h.text);
      const amount = [Math.floor(held / 2), held, held + 9][i % 3]!;
      const key = `job-${i}`;
      const s = await other.post(`/api/points/${REALM}/holds/${h.body.holdId}/settle`, { amount, idempotencyKey: key });
      if (s.status === 409) {
        // Above the held amount and the extra could not be covered: the hold stays open.
        assert.equal(s.body.error, 'insufficient_points', s.text);
        const r = await first.post(`/api/points/${REALM}/holds/${h.body.holdId}/release`, {});
        assert.equal(r.status, 200, r.text);
        return { charged: 0, settled: 0 };
      }
      assert.equal(s.status, 200, s.text);
      const again = await first.post(`/api/points/${REALM}/holds/${h.body.holdId}/settle`, { amount, idempotencyKey: key });
      assert.equal(again.status, 200, again.text);
      assert.deepEqual(again.body, s.body, 'the replay answers the first result');
      let refunded = 0;
      if (i % 3 === 0 && amount >= 2) {
        const rf = await first.post(`/api/points/${REALM}/transactions/${s.body.transactionId}/refund`, { amount: Math.floor(amount / 2) });
        assert.equal(rf.status, 200, rf.text);
        assert.equal(rf.body.refunded, Math.floor(amount / 2), 'every source was live: all of it went back');
        refunded = rf.body.refunded;
      }
      return { charged: amount - refunded, settled: 1 };
    });
    const results = await Promise.all(jobs);
    const charged = results.reduce((n, r) => n + r.charged, 0);
    const settled = results.reduce((n, r) => n + r.settled, 0);
    assert.ok(charged <= available, `charged ${charged} of ${available}`);
    assert.ok(settled < results.length, 'demand exceeded supply, so some holds or settlements were refused');

    for (const srv of [a, b]) {
      const sum = (await srv.get(`/api/points/${REALM}/users/${user}/summary`)).body;
      assert.deepEqual([sum.held, sum.holds], [0, []], 'every hold was settled or released');
      assert.equal(sum.total, available - charged, 'what is left is exactly what stays charged');
      const fromQuota = sum.windows[0].used;
      assert.equal(sum.windows[1].used, fromQuota, 'both windows saw the same usage');
      assert.equal(fromQuota + (400 - sum.balances.topup), charged, 'window usage plus pool spending is what stays charged');
    }
    const settles = await b.get(`/api/points/${REALM}/users/${user}/transactions?kind=settle&pageSize=200`);
    assert.equal(settles.body.transactions.length, settled, 'one settlement per settled hold, replays included');
    const balances = await withStores(db.dbPath, (s) => s.points.listBalances(REALM, user));
    for (const x of balances) assert.ok(x.remaining >= 0 && x.remaining <= x.amount, `${x.kind}: ${x.remaining} of ${x.amount}`);
  });
});
