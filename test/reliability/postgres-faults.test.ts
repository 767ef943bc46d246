// A server on PostgreSQL when the database fails under it: a row lock held past the busy timeout,
// its connection ended while a consume waits or writes, the whole database stopped under load.
// Every answer is 200 or 503 service_unavailable — never a 500 — nothing is half-written, /readyz
// says 503 while the database is away, and the server recovers by itself when it is back. And two
// replicas (two pools) consuming for one user never overdraw.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { api, http } from '../helpers/http.ts';
import { freshPostgresStores, postgresUnavailable, testPostgres } from '../helpers/postgres.ts';
import { type SpawnedServer, spawnServer } from '../helpers/server.ts';
import { withStores } from '../helpers/stores.ts';
import { createRealm, createUser } from '../points/helpers.ts';
import { seedRealm, seedUser, T0, unique } from '../store/contract.ts';

const skip = postgresUnavailable() ?? undefined;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it answers something: a wait for a state, however long the machine takes. */
async function until<T>(probe: () => Promise<T | null | undefined>): Promise<T> {
  for (;;) {
    const v = await probe();
    if (v !== null && v !== undefined) return v;
    await sleep(20);
  }
}

describe('PostgreSQL faults', { skip }, () => {
  let srv: SpawnedServer;
  let h: ReturnType<typeof api>;
  let sql: pg.Client;
  const realm = 'faults';
  before(async () => {
    srv = await spawnServer({ backend: 'postgres', args: ['--busy-timeout-ms', '1000'] });
    h = api(srv.http, srv.adminKey);
    await createRealm(h, realm);
  });
  after(async () => {
    await sql?.end().catch(() => {});
    await srv.stop();
  });

  /** A user with `points` top-up points. */
  const account = async (points: number) => {
    const u = await createUser(h, realm, `${unique('u')}@example.com`);
    assert.equal((await h.post(`/api/points/${realm}/users/${u}/grants`, { kind: 'topup_credit', amount: points })).status, 200);
    return u;
  };
  const total = async (u: string) => (await h.get(`/api/points/${realm}/users/${u}/summary`)).body.total as number;
  const transactions = (u: string) => withStores(srv.dbPath, (s) => s.points.listTransactions(realm, u));
  const connect = async () => {
    sql = new pg.Client({ connectionString: srv.dbPath });
    await sql.connect();
    return sql;
  };
  /** The server's connection waiting on a lock of `kind` ('relation'/'tuple'/'transactionid' for a row, 'advisory'). */
  const waiting = (kinds: string[]) =>
    until(
      async () =>
        (
          await sql.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
               AND wait_event_type = 'Lock' AND wait_event = ANY($1)`,
            [kinds],
          )
        ).rows[0]?.pid,
    );

  it('answers 503 "Database is busy" when a user’s row stays locked past the busy timeout, and writes nothing', async () => {
    const u = await account(50);
    await connect();
    await sql.query('BEGIN');
    await sql.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [u]);
    // The lock is held until the answer: it can only come from the busy timeout.
    const r = await h.post(`/api/points/${realm}/consume`, { userId: u, amount: 5 });
    await sql.query('ROLLBACK');
    await sql.end();
    assert.equal(r.status, 503, r.text);
    assert.equal(r.body.error, 'service_unavailable');
    assert.equal(r.body.message, 'Database is busy, try again');
    assert.equal(r.headers.get('retry-after'), '1');
    assert.equal(await total(u), 50);
    assert.equal((await h.post(`/api/points/${realm}/consume`, { userId: u, amount: 5 })).status, 200, 'and works once the lock is gone');
    assert.equal(await total(u), 45);
  });

  it('runs a consume again, once, when its connection is ended while it waits for the user’s lock: applied exactly once', async () => {
    const u = await account(50);
    await connect();
    await sql.query('BEGIN');
    await sql.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [u]);
    const pending = h.post(`/api/points/${realm}/consume`, { userId: u, amount: 7 });
    const pid = await waiting(['tuple', 'transactionid']);
    await sql.query('SELECT pg_terminate_backend($1)', [pid]);
    await sql.query('ROLLBACK');
    await sql.end();
    const r = await pending;
    assert.equal(r.status, 200, r.text);
    assert.equal(await total(u), 43);
    assert.equal((await transactions(u)).length, 1);
  });

  it('answers 503 "Database unavailable" and writes nothing when the connection is ended in the middle of a consume’s writes', async () => {
    const u = await account(50);
    await connect();
    // Test-only: the consume's write statement stops inside, at its transaction row, until the
    // test lets it go; its balance and ledger writes of that statement have run by then.
    await sql.query(`CREATE FUNCTION test_hold() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_advisory_xact_lock(4242); RETURN NEW; END $$`);
    await sql.query('CREATE TRIGGER test_hold BEFORE INSERT ON points_transactions FOR EACH ROW EXECUTE FUNCTION test_hold()');
    await sql.query('SELECT pg_advisory_lock(4242)');
    try {
      const pending = h.post(`/api/points/${realm}/consume`, { userId: u, amount: 9 });
      const pid = await waiting(['advisory']);
      await sql.query('SELECT pg_terminate_backend($1)', [pid]);
      const r = await pending;
      assert.equal(r.status, 503, r.text);
      assert.equal(r.body.error, 'service_unavailable');
      assert.equal(r.body.message, 'Database unavailable');
    } finally {
      await sql.query('SELECT pg_advisory_unlock(4242)');
      await sql.query('DROP TRIGGER test_hold ON points_transactions');
      await sql.query('DROP FUNCTION test_hold()');
      await sql.end();
    }
    assert.equal(await total(u), 50, 'nothing of the consume was written');
    assert.equal((await transactions(u)).length, 0);
    const again = await h.post(`/api/points/${realm}/consume`, { userId: u, amount: 9 });
    assert.equal(again.status, 200, again.text);
    assert.equal(await total(u), 41);
  });

  it('runs a consume again after a serialization failure or a deadlock, applied once; answers 503 "Database is busy" when they go on', async () => {
    const u = await account(50);
    await connect();
    // Test-only: writes of a transaction row fail as PostgreSQL reports a lost race, while a
    // sequence (which no rollback moves back) is below the given mark.
    await sql.query('CREATE SEQUENCE test_race_seq');
    await sql.query('CREATE TABLE test_race (code TEXT NOT NULL, until BIGINT NOT NULL)');
    await sql.query(`INSERT INTO test_race VALUES ('40001', 0)`);
    await sql.query(`CREATE FUNCTION test_race() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE r RECORD;
      BEGIN
        SELECT * INTO r FROM test_race;
        IF nextval('test_race_seq') <= r.until THEN RAISE EXCEPTION 'test race' USING ERRCODE = r.code; END IF;
        RETURN NEW;
      END $$`);
    await sql.query('CREATE TRIGGER test_race BEFORE INSERT ON points_transactions FOR EACH ROW EXECUTE FUNCTION test_race()');
    /** The next `n` transaction rows fail with `code`. */
    const failNext = async (code: string, n: number) => {
      const { rows } = await sql.query<{ last: string }>('SELECT last_value + (CASE WHEN is_called THEN 0 ELSE -1 END) AS last FROM test_race_seq');
      await sql.query('UPDATE test_race SET code = $1, until = $2', [code, Number(rows[0]!.last) + n]);
    };
    try {
      let left = 50;
      for (const code of ['40001', '40P01']) {
        await failNext(code, 1);
        const r = await h.post(`/api/points/${realm}/consume`, { userId: u, amount: 6 });
        assert.equal(r.status, 200, `${code}: ${r.text}`);
        left -= 6;
        assert.equal(await total(u), left, `${code}: applied once`);
      }
      await failNext('40P01', 100);
      const r = await h.post(`/api/points/${realm}/consume`, { userId: u, amount: 6 });
      assert.equal(r.status, 503, 'a race lost on every run: it gives up, after a bounded number');
      assert.equal(r.body.message, 'Database is busy, try again');
      assert.equal(await total(u), left, 'nothing written');
      await failNext('40P01', 0);
    } finally {
      await sql.query('DROP TRIGGER test_race ON points_transactions');
      await sql.query('DROP FUNCTION test_race()');
      await sql.query('DROP TABLE test_race');
      await sql.query('DROP SEQUENCE test_race_seq');
      await sql.end();
    }
    assert.equal((await transactions(u)).length, 2);
  });

  it('answers 503 "Database unavailable" (never 500) and /readyz 503 while the database is stopped under load, and recovers by itself', async (t) => {
    const pgServer = await testPostgres();
    if (!pgServer.owned) {
      t.skip('needs the tests’ own cluster (it is stopped and started)');
      return;
    }
    const u = await account(100_000);
    const before = await total(u);
    const answers: Array<{ key: string; status: number; error?: string; message?: string }> = [];
    let seq = 0;
    let loading = true;
    const worker = async () => {
      while (loading) {
        const key = `load-${++seq}`;
        const r = await h.post(`/api/points/${realm}/consume`, { userId: u, amount: 1, idempotencyKey: key });
        answers.push({ key, status: r.status, error: r.body?.error, message: r.body?.message });
        if (r.status !== 200) await sleep(10);
      }
    };
    const workers = Array.from({ length: 4 }, worker);
    try {
      await until(async () => (answers.length >= 20 ? true : null));
      pgServer.stop('fast');
      await until(async () => (answers.some((a) => a.status === 503) ? true : null));
      const ready = await http(srv.http, 'GET', '/readyz');
      assert.equal(ready.status, 503, ready.text);
      assert.equal(ready.body.error, 'service_unavailable');
      // Still stopped: every call keeps failing fast, each of the four clients answered again.
      const stoppedAt = answers.length;
      await until(async () => (answers.slice(stoppedAt).filter((a) => a.status === 503).length >= 8 ? true : null));
      pgServer.start();
      await until(async () => ((await http(srv.http, 'GET', '/readyz')).status === 200 ? true : null));
      const okAfter = answers.length;
      await until(async () => (answers.slice(okAfter).some((a) => a.status === 200) ? true : null));
    } finally {
      loading = false;
      await Promise.all(workers);
    }
    for (const a of answers) {
      assert.ok(a.status === 200 || a.status === 503, `${a.key}: ${a.status} ${a.error} ${a.message}`);
      if (a.status === 503) assert.deepEqual([a.error, a.message], ['service_unavailable', 'Database unavailable'], a.key);
    }
    // What the clients do with a 503: send it again with its key. A consume that committed before
    // its answer was lost is answered again, not applied twice; one that did not is applied now.
    for (const a of answers.filter((x) => x.status === 503)) {
      const r = await h.post(`/api/points/${realm}/consume`, { userId: u, amount: 1, idempotencyKey: a.key });
      assert.equal(r.status, 200, r.text);
    }
    assert.equal(await total(u), before - answers.length, 'each consume applied exactly once, none half-written');
    assert.equal((await transactions(u)).length, answers.length);
  });
});

describe('two replicas (two pools) consuming for one user', { skip }, () => {
  it('never overdraw: what they accepted is exactly what the user lost', async () => {
    const s = await freshPostgresStores();
    try {
      const peer = await s.peer();
      const realm = await seedRealm(s);
      const user = await seedUser(s, realm);
      await s.points.grant(
        { realmId: realm, userId: user.id, kind: 'topup_credit', amount: 200, expiresAt: null, idempotencyKey: null, requestHash: 'g', grantId: unique('grt') },
        T0,
      );
      let seed = 11;
      const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % 19) + 1;
      const calls = Array.from({ length: 60 }, (_, i) => {
        const amount = rnd();
        const store = i % 2 ? peer : s;
        return store.points
          .consume({ realmId: realm, userId: user.id, amount, description: null, idempotencyKey: null, requestHash: 'c', transactionId: unique('ptx') }, T0 + i)
          .then(
            () => ({ amount, ok: true }),
            (e: { code?: string }) => {
              assert.equal(e.code, 'insufficient_points');
              return { amount, ok: false };
            },
          );
      });
      const results = await Promise.all(calls);
      const accepted = results.filter((r) => r.ok).reduce((n, r) => n + r.amount, 0);
      assert.ok(accepted <= 200, `accepted ${accepted} of 200`);
      assert.ok(
        results.some((r) => !r.ok),
        'demand exceeded supply',
      );
      assert.equal((await peer.points.summary(realm, user.id, T0 + 100)).total, 200 - accepted);
      const tx = await s.points.listTransactions(realm, user.id);
      assert.equal(tx.length, results.filter((r) => r.ok).length);
      const balances = await peer.points.listBalances(realm, user.id);
      assert.equal(
        balances.reduce((n, b) => n + b.remaining, 0),
        200 - accepted,
      );
    } finally {
      await s.close();
    }
  });
});
