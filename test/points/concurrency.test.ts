// Several OS processes (three `gatehouse serve` on one database: a SQLite file, and PostgreSQL: three
// replicas behind no load balancer, each call going to one of them) consume for the same user at once. No double spend: accepted amounts never exceed what was available, balances and
// window usage match the accepted total exactly, rejected consumes leave nothing behind, and one
// idempotency key sent to two processes at once deducts once.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, it } from 'node:test';
import { describeEachBackend } from '../helpers/backends.ts';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { api } from '../helpers/http.ts';
import { newDatabase, type SpawnedServer, spawnServer, tempDir } from '../helpers/server.ts';
import { withStores } from '../helpers/stores.ts';
import { createMapping, createRealm, createUser, subscribe, w } from './helpers.ts';

describeEachBackend('concurrent consumes from several processes on one database', (backend) => {
  const dir = tempDir();
  let db: Awaited<ReturnType<typeof newDatabase>>;
  let dbPath: string;
  let servers: SpawnedServer[] = [];
  before(async () => {
    db = await newDatabase(dir, backend);
    dbPath = db.dbPath;
    servers = await Promise.all([0, 1, 2].map(() => spawnServer({ dir, dbPath })));
  });
  after(async () => {
    closeGrpcClients();
    await Promise.all(servers.map((s) => s.stop()));
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('never spends more than was available and leaves exact balances and window usage', async () => {
    const h = api(servers[0]!.http, servers[0]!.adminKey);
    await createRealm(h, 'race');
    const user = await createUser(h, 'race', 'racer@example.com');
    const m = await createMapping(h, 'race', { entitlementKey: 'race', quotaWindows: [w(18000, 300), w(86400, 450)] }, 'race');
    await subscribe(h, 'race', user, m.mappingId);
    assert.equal((await h.post(`/api/points/race/users/${user}/grants`, { kind: 'topup_credit', amount: 400 })).status, 200);
    assert.equal(
      (await h.post(`/api/points/race/users/${user}/grants`, { kind: 'granted_credit', amount: 100, expiresAt: '2999-01-01T00:00:00Z' })).status,
      200,
    );
    const before = (await h.get(`/api/points/race/users/${user}/summary`)).body;
    assert.equal(before.total, 800);

    // 3 processes × 2 transports, 150 consumes of 1–29 points (demand ≈ 2 250 > 800), all in flight at once.
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % 29) + 1;
    const calls = Array.from({ length: 150 }, (_, i) => {
      const srv = servers[i % 3]!;
      const amount = rnd();
      if (i % 2 === 0) {
        return api(srv.http, srv.adminKey)
          .post('/api/points/race/consume', { userId: user, amount })
          .then((r) => {
            assert.ok(r.status === 200 || (r.status === 409 && r.body.error === 'insufficient_points'), r.text);
            return { amount, ok: r.status === 200, have: r.body.have as number | undefined, transactionId: r.body.transactionId as string | undefined };
          });
      }
      return grpcCall(srv.grpc, 'PointsService', 'Consume', { realmId: 'race', userId: user, amount }, srv.adminKey).then((r) => {
        assert.ok(r.ok || r.error.reason === 'insufficient_points', JSON.stringify(r));
        return {
          amount,
          ok: r.ok,
          have: r.ok ? undefined : Number(r.error.metadata.have),
          transactionId: r.ok ? (r.value.transactionId as string) : undefined,
        };
      });
    });
    // The same idempotency key to two processes at once: one deduction, the same answer twice.
    const idem = [servers[1]!, servers[2]!].map((s) =>
      api(s.http, s.adminKey).post('/api/points/race/consume', { userId: user, amount: 3, idempotencyKey: 'dup-1' }),
    );
    const results = await Promise.all(calls);
    const [i1, i2] = await Promise.all(idem);
    assert.equal(i1!.status, i2!.status);
    assert.deepEqual(i1!.body.transactionId, i2!.body.transactionId);
    const idemAccepted = i1!.status === 200 ? 3 : 0;

    const accepted = results.filter((r) => r.ok).reduce((s, r) => s + r.amount, 0) + idemAccepted;
    const acceptedCount = results.filter((r) => r.ok).length + (idemAccepted ? 1 : 0);
    assert.ok(accepted <= 800, `accepted ${accepted} > 800 available`);
    for (const r of results.filter((x) => !x.ok)) assert.ok(r.have! < r.amount, 'a rejection reports less than it needed');
    assert.ok(
      results.some((r) => !r.ok),
      'demand exceeded supply, so some were refused',
    );

    const after = (await h.get(`/api/points/race/users/${user}/summary`)).body;
    assert.equal(after.total, 800 - accepted, 'what is left is exactly what was not accepted');
    const fromQuota = after.windows[0].used;
    assert.equal(after.windows[1].used, fromQuota, 'both windows saw the same usage');
    const pool = after.balances.topup + after.balances.granted;
    assert.equal(fromQuota + (500 - pool), accepted, 'window usage plus pool spending equals the accepted total');
    assert.equal(fromQuota, 300, 'quota is used before pools, so the 5h window filled up');

    // What the store recorded, read through its interface on a connection of its own.
    const stored = await withStores(dbPath, async (s) => ({
      tx: await s.points.listTransactions('race', user),
      balances: await s.points.listBalances('race', user),
    }));
    assert.equal(stored.tx.length, acceptedCount, 'one transaction per accepted consume, none for the rejected');
    assert.equal(
      stored.tx.reduce((sum, t) => sum + t.amount, 0),
      accepted,
    );
    const answered = [...results.filter((r) => r.ok).map((r) => r.transactionId!), ...(idemAccepted ? [i1!.body.transactionId as string] : [])];
    assert.deepEqual(stored.tx.map((t) => t.transactionId).sort(), answered.sort(), 'the transactions are the accepted answers');
    const lines = stored.tx.flatMap((t) => t.allocations);
    assert.equal(
      lines.filter((a) => a.creditKind === 'subscription_credit').reduce((sum, a) => sum + a.amount, 0),
      fromQuota,
      'the recorded quota use is the window usage',
    );
    assert.equal(stored.balances.length, 2);
    for (const b of stored.balances) {
      const drawn = lines.filter((a) => a.sourceId === b.id).reduce((sum, a) => sum + a.amount, 0);
      assert.ok(b.remaining >= 0, 'no balance below zero');
      assert.equal(b.amount - b.remaining, drawn, `${b.kind}: what it lost is exactly what was drawn from it`);
    }
  });
});
