// PostgreSQL's points statements reach a user's rows through indexes, however much the tables have
// grown since the statements were planned. The stores' connections plan each statement once,
// without its values (server/store/postgres/connect.ts): a plan made on a young database's few rows
// stays in use as the tables fill (until an ANALYZE). Here a consume's statements (the user's lock,
// its context and state read with every part, its charge with the history's prune, its event and
// its answer, the ledger's prune) are prepared on a connection of the stores' pool while the tables
// are empty, the tables then grow, and the plans PostgreSQL executes are asked for: none scans a
// table whole, and none is compiled (JIT) on each call.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type pg from 'pg';
import { newEvent } from '../../server/events/plan.ts';
import { newId } from '../../server/lib/ids.ts';
import type { ConsumeWrites } from '../../server/points/apply-plan.ts';
import { prunesHistory } from '../../server/points/history.ts';
import type { QuotaKind } from '../../server/points/model.ts';
import { CACHE_VERSION_SQL } from '../../server/store/postgres/cache-version.ts';
import { openPostgres } from '../../server/store/postgres/open.ts';
import { POINTS_SQL, POINTS_STATEMENTS } from '../../server/store/postgres/points-sql.ts';
import { freshDatabase, postgresUnavailable, type TestDatabase, testPostgresOptions } from '../helpers/postgres.ts';

const NOW = 1_800_000_000_000;
const YOUNG = 50;
const GROWN = 20_000;

/** A history movement's id that prunes the history (history.ts prunesHistory). */
function pruningId(): string {
  for (;;) {
    const id = newId('ptx');
    if (prunesHistory(id)) return id;
  }
}

/** The rows of users `from` … `to` − 1: each with a subscription, an entitlement, a balance, a hold, a
 *  movement, a head, ledger rows, a given grant, an idempotency answer and an alert state. */
async function seed(client: pg.PoolClient, from: number, to: number): Promise<void> {
  const each = async (sql: string) => void (await client.query(sql, [from, to - 1]));
  // Rows as the stores write them, less what they reference but does not matter to a plan.
  await client.query('SET session_replication_role = replica');
  await each(
    `INSERT INTO users (id, realm_id, email, created_at) SELECT 'usr_' || g, 'r', 'u' || g || '@example.com', 0 FROM generate_series($1::int, $2::int) g`,
  );
  await each(`INSERT INTO subscriptions (id, realm_id, user_id, mapping_id, status, terms, started_at)
    SELECT 'sub_' || g, 'r', 'usr_' || g, 'map_1', 'active', '{}', 0 FROM generate_series($1::int, $2::int) g`);
  await each(`INSERT INTO points_window_entitlements (id, realm_id, user_id, kind, windows, starts_at, ends_at, source, created_at)
    SELECT 'ent_' || g, 'r', 'usr_' || g, 'subscription_credit', '[]', 0, NULL, 'src_' || g, 0 FROM generate_series($1::int, $2::int) g`);
  await each(`INSERT INTO points_balances (id, realm_id, user_id, kind, amount, remaining, expires_at, source, created_at)
    SELECT 'bal_' || g, 'r', 'usr_' || g, 'registration_credit', 10, 10, NULL, 'reg_' || g, 0 FROM generate_series($1::int, $2::int) g`);
  await each(`INSERT INTO points_holds (id, realm_id, user_id, amount, lines, status, description, created_at, expires_at)
    SELECT 'hld_' || g, 'r', 'usr_' || g, 1, '[]', 'open', NULL, 0, ${NOW} + g FROM generate_series($1::int, $2::int) g`);
  await each(`INSERT INTO points_transactions (id, realm_id, user_id, kind, amount, description, allocations, related_id, created_at)
    SELECT 'ptx_' || g, 'r', 'usr_' || g, 'consume', 1, NULL, '[]', NULL, g FROM generate_series($1::int, $2::int) g`);
  await each(
    `INSERT INTO points_usage_heads (user_id, kind, seq, cum, last_at, returned) SELECT 'usr_' || g, 'subscription_credit', 3, 3, 0, 1 FROM generate_series($1::int, $2::int) g`,
  );
  await each(`INSERT INTO points_usage_ledger (user_id, kind, at, seq, amount, cum)
    SELECT 'usr_' || (g / 3), 'subscription_credit', g, g, 1, g FROM generate_series(3 * $1::int, 3 * $2::int + 2) g`);
  await each(`INSERT INTO points_grants_given (user_id, source) SELECT 'usr_' || g, 'src_' || g FROM generate_series($1::int, $2::int) g`);
  await each(`INSERT INTO points_idempotency (realm_id, scope, key, request_hash, response, created_at, user_id)
    SELECT 'r', 'consume', 'k' || g, 'h', '{}', 0, 'usr_' || g FROM generate_series($1::int, $2::int) g`);
  await each(
    `INSERT INTO points_alert_state (user_id, realm_id, fired_thresholds, exhaustions) SELECT 'usr_' || g, 'r', '[]', '[]' FROM generate_series($1::int, $2::int) g`,
  );
  await client.query('RESET session_replication_role');
}

/** `v` as an SQL literal (the statements cast each parameter to its type). */
function literal(client: pg.PoolClient, v: unknown): string {
  if (v === null) return 'NULL';
  if (Array.isArray(v)) return `ARRAY[${v.map((x) => literal(client, x)).join(', ')}]`;
  return typeof v === 'number' ? String(v) : client.escapeLiteral(String(v));
}

describe('points statements on PostgreSQL, planned on small tables', { skip: postgresUnavailable() ?? false }, () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  let client: pg.PoolClient;
  const w = {
    ledger: [{ kind: 'subscription_credit', at: NOW, seq: 4, amount: 1, cum: 4, createsHead: false, prune: null }],
    spends: [{ creditKind: 'registration_credit', sourceId: 'bal_5', amount: 1 }],
  } as unknown as ConsumeWrites;
  const movement = { id: pruningId(), kind: 'consume' as const, amount: 2, description: null, lines: [], relatedId: null };
  const answer = { scope: 'consume', key: 'k', requestHash: 'h', response: {} };
  const event = newEvent('points.consumed', 'r', NOW, { userId: 'usr_5' });
  const windows: Array<[QuotaKind, number]> = [
    ['subscription_credit', 3600],
    ['subscription_credit', 86_400],
  ];
  const state = { windows, withTimes: true, returns: true };
  const STATEMENTS: Record<string, { text: string; values: unknown[] }> = {
    lock: { text: POINTS_SQL.lockUser, values: ['r', 'usr_5'] },
    open: POINTS_STATEMENTS.open('r', 'usr_5', NOW, { scope: 'consume', key: 'k' }, ['src_5'], state, 'points.consumed', ['sub_5']),
    charge: POINTS_STATEMENTS.charge('usr_5', 'r', w, movement, NOW, answer, [event]),
    prune: { text: POINTS_SQL.prune, values: ['usr_5', 'subscription_credit', NOW, 100] },
    // Read before a call trusts a cached key (cache-version.ts): one row, scanned, never compiled.
    version: { text: CACHE_VERSION_SQL, values: [] },
  };
  const planOf = async (name: string) => {
    const values = STATEMENTS[name]!.values;
    const args = values.length === 0 ? '' : `(${values.map((v) => literal(client, v)).join(', ')})`;
    const rows = (await client.query(`EXPLAIN EXECUTE ${name}${args}`)).rows as Array<{ 'QUERY PLAN': string }>;
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  };

  before(async () => {
    db = await freshDatabase('pplans');
    pool = await openPostgres(testPostgresOptions(db.url), () => {});
    client = await pool.connect();
    await client.query("INSERT INTO realms (id, name, created_at) VALUES ('r', 'r', 0)");
    // A young database, as autovacuum has seen it: a few dozen users.
    await seed(client, 1, YOUNG);
    await client.query('ANALYZE');
    // As the stores' connections plan (connect.ts, on one of them): once, without the values, on
    // the tables as they are now; the generic plans are made at first use.
    for (const [name, s] of Object.entries(STATEMENTS)) {
      await client.query(`PREPARE ${name} AS ${s.text}`);
      await planOf(name);
    }
    await seed(client, YOUNG, GROWN);
  });
  after(async () => {
    client?.release();
    await pool?.end();
    await db?.drop();
  });

  for (const name of ['lock', 'open', 'charge', 'prune'])
    it(`reaches the rows of the ${name} statement through indexes`, async () => {
      const plan = await planOf(name);
      assert.doesNotMatch(plan, /Seq Scan on (users|subscriptions|points_\w+|webhooks|events)\b/, plan);
      assert.match(plan, /Index (Only )?Scan/);
      assert.doesNotMatch(plan, /JIT/, plan);
    });

  it('reads the cache version without compiling its plan, however costly a scan is made to look', async () => {
    assert.doesNotMatch(await planOf('version'), /JIT/);
  });
});
