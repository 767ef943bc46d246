// Issue 7: several OS processes (three `gatehouse serve` on one SQLite file) consume for the same
// user at once. No double spend: accepted amounts never exceed what was available, balances and
// window usage match the accepted total exactly, rejected consumes leave nothing behind, and one
// idempotency key sent to two processes at once deducts once.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { spawnServer, tempDir, type SpawnedServer } from '../helpers/server.ts';
import { api } from '../helpers/http.ts';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { createMapping, createRealm, createUser, subscribe, w } from './helpers.ts';

describe('concurrent consumes from several processes on one database', () => {
  const dir = tempDir();
  const dbPath = join(dir, 'shared.db');
  let servers: SpawnedServer[] = [];
  before(async () => {
    servers = await Promise.all([0, 1, 2].map(() => spawnServer({ dir, dbPath })));
  });
  after(async () => {
    closeGrpcClients();
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('never spends more than was available and leaves exact balances and window usage', async () => {
    const h = api(servers[0]!.http, servers[0]!.adminKey);
    await createRealm(h, 'race');
    const user = await createUser(h, 'race', 'racer@example.com');
    const m = await createMapping(h, 'race', { entitlementKey: 'race', quotaWindows: [w(18000, 300), w(86400, 450)] }, 'race');
    await subscribe(h, 'race', user, m.mappingId);
    assert.equal((await h.post(`/api/points/race/users/${user}/grants`, { kind: 'topup_credit', amount: 400 })).status, 200);
    assert.equal((await h.post(`/api/points/race/users/${user}/grants`, { kind: 'granted_credit', amount: 100, expiresAt: '2999-01-01T00:00:00Z' })).status, 200);
    const before = (await h.get(`/api/points/race/users/${user}/summary`)).body;
    assert.equal(before.total, 800);

    // 3 processes × 2 transports, 150 consumes of 1–29 points (demand ≈ 2 250 > 800), all in flight at once.
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % 29) + 1;
    const calls = Array.from({ length: 150 }, (_, i) => {
      const srv = servers[i % 3]!;
      const amount = rnd();
      if (i % 2 === 0) {
        return api(srv.http, srv.adminKey).post('/api/points/race/consume', { userId: user, amount }).then((r) => {
          assert.ok(r.status === 200 || (r.status === 409 && r.body.error === 'insufficient_points'), r.text);
          return { amount, ok: r.status === 200, have: r.body.have as number | undefined };
        });
      }
      return grpcCall(srv.grpc, 'PointsService', 'Consume', { realmId: 'race', userId: user, amount }, srv.adminKey).then((r) => {
        assert.ok(r.ok || r.error.reason === 'insufficient_points', JSON.stringify(r));
        return { amount, ok: r.ok, have: r.ok ? undefined : Number(r.error.metadata.have) };
      });
    });
    // The same idempotency key to two processes at once: one deduction, the same answer twice.
    const idem = [servers[1]!, servers[2]!].map((s) => api(s.http, s.adminKey).post('/api/points/race/consume', { userId: user, amount: 3, idempotencyKey: 'dup-1' }));
    const results = await Promise.all(calls);
    const [i1, i2] = await Promise.all(idem);
    assert.equal(i1!.status, i2!.status);
    assert.deepEqual(i1!.body.transactionId, i2!.body.transactionId);
    const idemAccepted = i1!.status === 200 ? 3 : 0;

    const accepted = results.filter((r) => r.ok).reduce((s, r) => s + r.amount, 0) + idemAccepted;
    const acceptedCount = results.filter((r) => r.ok).length + (idemAccepted ? 1 : 0);
    assert.ok(accepted <= 800, `accepted ${accepted} > 800 available`);
    for (const r of results.filter((x) => !x.ok)) assert.ok(r.have! < r.amount, 'a rejection reports less than it needed');
    assert.ok(results.some((r) => !r.ok), 'demand exceeded supply, so some were refused');

    const after = (await h.get(`/api/points/race/users/${user}/summary`)).body;
    assert.equal(after.total, 800 - accepted, 'what is left is exactly what was not accepted');
    const fromQuota = after.windows[0].used;
    assert.equal(after.windows[1].used, fromQuota, 'both windows saw the same usage');
    const pool = after.balances.topup + after.balances.granted;
    assert.equal(fromQuota + (500 - pool), accepted, 'window usage plus pool spending equals the accepted total');
    assert.equal(fromQuota, 300, 'quota is used before pools, so the 5h window filled up');

    const db = new Database(dbPath, { readonly: true });
    try {
      const tx = db.prepare('SELECT count(*) AS n, coalesce(sum(amount), 0) AS total FROM points_transactions WHERE user_id = ?').get(user) as { n: number; total: number };
      assert.equal(tx.n, acceptedCount, 'one transaction row per accepted consume, none for the rejected');
      assert.equal(tx.total, accepted);
      const ledger = db.prepare('SELECT coalesce(sum(amount), 0) AS s FROM points_usage_ledger WHERE user_id = ?').get(user) as { s: number };
      assert.equal(ledger.s, fromQuota);
      const neg = db.prepare('SELECT count(*) AS n FROM points_balances WHERE remaining < 0').get() as { n: number };
      assert.equal(neg.n, 0);
    } finally {
      db.close();
    }
  });
});
