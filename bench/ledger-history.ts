// Hold + settle and refund throughput against the length of a user's history (docs/points.md: the
// cost of consume, hold, settle, refund and summary does not grow with it). Four users on the same
// three windows: a fresh one, one with 1 000 and one with 1 000 000 prior consume events inside the
// windows, and one with 1 000 000 events of which 10 000 were refunded (quota returned to rows spread
// through the windows, so every window subtracts returns). The events are seeded straight into the
// ledger; the operations run through the points store in this process (no transport), in
// interleaved rounds, each user's figure against the fresh user's of the same round. On SQLite (a
// file) by default, or on PostgreSQL (a fresh database of the tests' throwaway cluster, or of
// GATEHOUSE_TEST_POSTGRES_URL's server) with --backend postgres.
//   node --import tsx bench/ledger-history.ts [--calls 3000 --rounds 5 --backend sqlite|postgres]

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SecretBox } from '../server/crypto/secrets.ts';
import { systemClock } from '../server/lib/clock.ts';
import { RETURN_FANOUT, RETURN_LEVELS, returnBlocks } from '../server/points/ledger.ts';
import type { PointsStore } from '../server/points/store.ts';
import { createPointsEngine } from '../server/points-engine.ts';
import { createClient } from '../server/store/postgres/connect.ts';
import { openPostgres } from '../server/store/postgres/open.ts';
import { postgresStores } from '../server/store/postgres/stores.ts';
import { immediate, openDatabase } from '../server/store/sqlite/open.ts';
import { sqliteStores } from '../server/store/sqlite/stores.ts';
import type { Stores } from '../server/stores.ts';
import { freshDatabase, testPostgresOptions } from '../test/helpers/postgres.ts';
import { tempDir } from '../test/helpers/server.ts';

export type LedgerBackend = 'sqlite' | 'postgres';

const DAY = 86_400_000;
const WINDOWS = [
  { windowSeconds: 18000, limit: 1e12 },
  { windowSeconds: 86400, limit: 1e12 },
  { windowSeconds: 2592000, limit: 1e12 },
];
const USERS = { fresh: 0, k1: 1_000, m1: 1_000_000, m1refunds: 1_000_000 } as const;
type Who = keyof typeof USERS;
const REFUNDED_ROWS = 10_000;

export interface LedgerHistoryResult {
  backend: LedgerBackend;
  callsPerRound: number;
  rounds: number;
  /** Median operations per second, per user. */
  holdSettlePerSecond: Record<Who, number>;
  refundPerSecond: Record<Who, number>;
  /** Median of each round's figure over the fresh user's. */
  ratios: { holdSettle: Record<Exclude<Who, 'fresh'>, number>; refund: Record<Exclude<Who, 'fresh'>, number> };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** The realm, the users and their subscription windows, through the stores (the users are
 *  inserted by `addUser`). */
async function seedAccounts(stores: Stores, now: number, addRealm: () => Promise<unknown>, addUser: (id: string) => Promise<unknown>): Promise<void> {
  const engine = createPointsEngine(stores, systemClock);
  await addRealm();
  for (const id of Object.keys(USERS)) await addUser(id);
  const [m] = await engine.billing.applyMappingBatch('bench', 'stripe', 'bench', [{ entitlementKey: 'bench', quotaWindows: WINDOWS }], now);
  for (const [i, id] of Object.keys(USERS).entries())
    await engine.billing.createSubscription({ realmId: 'bench', userId: id, mappingId: m!.id, externalSubscriptionId: null, id: `sub_${i}` }, now);
}

/** The users, their subscription windows and their seeded history in a fresh database at `dbPath`. */
async function seed(dbPath: string): Promise<void> {
  const db = openDatabase(dbPath);
  const now = Date.now();
  await seedAccounts(
    sqliteStores(db, SecretBox.ephemeral()),
    now,
    async () => db.prepare("INSERT INTO realms (id, name, created_at) VALUES ('bench', 'bench', ?)").run(now),
    async (id) => db.prepare("INSERT INTO users (id, realm_id, email, created_at) VALUES (?, 'bench', ?, ?)").run(id, `${id}@example.com`, now),
  );
  const insert = db.prepare("INSERT INTO points_usage_ledger (user_id, kind, at, seq, amount, cum) VALUES (?, 'subscription_credit', ?, ?, 1, ?)");
  const head = db.prepare("UPDATE points_usage_heads SET seq = ?, cum = ?, last_at = ?, returned = ? WHERE user_id = ? AND kind = 'subscription_credit'");
  const createHead = db.prepare(
    "INSERT OR IGNORE INTO points_usage_heads (user_id, kind, seq, cum, last_at, returned) VALUES (?, 'subscription_credit', 0, 0, 0, 0)",
  );
  const returnRow = db.prepare("UPDATE points_usage_ledger SET returned = 1 WHERE user_id = ? AND kind = 'subscription_credit' AND at = ? AND seq = ?");
  const addBlock = db.prepare(`INSERT INTO points_usage_returns (user_id, kind, level, idx, amount) VALUES (?, 'subscription_credit', ?, ?, 1)
    ON CONFLICT (user_id, kind, level, idx) DO UPDATE SET amount = amount + 1`);
  for (const [id, n] of Object.entries(USERS)) {
    if (n === 0) continue;
    // Spread over the last 29 days: every event is inside the 30-day window.
    const from = now - 29 * DAY;
    const step = (29 * DAY - 60_000) / n;
    const refunds = id === 'm1refunds' ? REFUNDED_ROWS : 0;
    await immediate(db, () => {
      createHead.run(id);
      let at = from;
      for (let seq = 1; seq <= n; seq++) {
        at = from + Math.floor(seq * step);
        insert.run(id, at, seq, seq);
        if (refunds && seq % (n / refunds) === 0) {
          returnRow.run(id, at, seq);
          for (const b of returnBlocks(seq)) addBlock.run(id, b.level, b.idx);
        }
      }
      head.run(n, n, at, refunds, id);
    });
  }
  db.close();
}

/** The same on PostgreSQL at `url`, each user's history in a few set-based statements (the rows
 *  and block sums the SQLite seed writes one by one). */
async function seedPostgres(url: string): Promise<void> {
  const now = Date.now();
  const pool = await openPostgres(testPostgresOptions(url), () => {});
  const sql = createClient(testPostgresOptions(url));
  await sql.connect();
  try {
    await seedAccounts(
      postgresStores(pool, { secrets: SecretBox.ephemeral() }),
      now,
      () => sql.query("INSERT INTO realms (id, name, created_at) VALUES ('bench', 'bench', $1)", [now]),
      (id) => sql.query("INSERT INTO users (id, realm_id, email, created_at) VALUES ($1, 'bench', $2, $3)", [id, `${id}@example.com`, now]),
    );
    for (const [id, n] of Object.entries(USERS)) {
      if (n === 0) continue;
      const from = now - 29 * DAY;
      const step = (29 * DAY - 60_000) / n;
      // Every (n / refunds)-th row was given back (1 of its 1), as in the SQLite seed.
      const every = id === 'm1refunds' ? n / REFUNDED_ROWS : 0;
      await sql.query('BEGIN');
      await sql.query(
        `INSERT INTO points_usage_heads (user_id, kind, seq, cum, last_at, returned) VALUES ($1, 'subscription_credit', 0, 0, 0, 0) ON CONFLICT DO NOTHING`,
        [id],
      );
      await sql.query(
        `INSERT INTO points_usage_ledger (user_id, kind, at, seq, amount, cum, returned)
         SELECT $1, 'subscription_credit', $2::bigint + floor(seq * $3::float8)::bigint, seq, 1, seq, CASE WHEN $4::bigint > 0 AND seq % $4::bigint = 0 THEN 1 ELSE 0 END
         FROM generate_series(1, $5::bigint) AS seq`,
        [id, from, step, every, n],
      );
      if (every > 0)
        await sql.query(
          `INSERT INTO points_usage_returns (user_id, kind, level, idx, amount)
           SELECT $1, 'subscription_credit', g.level, seq / power(${RETURN_FANOUT}, g.level)::bigint, count(*)
           FROM generate_series($2::bigint, $3::bigint, $2::bigint) AS seq, generate_series(0, ${RETURN_LEVELS}) AS g(level) GROUP BY 2, 3, 4`,
          [id, every, n],
        );
      await sql.query(`UPDATE points_usage_heads SET seq = $2, cum = $2, last_at = $3, returned = $4 WHERE user_id = $1 AND kind = 'subscription_credit'`, [
        id,
        n,
        from + Math.floor(n * step),
        every > 0 ? REFUNDED_ROWS : 0,
      ]);
      await sql.query('COMMIT');
    }
    await sql.query('ANALYZE');
  } finally {
    await sql.end();
    await pool.end();
  }
}

/** A seeded database of `backend` and the points store over it. */
async function openSeeded(backend: LedgerBackend): Promise<{ store: PointsStore; close(): Promise<void> }> {
  if (backend === 'postgres') {
    const db = await freshDatabase('bench');
    await seedPostgres(db.url);
    const pool = await openPostgres({ ...testPostgresOptions(db.url), poolSize: 10 }, () => {});
    return {
      store: postgresStores(pool, { secrets: SecretBox.ephemeral() }).points,
      async close() {
        await pool.end();
        await db.drop();
      },
    };
  }
  const dir = tempDir('gatehouse-bench-ledger-');
  const dbPath = join(dir, 'ledger.db');
  await seed(dbPath);
  const db = openDatabase(dbPath);
  return {
    store: sqliteStores(db, SecretBox.ephemeral()).points,
    async close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `calls` runs of `op`, 8 at a time (as a server's callers would: each transaction waits for
 *  its group's commit, so one at a time measures the commit interval, not the work). */
async function timed(calls: number, op: () => Promise<unknown>): Promise<number> {
  let next = 0;
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < calls) {
        next++;
        await op();
      }
    }),
  );
  return calls / (Number(process.hrtime.bigint() - t0) / 1e9);
}

let ids = 0;
const holdSettle = (store: PointsStore, userId: string) => async () => {
  const h = await store.hold(
    { realmId: 'bench', userId, amount: 5, ttlSeconds: 600, description: null, idempotencyKey: null, requestHash: '', holdId: `hld_${ids++}` },
    Date.now(),
  );
  await store.settle(
    { realmId: 'bench', holdId: h.holdId, amount: 3, description: null, idempotencyKey: null, requestHash: '', transactionId: `ptx_${ids++}` },
    Date.now(),
  );
};

export async function ledgerHistory(
  opts: { calls?: number; rounds?: number; backend?: LedgerBackend; log?: (s: string) => void } = {},
): Promise<LedgerHistoryResult> {
  const calls = opts.calls ?? 3000;
  const rounds = opts.rounds ?? 5;
  const backend = opts.backend ?? 'sqlite';
  const log = opts.log ?? (() => {});
  const t0 = Date.now();
  const { store, close } = await openSeeded(backend);
  log(`ledger bench (${backend}): seeded ${USERS.k1 + USERS.m1 + USERS.m1refunds} ledger rows in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const who = Object.keys(USERS) as Who[];
  const hs: Record<Who, number[]> = { fresh: [], k1: [], m1: [], m1refunds: [] };
  const rf: Record<Who, number[]> = { fresh: [], k1: [], m1: [], m1refunds: [] };
  try {
    // Consumes to refund, one per refund call of every round (and the warm-up).
    const toRefund: Record<Who, string[]> = { fresh: [], k1: [], m1: [], m1refunds: [] };
    for (const u of who)
      await timed(calls * (rounds + 1), async () => {
        const c = await store.consume(
          { realmId: 'bench', userId: u, amount: 2, description: null, idempotencyKey: null, requestHash: '', transactionId: `ptx_${ids++}` },
          Date.now(),
        );
        toRefund[u].push(c.transactionId);
      });
    const refund = (u: Who) => async () => {
      const transactionId = toRefund[u].pop()!;
      await store.refund(
        { realmId: 'bench', transactionId, amount: 1, reason: null, idempotencyKey: null, requestHash: '', refundId: `rfd_${ids++}` },
        Date.now(),
      );
    };
    for (let r = -1; r < rounds; r++) {
      const order = r % 2 === 0 ? who : [...who].reverse();
      for (const u of order) {
        const a = await timed(calls, holdSettle(store, u));
        const b = await timed(calls, refund(u));
        if (r >= 0) {
          hs[u].push(a);
          rf[u].push(b);
        }
      }
      if (r >= 0)
        log(
          `ledger bench (${backend}) round ${r + 1}/${rounds}: ${who.map((u) => `${u} hold+settle ${Math.round(hs[u].at(-1)!)}/s refund ${Math.round(rf[u].at(-1)!)}/s`).join(', ')}`,
        );
    }
  } finally {
    await close();
  }
  const ratio = (xs: Record<Who, number[]>, u: Who) => Number(median(xs[u].map((x, i) => x / xs.fresh[i]!)).toFixed(3));
  const per = (xs: Record<Who, number[]>) => Object.fromEntries(who.map((u) => [u, Math.round(median(xs[u]))])) as Record<Who, number>;
  return {
    backend,
    callsPerRound: calls,
    rounds,
    holdSettlePerSecond: per(hs),
    refundPerSecond: per(rf),
    ratios: {
      holdSettle: { k1: ratio(hs, 'k1'), m1: ratio(hs, 'm1'), m1refunds: ratio(hs, 'm1refunds') },
      refund: { k1: ratio(rf, 'k1'), m1: ratio(rf, 'm1'), m1refunds: ratio(rf, 'm1refunds') },
    },
  };
}

if (process.argv[1]?.endsWith('ledger-history.ts')) {
  const { values } = parseArgs({ strict: false, options: { calls: { type: 'string' }, rounds: { type: 'string' }, backend: { type: 'string' } } });
  const r = await ledgerHistory({
    backend: values.backend === 'postgres' ? 'postgres' : 'sqlite',
    calls: values.calls ? Number(values.calls) : undefined,
    rounds: values.rounds ? Number(values.rounds) : undefined,
    log: (s) => process.stderr.write(s + '\n'),
  });
  process.stdout.write(JSON.stringify(r, null, 2) + '\n');
}
