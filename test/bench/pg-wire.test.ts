// The bench's count of statements and round trips on the wire (bench/lib/pg-wire.ts) agrees with
// what the stores count of their own transactions (server/store/postgres/tx.ts), on a real server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type pg from 'pg';
import { startWireCounter, type WireCounter } from '../../bench/lib/pg-wire.ts';
import { openPostgres } from '../../server/store/postgres/open.ts';
import { inTransaction, query, type TxCost } from '../../server/store/postgres/tx.ts';
import { freshDatabase, postgresUnavailable, type TestDatabase, testPostgresOptions } from '../helpers/postgres.ts';

const skip = postgresUnavailable() ?? undefined;

describe('bench: statements and round trips counted on the wire', { skip }, () => {
  let db: TestDatabase;
  let counter: WireCounter;
  let pool: pg.Pool;
  before(async () => {
    db = await freshDatabase();
    const url = new URL(db.url);
    counter = await startWireCounter({ host: url.hostname, port: Number(url.port) });
    url.port = String(counter.port);
    pool = await openPostgres({ ...testPostgresOptions(url.toString()), poolSize: 1 }, () => {});
    await query(pool, 'SELECT 1', []); // the connection opened: its start-up is not counted
  });
  after(async () => {
    await pool.end();
    await counter.close();
    await db.drop();
  });

  it('counts a pipelined transaction as the stores count it: statements sent together share one round trip', async () => {
    const costs: TxCost[] = [];
    counter.reset();
    await inTransaction({ pool, observe: (_useCase, cost) => costs.push({ ...cost }) }, 'test', async (tx) => {
      await Promise.all([tx.row('SELECT 1 AS a', []), tx.row('SELECT $1::int AS b', [2])]);
      tx.run('SELECT $1::text AS c', ['written with COMMIT']);
    });
    const c = counter.counts();
    assert.deepEqual(costs, [{ statements: 5, roundTrips: 2 }]);
    assert.deepEqual({ statements: c.statements, roundTrips: c.roundTrips, commits: c.commits }, { statements: 5, roundTrips: 2, commits: 1 });
    assert.equal(c.byText['SELECT $1::int AS b'], 1);
  });

  it('counts statements awaited one after another as a round trip each', async () => {
    counter.reset();
    for (let i = 0; i < 3; i++) await query(pool, 'SELECT $1::int AS n', [i]);
    const c = counter.counts();
    assert.deepEqual({ statements: c.statements, roundTrips: c.roundTrips, commits: c.commits }, { statements: 3, roundTrips: 3, commits: 0 });
    assert.deepEqual(c.byText, { 'SELECT $1::int AS n': 3 });
  });
});
