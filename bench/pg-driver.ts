// Which PostgreSQL driver the PostgreSQL stores use, by measurement: node-postgres (`pg`) against
// postgres.js (`postgres`), on one throwaway cluster in one run, at the same pool size and the same
// number of calls in flight. Two shapes each:
//   - a consume-shaped transaction: BEGIN; SELECT … FOR NO KEY UPDATE of the user's row; three
//     index reads (live balances, a ledger seek, the idempotency key); INSERT of the transaction;
//     UPDATE of a balance; COMMIT. Once with every statement awaited in turn (one round trip each),
//     once pipelined as the stores send it (BEGIN and the reads in one round trip, the writes and
//     COMMIT in another: pg's `pipeline: true`; postgres.js pipelines queries on a reserved
//     connection by itself);
//   - a bare `SELECT 1`: the driver's own cost per call.
// Rounds interleave the drivers (alternating order) and medians are reported, with the ratio of
// each pg figure to postgres.js's.
// gatehouse depends on pg only (the faster here); postgres.js is loaded when installed
// (`npm install --no-save postgres@3`) and its cases are skipped otherwise.
//   node --import tsx bench/pg-driver.ts [--seconds 3] [--rounds 3] [--pool 8] [--inflight 32]
import { parseArgs } from 'node:util';
import pg from 'pg';
import { freshDatabase } from '../test/helpers/postgres.ts';

/** The little of postgres.js this bench calls (it is not a dependency, so not typed by it). */
interface PjsQuery extends Promise<unknown[]> {}
interface PjsSql {
  (strings: TemplateStringsArray, ...values: unknown[]): PjsQuery;
  unsafe(query: string, values: unknown[], opts: { prepare: boolean }): PjsQuery;
  begin<T>(fn: (t: PjsSql) => Promise<T>): Promise<T>;
  reserve(): Promise<PjsSql & { release(): void }>;
  end(): Promise<void>;
}
type PjsConnect = (url: string, opts: { max: number; onnotice: () => void }) => PjsSql;
const postgresJs: PjsConnect | null = await import('postgres' as string).then(
  (m: { default: PjsConnect }) => m.default,
  () => null,
);

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    pool: { type: 'string', default: '8' },
    inflight: { type: 'string', default: '32' },
    users: { type: 'string', default: '2000' },
  },
});
const SECONDS = Number(args.seconds);
const ROUNDS = Number(args.rounds);
const POOL = Number(args.pool);
const INFLIGHT = Number(args.inflight);
const USERS = Number(args.users);

const SCHEMA = `
CREATE TABLE users (id TEXT PRIMARY KEY, realm_id TEXT NOT NULL);
CREATE TABLE balances (id TEXT PRIMARY KEY, user_id TEXT NOT NULL, remaining BIGINT NOT NULL, expires_at BIGINT);
CREATE INDEX balances_user ON balances (user_id) WHERE remaining > 0;
CREATE TABLE ledger (user_id TEXT NOT NULL, kind TEXT NOT NULL, at BIGINT NOT NULL, seq BIGINT NOT NULL, cum BIGINT NOT NULL,
  PRIMARY KEY (user_id, kind, at, seq));
CREATE TABLE idem (realm_id TEXT NOT NULL, key TEXT NOT NULL, response TEXT NOT NULL, PRIMARY KEY (realm_id, key));
CREATE TABLE txs (id TEXT PRIMARY KEY, user_id TEXT NOT NULL, amount BIGINT NOT NULL, allocations TEXT NOT NULL, created_at BIGINT NOT NULL);
INSERT INTO users SELECT 'u' || i, 'r' FROM generate_series(1, ${USERS}) i;
INSERT INTO balances SELECT 'b' || i || '-' || k, 'u' || i, 1000000000, NULL FROM generate_series(1, ${USERS}) i, generate_series(1, 2) k;
INSERT INTO ledger SELECT 'u' || i, 'subscription_credit', j * 1000, j, j FROM generate_series(1, ${USERS}) i, generate_series(1, 20) j;
ANALYZE;`;

const Q = {
  lock: 'SELECT realm_id FROM users WHERE id = $1 FOR NO KEY UPDATE',
  balances: 'SELECT id, remaining, expires_at FROM balances WHERE user_id = $1 AND remaining > 0 AND (expires_at IS NULL OR expires_at > $2)',
  seek: 'SELECT cum FROM ledger WHERE user_id = $1 AND kind = $2 AND at <= $3 ORDER BY at DESC, seq DESC LIMIT 1',
  idem: 'SELECT response FROM idem WHERE realm_id = $1 AND key = $2',
  insert: 'INSERT INTO txs (id, user_id, amount, allocations, created_at) VALUES ($1, $2, $3, $4, $5)',
  spend: 'UPDATE balances SET remaining = remaining - $1 WHERE id = $2 AND remaining >= $1',
};

let txSeq = 0;
const pick = () => `u${1 + Math.floor(Math.random() * USERS)}`;
const params = () => {
  const u = pick();
  return { u, b: `${u.replace('u', 'b')}-1`, id: `t${process.pid}-${++txSeq}`, now: Date.now() };
};

type Op = () => Promise<unknown>;

/** Keeps INFLIGHT calls of `op` going for SECONDS: calls per second. */
async function measure(op: Op): Promise<number> {
  const until = performance.now() + SECONDS * 1000;
  let done = 0;
  const worker = async () => {
    while (performance.now() < until) {
      await op();
      done++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: INFLIGHT }, worker));
  return done / ((performance.now() - t0) / 1000);
}

function pgOps(pool: pg.Pool, pipelined: boolean): { consume: Op; select1: Op } {
  const q = (c: pg.PoolClient, name: keyof typeof Q, values: unknown[]) => c.query({ name, text: Q[name], values });
  const consume: Op = async () => {
    const p = params();
    const c = await pool.connect();
    try {
      if (pipelined) {
        const [, lock, , , idem] = await Promise.all([
          c.query('BEGIN'),
          q(c, 'lock', [p.u]),
          q(c, 'balances', [p.u, p.now]),
          q(c, 'seek', [p.u, 'subscription_credit', p.now - 10_000]),
          q(c, 'idem', ['r', p.id]),
        ]);
        if (lock.rowCount !== 1 || idem.rowCount !== 0) throw new Error('unexpected read');
        await Promise.all([q(c, 'insert', [p.id, p.u, 1, '[]', p.now]), q(c, 'spend', [1, p.b]), c.query('COMMIT')]);
      } else {
        await c.query('BEGIN');
        const lock = await q(c, 'lock', [p.u]);
        await q(c, 'balances', [p.u, p.now]);
        await q(c, 'seek', [p.u, 'subscription_credit', p.now - 10_000]);
        const idem = await q(c, 'idem', ['r', p.id]);
        if (lock.rowCount !== 1 || idem.rowCount !== 0) throw new Error('unexpected read');
        await q(c, 'insert', [p.id, p.u, 1, '[]', p.now]);
        await q(c, 'spend', [1, p.b]);
        await c.query('COMMIT');
      }
    } catch (e) {
      c.release(e as Error);
      throw e;
    }
    c.release();
  };
  return { consume, select1: () => pool.query({ name: 'one', text: 'SELECT 1' }) };
}

function postgresOps(sql: PjsSql, pipelined: boolean): { consume: Op; select1: Op } {
  const consume: Op = async () => {
    const p = params();
    if (pipelined) {
      const c = await sql.reserve();
      try {
        const [, lock, , , idem] = await Promise.all([
          c`BEGIN`,
          c.unsafe(Q.lock, [p.u], { prepare: true }),
          c.unsafe(Q.balances, [p.u, p.now], { prepare: true }),
          c.unsafe(Q.seek, [p.u, 'subscription_credit', p.now - 10_000], { prepare: true }),
          c.unsafe(Q.idem, ['r', p.id], { prepare: true }),
        ]);
        if (lock.length !== 1 || idem.length !== 0) throw new Error('unexpected read');
        await Promise.all([c.unsafe(Q.insert, [p.id, p.u, 1, '[]', p.now], { prepare: true }), c.unsafe(Q.spend, [1, p.b], { prepare: true }), c`COMMIT`]);
      } catch (e) {
        await c`ROLLBACK`.catch(() => {});
        throw e;
      } finally {
        c.release();
      }
      return;
    }
    await sql.begin(async (t) => {
      const lock = await t.unsafe(Q.lock, [p.u], { prepare: true });
      await t.unsafe(Q.balances, [p.u, p.now], { prepare: true });
      await t.unsafe(Q.seek, [p.u, 'subscription_credit', p.now - 10_000], { prepare: true });
      const idem = await t.unsafe(Q.idem, ['r', p.id], { prepare: true });
      if (lock.length !== 1 || idem.length !== 0) throw new Error('unexpected read');
      await t.unsafe(Q.insert, [p.id, p.u, 1, '[]', p.now], { prepare: true });
      await t.unsafe(Q.spend, [1, p.b], { prepare: true });
    });
  };
  return { consume, select1: () => sql`SELECT 1` };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const db = await freshDatabase('bench');
  const setup = new pg.Client({ connectionString: db.url });
  await setup.connect();
  await setup.query(SCHEMA);
  await setup.end();

  const pgSeq = new pg.Pool({ connectionString: db.url, max: POOL });
  const pgPipe = new pg.Pool({ connectionString: db.url, max: POOL, pipeline: true });
  const pjs = postgresJs?.(db.url, { max: POOL, onnotice: () => {} }) ?? null;
  if (!pjs) console.log('postgres.js is not installed: its cases are skipped (npm install --no-save postgres@3)');
  const cases: Record<string, Op> = {
    'pg consume (awaited in turn)': pgOps(pgSeq, false).consume,
    ...(pjs && { 'postgres.js consume (awaited in turn)': postgresOps(pjs, false).consume }),
    'pg consume (pipelined)': pgOps(pgPipe, true).consume,
    ...(pjs && { 'postgres.js consume (pipelined)': postgresOps(pjs, true).consume }),
    'pg SELECT 1': pgOps(pgSeq, false).select1,
    ...(pjs && { 'postgres.js SELECT 1': postgresOps(pjs, false).select1 }),
  };
  const names = Object.keys(cases);
  const results: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  // Warm every connection and prepared statement once.
  for (const n of names) await measure(cases[n]!).then(() => {});
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? names : [...names].reverse();
    for (const n of order) results[n]!.push(await measure(cases[n]!));
  }
  await Promise.all([pgSeq.end(), pgPipe.end(), pjs?.end()]);
  await db.drop();

  console.log(`pool ${POOL}, ${INFLIGHT} calls in flight, ${ROUNDS} rounds of ${SECONDS} s, medians:`);
  for (const n of names) console.log(`  ${n.padEnd(40)} ${Math.round(median(results[n]!)).toString().padStart(7)} ops/s`);
  const ratio = (a: string, b: string) => (median(results[a]!) / median(results[b]!)).toFixed(2);
  console.log(`pipelined / awaited: pg ${ratio('pg consume (pipelined)', 'pg consume (awaited in turn)')}`);
  if (!pjs) return;
  console.log('pg / postgres.js:');
  console.log(`  consume, awaited in turn  ${ratio('pg consume (awaited in turn)', 'postgres.js consume (awaited in turn)')}`);
  console.log(`  consume, pipelined        ${ratio('pg consume (pipelined)', 'postgres.js consume (pipelined)')}`);
  console.log(`  SELECT 1                  ${ratio('pg SELECT 1', 'postgres.js SELECT 1')}`);
  console.log(`pipelined / awaited: postgres.js ${ratio('postgres.js consume (pipelined)', 'postgres.js consume (awaited in turn)')}`);
}

await main();
