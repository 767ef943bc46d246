// PostgreSQL's webhook delivery reads and writes its rows by id through their primary keys, however
// much the tables have grown since the statements were planned. The stores' connections plan each
// statement once, without its values (server/store/postgres/connect.ts): a plan made on a young
// database's first thousand rows stays in use as the queue fills it (until an ANALYZE). Here each
// statement is prepared so on such tables, the tables then grow fiftyfold, and the plans PostgreSQL executes are
// asked for: none scans a table of the queue whole, and the outbox's hand-out reads its index in
// order without sorting the waiting events.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { JOB_SQL } from '../../server/store/postgres/job-store.ts';
import { openPostgres } from '../../server/store/postgres/open.ts';
import { WEBHOOK_SQL } from '../../server/store/postgres/webhook-store.ts';
import { freshDatabase, postgresUnavailable, type TestDatabase, testPostgresOptions } from '../helpers/postgres.ts';

/** A young database's rows: the tables span a few dozen pages. */
const SMALL = 1000;
const GROWN = 50_000;

/** Events, their deliveries and jobs `from` … `to` − 1 (ids numbered), all to endpoint whk_1; the
 *  events still to hand out, the jobs pending. */
async function seed(client: pg.Client, from: number, to: number): Promise<void> {
  await client.query(
    `INSERT INTO events (id, type, realm_id, created_at, data)
     SELECT 'evt_' || g, 'user.deleted', 'r', g, '{}' FROM generate_series($1::int, $2::int) g`,
    [from, to - 1],
  );
  await client.query(
    `INSERT INTO webhook_deliveries (id, webhook_id, realm_id, event_id, event_type, created_at)
     SELECT 'job_' || g, 'whk_1', 'r', 'evt_' || g, 'user.deleted', g FROM generate_series($1::int, $2::int) g`,
    [from, to - 1],
  );
  await client.query(
    `INSERT INTO jobs (id, kind, realm_id, payload, status, attempts, run_at, give_up_at, created_at, updated_at)
     SELECT 'job_' || g, 'webhook.deliver', 'r', '{}', 'pending', 0, g, g + 1000000, g, g FROM generate_series($1::int, $2::int) g`,
    [from, to - 1],
  );
}

/** The plan PostgreSQL executes for prepared statement `name` with `args` (SQL literals), as text. */
async function planOf(client: pg.Client, name: string, args: string): Promise<string> {
  const rows = (await client.query(`EXPLAIN EXECUTE ${name}(${args})`)).rows as Array<{ 'QUERY PLAN': string }>;
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

describe('webhook delivery statements on PostgreSQL, planned on small tables', { skip: postgresUnavailable() ?? false }, () => {
  let db: TestDatabase;
  let client: pg.Client;
  const ids = "ARRAY['job_5', 'job_15000']";
  const STATEMENTS = {
    lock_jobs: JOB_SQL.lock,
    update_jobs: JOB_SQL.updateStates,
    finish_held: JOB_SQL.finishHeld,
    contexts: WEBHOOK_SQL.contexts,
    mark_dispatched: WEBHOOK_SQL.markDispatched,
    undispatched: WEBHOOK_SQL.undispatched,
  };

  before(async () => {
    db = await freshDatabase('plans');
    await (await openPostgres(testPostgresOptions(db.url), () => {})).end();
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query("INSERT INTO realms (id, name, created_at) VALUES ('r', 'r', 0)");
    await client.query(`INSERT INTO webhooks (id, realm_id, url, event_types, description, enabled, secret, created_at, updated_at)
      VALUES ('whk_1', 'r', 'https://hooks.example/', '["*"]', '', true, 'sealed', 0, 0)`);
    await seed(client, 0, SMALL);
    // As the stores' connections plan (connect.ts): once, without the values, on the tables as
    // they are now.
    await client.query('SET plan_cache_mode = force_generic_plan');
    for (const [name, sql] of Object.entries(STATEMENTS)) await client.query(`PREPARE ${name} AS ${sql}`);
    await client.query(`EXPLAIN EXECUTE lock_jobs(${ids})`); // the generic plans are made at first use
    await client.query(`EXPLAIN EXECUTE contexts(${ids})`);
    await client.query("EXPLAIN EXECUTE mark_dispatched(ARRAY['evt_5'], ARRAY[1]::bigint[])");
    await client.query('EXPLAIN EXECUTE undispatched(100)');
    await client.query(`EXPLAIN EXECUTE update_jobs(${ids}, ${Array.from({ length: 7 }, () => 'NULL').join(', ')})`);
    await client.query(`EXPLAIN EXECUTE finish_held(${ids}, ${Array.from({ length: 7 }, () => 'NULL').join(', ')}, 'me')`);
    await seed(client, SMALL, GROWN);
  });
  after(async () => {
    await client?.end();
    await db?.drop();
  });

  const noScan = (plan: string) => {
    for (const table of ['jobs', 'events', 'webhook_deliveries']) assert.doesNotMatch(plan, new RegExp(`Seq Scan on ${table}\\b`), plan);
  };

  it('locks jobs through their primary key', async () => {
    const plan = await planOf(client, 'lock_jobs', ids);
    noScan(plan);
    assert.match(plan, /Index Scan using jobs_pkey/);
  });

  it('updates jobs found through their primary key, by their addresses', async () => {
    const plan = await planOf(client, 'update_jobs', `${ids}, ${Array.from({ length: 7 }, () => 'NULL').join(', ')}`);
    noScan(plan);
    assert.match(plan, /Index Scan using jobs_pkey/);
    assert.match(plan, /Tid Scan on jobs/);
  });

  it('finishes the jobs still held by their owner found through their primary key, by their addresses', async () => {
    const plan = await planOf(client, 'finish_held', `${ids}, ${Array.from({ length: 7 }, () => 'NULL').join(', ')}, 'me'`);
    noScan(plan);
    assert.match(plan, /Index Scan using jobs_pkey/);
    assert.match(plan, /Tid Scan on jobs/);
  });

  it('reads each delivery with its endpoint and event through their primary keys', async () => {
    const plan = await planOf(client, 'contexts', ids);
    noScan(plan);
    assert.match(plan, /Index Scan using webhook_deliveries_pkey/);
    assert.match(plan, /Index Scan using events_pkey/);
  });

  it('marks events handed out through their primary key', async () => {
    const plan = await planOf(client, 'mark_dispatched', "ARRAY['evt_5'], ARRAY[1]::bigint[]");
    noScan(plan);
    assert.match(plan, /Index Scan using events_pkey/);
  });

  it('hands out the oldest waiting events in the order of events_undispatched, without sorting them', async () => {
    const plan = await planOf(client, 'undispatched', '100');
    noScan(plan);
    assert.match(plan, /Index Scan using events_undispatched/);
    assert.doesNotMatch(plan, /Sort/);
  });
});
