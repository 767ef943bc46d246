// A page of one kind of movement reads one range of points_transactions_user_kind on both backends
// (migration 008), whatever the kind and however rare it is in the user's history: the plans of the
// stores' own statements, asked of each database over a seeded history, use the index and neither
// scan the table nor sort.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { openPostgres } from '../../server/store/postgres/open.ts';
import { POINTS_SQL } from '../../server/store/postgres/points-sql.ts';
import { openDatabase } from '../../server/store/sqlite/open.ts';
import { HISTORY_PAGE_SQL } from '../../server/store/sqlite/points-store.ts';
import { freshDatabase, postgresUnavailable, type TestDatabase, testPostgresOptions } from '../helpers/postgres.ts';

const T0 = Date.UTC(2026, 6, 6);
const CONSUMES = 5000;
const REFUNDS = 10;

/** A user whose history is all consumes but a few refunds, one whose history is all holds but a
 *  few consumes, and a neighbour: [id, realm_id, user_id, kind, created_at] rows. */
function seedRows(): Array<[string, string, string, string, number]> {
  const rows: Array<[string, string, string, string, number]> = [];
  for (let i = 0; i < CONSUMES; i++) {
    rows.push([`ptx_a${i}`, 'r', 'consumer', i % (CONSUMES / REFUNDS) === 0 ? 'refund' : 'consume', T0 + i]);
    rows.push([`ptx_b${i}`, 'r', 'holder', i % (CONSUMES / REFUNDS) === 0 ? 'consume' : 'hold', T0 + i]);
    rows.push([`ptx_c${i}`, 'r', 'neighbour', 'consume', T0 + i]);
  }
  return rows;
}

const PAGES = [
  { userId: 'consumer', kind: 'refund' },
  { userId: 'holder', kind: 'consume' },
  { userId: 'consumer', kind: 'consume' },
];

describe('a page of one kind of history on SQLite', () => {
  const db = openDatabase(':memory:');
  before(() => {
    db.prepare("INSERT INTO realms (id, name, created_at) VALUES ('r', 'r', 0)").run();
    const insert = db.prepare(`INSERT INTO points_transactions (id, realm_id, user_id, kind, amount, allocations, created_at) VALUES (?, ?, ?, ?, 1, '[]', ?)`);
    db.transaction(() => {
      for (const r of seedRows()) insert.run(...r);
    })();
    db.exec('ANALYZE');
  });
  after(() => db.close());

  for (const p of PAGES) {
    it(`reads the ${p.kind}s of a user through points_transactions_user_kind without a scan or a sort (${p.userId})`, () => {
      const params = { userId: p.userId, kind: p.kind, at: T0 + CONSUMES, id: '', cutoff: 0, limit: 21 };
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${HISTORY_PAGE_SQL.pageOfKind}`).all(params) as Array<{ detail: string }>).map((r) => r.detail);
      assert.equal(plan.length, 1, plan.join('\n'));
      assert.match(plan[0]!, /^SEARCH points_transactions USING INDEX points_transactions_user_kind \(user_id=\? AND kind=\? AND/);
      const rows = db.prepare(HISTORY_PAGE_SQL.pageOfKind).all(params) as Array<{ kind: string }>;
      assert.equal(rows.length, p.kind === 'refund' || p.userId === 'holder' ? REFUNDS : 21);
      assert.ok(rows.every((r) => r.kind === p.kind));
    });
  }
});

describe('a page of one kind of history on PostgreSQL', { skip: postgresUnavailable() ?? false }, () => {
  let db: TestDatabase;
  let client: pg.Client;
  before(async () => {
    db = await freshDatabase('kind');
    await (await openPostgres(testPostgresOptions(db.url), () => {})).end();
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query("INSERT INTO realms (id, name, created_at) VALUES ('r', 'r', 0)");
    const rows = seedRows();
    await client.query(
      `INSERT INTO points_transactions (id, realm_id, user_id, kind, amount, allocations, created_at)
       SELECT id, realm, u, k, 1, '[]', at FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[]) AS t(id, realm, u, k, at)`,
      [0, 1, 2, 3, 4].map((c) => rows.map((r) => r[c])),
    );
    await client.query('VACUUM ANALYZE points_transactions');
    // As the stores' connections plan (connect.ts): once, without the values.
    await client.query('SET plan_cache_mode = force_generic_plan');
    await client.query(`PREPARE page_of_kind AS ${POINTS_SQL.pageOfKind}`);
  });
  after(async () => {
    await client?.end();
    await db?.drop();
  });

  for (const p of PAGES) {
    it(`reads the ${p.kind}s of a user through points_transactions_user_kind without a scan or a sort (${p.userId})`, async () => {
      const args = `'${p.userId}', ${T0 + CONSUMES}, '', 0, 21, '${p.kind}'`;
      const plan = (await client.query(`EXPLAIN EXECUTE page_of_kind(${args})`)).rows.map((r) => r['QUERY PLAN'] as string).join('\n');
      assert.match(plan, /Index (Only )?Scan( Backward)? using points_transactions_user_kind on points_transactions/, plan);
      assert.doesNotMatch(plan, /Seq Scan|Sort|Bitmap|Filter/, plan);
      const rows = (await client.query(`EXECUTE page_of_kind(${args})`)).rows as Array<{ kind: string }>;
      assert.equal(rows.length, p.kind === 'refund' || p.userId === 'holder' ? REFUNDS : 21);
      assert.ok(rows.every((r) => r.kind === p.kind));
    });
  }
});
