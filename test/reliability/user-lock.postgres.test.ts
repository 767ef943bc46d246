// One user's row lock held from outside (an operator's session, a stuck transaction) must not
// starve the pool for everyone else: a server on PostgreSQL with --db-pool 4, more calls of the
// locked user than the pool has connections, and another user's consume still answers while the
// lock is held (server/store/postgres/user-gate.ts). The locked user's calls answer 503 "Database is
// busy" and write nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { api } from '../helpers/http.ts';
import { postgresUnavailable } from '../helpers/postgres.ts';
import { type SpawnedServer, spawnServer } from '../helpers/server.ts';
import { withStores } from '../helpers/stores.ts';
import { createRealm, createUser } from '../points/helpers.ts';

const skip = postgresUnavailable() ?? undefined;
const POOL = 4;
const REALM = 'locks';

describe('a user’s row lock held on PostgreSQL', { skip }, () => {
  let srv: SpawnedServer;
  let h: ReturnType<typeof api>;
  let sql: pg.Client | undefined;
  before(async () => {
    srv = await spawnServer({ backend: 'postgres', args: ['--db-pool', String(POOL), '--busy-timeout-ms', '3000'] });
    h = api(srv.http, srv.adminKey);
    await createRealm(h, REALM);
  });
  after(async () => {
    await sql?.end().catch(() => {});
    await srv.stop();
  });

  const account = async (email: string) => {
    const u = await createUser(h, REALM, email);
    assert.equal((await h.post(`/api/points/${REALM}/users/${u}/grants`, { kind: 'topup_credit', amount: 100 })).status, 200);
    return u;
  };
  const consume = (userId: string) => h.post(`/api/points/${REALM}/consume`, { userId, amount: 1 });
  const total = async (u: string) => (await h.get(`/api/points/${REALM}/users/${u}/summary`)).body.total as number;

  it('leaves the pool to the other users: their consume succeeds while the lock is held, and the locked user’s calls answer 503 busy, writing nothing', async () => {
    const locked = await account('locked@example.com');
    const other = await account('other@example.com');
    sql = new pg.Client({ connectionString: srv.dbPath });
    await sql.connect();
    await sql.query('BEGIN');
    await sql.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [locked]);

    // Three times as many calls as the pool has connections, all for the locked user.
    const blocked = Array.from({ length: 3 * POOL }, () => consume(locked));
    let answered = false;
    void Promise.allSettled(blocked).then(() => (answered = true));
    // Asked of the database in turn, a round trip each, until one of them is inside it, waiting
    // for the lock (PostgreSQL tells no one when a statement starts waiting).
    const waiting = `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`;
    while ((await sql.query(waiting)).rowCount === 0) assert.ok(!answered, 'the locked user’s calls all answered before one was seen waiting for the lock');
    const served = await consume(other);
    // The lock is still held here: this session releases it only below.
    assert.equal(served.status, 200, served.text);
    assert.equal(served.body.remaining.total, 99);
    const stillHeld = await sql.query(
      `SELECT 1 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE a.pid = pg_backend_pid() AND l.locktype = 'transactionid' AND l.granted`,
    );
    assert.equal(stillHeld.rowCount, 1, 'the outside transaction still holds its lock');

    const answers = await Promise.all(blocked);
    for (const r of answers) {
      assert.equal(r.status, 503, r.text);
      assert.deepEqual([r.body.error, r.body.message, r.headers.get('retry-after')], ['service_unavailable', 'Database is busy, try again', '1']);
    }
    await sql.query('ROLLBACK');

    // Nothing of the refused calls was written; the user's calls go through once the lock is gone.
    assert.equal(await total(locked), 100);
    assert.deepEqual(await withStores(srv.dbPath, (s) => s.points.listTransactions(REALM, locked)), []);
    assert.equal((await consume(locked)).status, 200);
    assert.equal(await total(locked), 99);
  });
});
