// The purge after an account's deletion (docs/login.md "Deleting an account"), against real
// servers (`gatehouse serve` processes where a signal ends one, in this process otherwise): the deletion answers once the account is gone, its points rows go
// afterwards in batches from the durable queue, other users' calls are answered between them, and a
// server killed with SIGKILL (or stopped) mid-purge leaves the rest to the next one. The account's rows are
// seeded straight into its tables (as many as years of use leave); the tests read the database
// itself to see what is left, and wait for states, never for a time.
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { PURGE_BATCH_ROWS, PURGE_TABLES } from '../../server/users/purge.ts';
import { describeEachBackend } from '../helpers/backends.ts';
import { api } from '../helpers/http.ts';
import { type RawDb, rawDb } from '../helpers/raw-db.ts';
import { type InProcessServer, newDatabase, type SpawnedServer, spawnServer, startInProcess, type TestBackend, tempDir } from '../helpers/server.ts';

const REALM = 'purge';
/** History and usage ledger rows each: 120 batches a table, whatever a batch's size, so the purge
 *  is still under way when the tests look (what 120 000 rows were when batches were of 1 000). */
const SEEDED = 120 * PURGE_BATCH_ROWS;

/** `n` rows of the user's history and usage ledger, made by the database itself. */
function seedSql(userId: string, n: number, now: number, backend: TestBackend): string {
  const series =
    backend === 'postgres'
      ? `generate_series(1, ${n}) AS g(n)`
      : `(WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${n}) SELECT n FROM s)`;
  return `INSERT INTO points_transactions (id, realm_id, user_id, amount, description, allocations, created_at, kind)
      SELECT 'ptx_seed_' || n, '${REALM}', '${userId}', 1, NULL, '[]', ${now} - n, 'consume' FROM ${series};
    INSERT INTO points_usage_ledger (user_id, kind, at, seq, amount, cum)
      SELECT '${userId}', 'subscription_credit', ${now} - (${n} - n) * 1000, n, 1, n FROM ${series};`;
}

const rowsLeft = (db: RawDb, userId: string) =>
  db.count('SELECT (SELECT count(*) FROM points_transactions WHERE user_id = $1) + (SELECT count(*) FROM points_usage_ledger WHERE user_id = $2)', [
    userId,
    userId,
  ]);

/** Every row of the user in every table a purge empties. */
async function everyRowOf(db: RawDb, userId: string): Promise<number> {
  let n = 0;
  for (const table of PURGE_TABLES) n += await db.count(`SELECT count(*) FROM ${table} WHERE user_id = $1`, [userId]);
  return n;
}

const purgeStatus = async (db: RawDb) => {
  for (const status of ['pending', 'running', 'done', 'failed']) {
    if ((await db.count("SELECT count(*) FROM jobs WHERE kind = 'user.purge' AND status = $1", [status])) > 0) return status;
  }
  return null;
};

const nextTick = () => new Promise((r) => setTimeout(r, 20));

describeEachBackend('account deletion: the purge after the commit', (backend) => {
  const servers: Array<SpawnedServer | InProcessServer> = [];
  after(async () => {
    for (const s of servers) await ('kill' in s ? s.kill('SIGKILL') : s.stop());
  });

  /** A server on a new database with a realm, a heavy account (its rows seeded) and another one
   *  that consumes; a process of its own when a signal is to end it. */
  async function setUp<S extends SpawnedServer | InProcessServer>(start: (o: { dbPath: string; dir: string }) => Promise<S>) {
    const dir = tempDir(); // a database of its own per test
    const database = await newDatabase(dir, backend);
    const server = await start({ dbPath: database.dbPath, dir });
    servers.push(server);
    const admin = api(server.http, server.adminKey);
    assert.equal((await admin.post('/api/admin/realms', { id: REALM, name: 'Purge' })).status, 200);
    const heavy = await admin.post(`/api/admin/realms/${REALM}/users`, { email: 'heavy@example.com' });
    const other = await admin.post(`/api/admin/realms/${REALM}/users`, { email: 'other@example.com' });
    assert.equal(heavy.status, 200, heavy.text);
    for (const user of [heavy.body.id, other.body.id]) {
      const g = await admin.post(`/api/points/${REALM}/users/${user}/grants`, { kind: 'topup_credit', amount: 1000 });
      assert.equal(g.status, 200, g.text);
    }
    assert.equal((await admin.post(`/api/points/${REALM}/consume`, { userId: heavy.body.id, amount: 1, idempotencyKey: 'k1' })).status, 200);
    const db = await rawDb(database.dbPath, backend);
    await db.exec(seedSql(heavy.body.id, SEEDED, Date.now(), backend));
    return { dir, database, server, admin, db, heavyId: heavy.body.id as string, otherId: other.body.id as string };
  }

  it('answers the deletion before the purge ends, answers other users between its batches, shows nothing of the account meanwhile, and leaves no row of it', async () => {
    const { database, server, admin, db, heavyId, otherId } = await setUp(startInProcess);
    try {
      const seeded = await rowsLeft(db, heavyId);
      const deleted = await admin.delete(`/api/admin/realms/${REALM}/users/${heavyId}`);
      assert.equal(deleted.status, 200, deleted.text);
      assert.ok((await rowsLeft(db, heavyId)) > 0, 'answered before the purge ended');

      // Issued while the purge runs: answered while rows of the account are still there.
      const consumed = await admin.post(`/api/points/${REALM}/consume`, { userId: otherId, amount: 1 });
      assert.equal(consumed.status, 200, consumed.text);
      const leftAtAnswer = await rowsLeft(db, heavyId);
      assert.ok(leftAtAnswer > 0 && leftAtAnswer < seeded, `another user's consume answered between two batches (${leftAtAnswer} of ${seeded} left)`);

      // Meanwhile the account is gone from every API: no replayed answer, no history, no user.
      assert.equal((await admin.post(`/api/points/${REALM}/consume`, { userId: heavyId, amount: 1, idempotencyKey: 'k1' })).status, 404);
      assert.equal((await admin.get(`/api/points/${REALM}/users/${heavyId}/transactions`)).status, 404);
      assert.equal((await admin.get(`/api/admin/realms/${REALM}/users/${heavyId}`)).status, 404);
      const listed = await admin.get(`/api/admin/realms/${REALM}/users`);
      assert.deepEqual(
        listed.body.users.map((u: { id: string }) => u.id),
        [otherId],
      );

      while ((await purgeStatus(db)) !== 'done') await nextTick();
      assert.equal(await everyRowOf(db, heavyId), 0);
      assert.equal(await db.count('SELECT count(*) FROM user_tombstones WHERE user_id = $1', [heavyId]), 1, 'the tombstone stays');
      assert.ok((await everyRowOf(db, otherId)) > 0, "the other user's rows stay");
      await server.stop();
    } finally {
      await db.close();
      await database.drop();
    }
  });

  // A server ended mid-purge: killed, its job stays running under a lease no one renews (the next
  // server waits it out); stopped, it hands the job back to the queue, due again at once.
  const interruptions = [
    { signal: 'SIGKILL', exit: null, status: 'running', name: 'resumes a purge cut short by SIGKILL when a server starts again, and finishes it' },
    {
      signal: 'SIGTERM',
      exit: 0,
      status: 'pending',
      name: 'hands a purge under way back to the queue when its server stops (SIGTERM), and the next server finishes it',
    },
  ] as const;
  for (const { signal, exit, status, name } of interruptions) {
    it(name, async () => {
      const { dir, database, server, admin, db, heavyId } = await setUp(spawnServer);
      try {
        const seeded = await rowsLeft(db, heavyId);
        assert.equal((await admin.delete(`/api/admin/realms/${REALM}/users/${heavyId}`)).status, 200);
        while ((await rowsLeft(db, heavyId)) === seeded) await nextTick();
        assert.equal(await server.kill(signal), exit);
        const left = await rowsLeft(db, heavyId);
        assert.ok(left > 0 && left < seeded, `ended mid-purge (${left} of ${seeded} left)`);
        assert.equal(await purgeStatus(db), status);

        const again = await startInProcess({ dbPath: database.dbPath, dir });
        servers.push(again);
        while ((await purgeStatus(db)) !== 'done') await nextTick();
        assert.equal(await everyRowOf(db, heavyId), 0);
        await again.stop();
      } finally {
        await db.close();
        await database.drop();
      }
    });
  }
});
