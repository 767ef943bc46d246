// gatehouse on PostgreSQL against the limits of its database driver and of its replicas, in one
// run on one throwaway cluster (test/helpers/postgres.ts: GATEHOUSE_TEST_POSTGRES_URL, else a
// cluster of this process). `npm run bench` runs it after the SQLite measures; alone:
//   node --import tsx bench/postgres.ts [--rounds 3 --calls 1000 --logins 600 --concurrency 16]
// In interleaved rounds (alternating order, medians reported, every ratio taken within a round):
//   1. Consume over gRPC (3 windows, 2 pools: the SQLite bench's set-up, 16 in flight) spread over
//      63 such users, against 1 replica and against 2 (two `gatehouse serve` on the database, call i
//      to replica i mod 2 as a round-robin balancer would; 63 is odd, so a user's calls alternate
//      between them), against the bare round trip of the same driver: `SELECT 1` through a pool
//      made as the server makes its own (connect.ts createPool), of the same size, with the same
//      number in flight, from this process. The same consumes also run in this process straight
//      through the points store on such a pool: the database's share without gRPC's.
//   2. Native login over HTTP on 1 and on 2 replicas, against bare `jose.jwtVerify` on the same
//      tokens one at a time (as the SQLite bench's login check).
//   3. Consume for one user with 1 000 prior events against one with 1 000 000 (the ledger seeded
//      straight into the database with one INSERT … SELECT over generate_series each).
//   4. CPU per call: the replicas (all threads), PostgreSQL (the postmaster and its children,
//      /proc; a backend that exits during a measure takes its CPU with it), this process.
//   5. The cheapest transactional write of the same driver, pool and concurrency, pipelined as the
//      use cases are (server/store/postgres/tx.ts: BEGIN with an UPDATE of one row … RETURNING, then
//      COMMIT; each call a row of its own among 63, as the consumes spread over 63 users): the
//      database CPU a consume may take is measured against this one's.
//   6. The consume and the bare SELECT 1 of 1. again with the database 5 ms away each way (a proxy
//      that delays every chunk): where round trips, not this machine's CPU, are the limit.
// Then statements and round trips per consume and per login, counted on the wire: a third replica
// reaches the database through a proxy that reads the protocol (lib/pg-wire.ts), at 16 in flight
// and at 1. The cluster keeps its test settings (fsync and synchronous_commit off): a commit does
// not wait for a disk flush, as SQLite's synchronous=NORMAL does not.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openStorage } from '../server/backend.ts';
import { loadConfig } from '../server/config.ts';
import { SecretBox } from '../server/crypto/secrets.ts';
import { newId } from '../server/lib/ids.ts';
import { createPool } from '../server/store/postgres/connect.ts';
import { openPostgres } from '../server/store/postgres/open.ts';
import { postgresStores } from '../server/store/postgres/stores.ts';
import { inTransaction } from '../server/store/postgres/tx.ts';
import { closeGrpcClients } from '../test/helpers/grpc.ts';
import { startIdp } from '../test/helpers/idp.ts';
import { freshDatabase, postgresUnavailable, testPostgres } from '../test/helpers/postgres.ts';
import { ROOT, type SpawnedServer, spawnServer } from '../test/helpers/server.ts';
import { WINDOWS } from './consume-history.ts';
import { startDelayProxy } from './lib/delay-proxy.ts';
import { AUD, addPools, bareVerify, configureRealm, consumeLoad, firstLogins, loginLoad, median, REALM, serverArgs, signTokens } from './lib/gatehouse.ts';
import { type LoadResult, processCpuUs, round, runLoad } from './lib/load.ts';
import { startWireCounter, type WireCounts } from './lib/pg-wire.ts';

/** The sizes `npm run bench` runs it at: smaller than the SQLite measures', to keep the added time
 *  to a few minutes (a consume here costs several times the machine's CPU of one on SQLite). */
export const POSTGRES_BENCH_DEFAULTS = { rounds: 3, calls: 1000, logins: 600 };

export interface PostgresBenchOptions {
  rounds: number;
  calls: number;
  logins: number;
  concurrency: number;
  log(line: string): void;
}

export interface PostgresCheck {
  name: string;
  ratio: number;
  /** A ceiling (ratio ≤ goal) when true, else a floor; named as the SQLite checks' field, so both
   *  share one table. */
  atMost?: boolean;
  goal: number | null;
  pass: boolean | null;
}

/** CPU µs per call: every replica measured (all threads), PostgreSQL, this process. */
export interface PostgresCpu {
  replicas: number | null;
  postgres: number | null;
  client: number;
}

export interface PostgresRate {
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  cpuUsPerCall: { replicas: number | null; postgres: number | null; client: number | null };
}

/** Per call, counted on the wire. */
export interface WirePerCall {
  calls: number;
  concurrency: number;
  statements: number;
  roundTrips: number;
  transactions: number;
  /** Executions per call by statement (its text, cut short). */
  byStatement: Record<string, number>;
}

export interface PostgresBenchResult {
  postgres: { version: string; settings: Record<string, string>; pool: number };
  rates: Record<string, PostgresRate>;
  checks: PostgresCheck[];
  perCall: { method: string; consume: WirePerCall; consumeAlone: WirePerCall; login: WirePerCall };
  seconds: number;
}

const DAY = 86_400_000;
const SPREAD_USERS = 63;

export async function postgresBench(o: PostgresBenchOptions): Promise<PostgresBenchResult> {
  const started = performance.now();
  const cluster = await testPostgres();
  const db = await freshDatabase('bench');
  const idp = await startIdp({ audience: AUD });
  const servers: SpawnedServer[] = [];
  const closers: Array<() => Promise<void>> = [];
  const pool = loadConfig({}, {}).dbPool; // the servers' pool: --db-pool's default
  const bare = createPool({ url: db.url, poolSize: pool, statementTimeoutMs: 10_000, lockTimeoutMs: 5000 }, () => {});
  try {
    const users = await seedPostgres(db.url, o.log);
    const info = await clusterInfo(db.url);
    const spawn = async (dbPath: string) => {
      const s = await spawnServer({ dbPath, args: serverArgs(idp) });
      servers.push(s);
      return s;
    };
    const [a, b] = [await spawn(db.url), await spawn(db.url)] as [SpawnedServer, SpawnedServer];
    await configureRealm(a, false);
    await addPools(a, [users.small, users.large, ...users.spread]);
    const returning = await firstLogins(a, idp, 200, o.concurrency);
    o.log('PostgreSQL: signing tokens…');
    const WARMUP = 1;
    const tokens: { one: string[]; two: string[] }[] = [];
    for (let r = 0; r < o.rounds + WARMUP; r++)
      tokens.push({ one: await signTokens(idp, o.logins, returning), two: await signTokens(idp, o.logins, returning) });
    const select1 = () => bare.query({ name: 'one', text: 'SELECT 1' }).then(() => true);
    const direct = await openPostgres({ url: db.url, poolSize: pool, statementTimeoutMs: 10_000, lockTimeoutMs: 5000 }, () => {});
    closers.push(() => direct.end());
    const points = postgresStores(direct, { secrets: SecretBox.ephemeral() }).points;
    const storeConsume = (i: number) =>
      points
        .consume(
          {
            realmId: REALM,
            userId: users.spread[i % users.spread.length]!,
            amount: 1,
            description: null,
            idempotencyKey: null,
            requestHash: '',
            transactionId: newId('ptx'),
          },
          Date.now(),
        )
        .then(() => true);
    const cheapestWrite = (i: number) =>
      inTransaction({ pool: direct }, 'bench.write', (tx) =>
        tx.row<{ n: string }>('UPDATE bench_write SET n = n + 1 WHERE id = $1 RETURNING n', [i % SPREAD_USERS]),
      ).then((r) => r !== undefined);

    const rows: Record<string, number[]> = {};
    const stats: Record<string, (LoadResult & { cpu: PostgresCpu })[]> = {};
    // One uncounted round warms the replicas, the pool and the caches.
    for (let r = -WARMUP; r < o.rounds; r++) {
      const t = tokens[r + WARMUP]!;
      const steps: [string, SpawnedServer[], () => Promise<LoadResult>][] = [
        ['pgConsume', [a], () => consumeLoad(a, users.spread, o.calls, o.concurrency)],
        ['pgConsume2', [a, b], () => consumeLoad([a, b], users.spread, o.calls, o.concurrency)],
        ['pgSelect1', [], () => runLoad(o.calls * 2, o.concurrency, select1)],
        ['pgStoreConsume', [], () => runLoad(o.calls, o.concurrency, storeConsume)],
        ['pgWrite', [], () => runLoad(o.calls, o.concurrency, cheapestWrite)],
        ['pgLogin', [a], () => loginLoad(a, t.one, o.concurrency)],
        ['pgLogin2', [a, b], () => loginLoad([a, b], t.two, o.concurrency)],
        ['pgVerify', [], () => bareVerify(idp, t.one, 1)],
        ['pgConsume1k', [a], () => consumeLoad(a, users.small, o.calls, o.concurrency)],
        ['pgConsume1M', [a], () => consumeLoad(a, users.large, o.calls, o.concurrency)],
      ];
      if (Math.abs(r) % 2 === 1) steps.reverse();
      for (const [k, replicas, f] of steps) {
        const res = await withCpu(replicas, info.postmaster, f);
        if (r < 0) continue;
        (rows[k] ??= []).push(res.throughput);
        (stats[k] ??= []).push(res);
      }
      o.log(
        r < 0
          ? 'PostgreSQL: warm-up round done'
          : `PostgreSQL round ${r + 1}/${o.rounds}: ${Object.entries(rows)
              .map(([k, v]) => `${k} ${Math.round(v.at(-1)!)}/s`)
              .join(', ')}`,
      );
    }

    o.log(`PostgreSQL: ${FAR_MS} ms away each way…`);
    for (const [k, v] of Object.entries(await atADistance(db.url, spawn, users.spread, pool, info.postmaster, o))) {
      rows[k] = v.map((x) => x.throughput);
      stats[k] = v;
    }

    o.log('PostgreSQL: statements and round trips on the wire…');
    const perCall = await countOnTheWire(db.url, spawn, idp, users.spread, returning, o);

    const ratio = (x: string, y: string) => median(rows[x]!.map((v, i) => v / rows[y]![i]!));
    // The database's CPU per call, consume over gRPC against the cheapest write, round by round.
    const dbCpu = (x: string, y: string) => {
      const xs = stats[x]!.map((s, i) => (s.cpu.postgres !== null && stats[y]![i]!.cpu.postgres ? s.cpu.postgres / stats[y]![i]!.cpu.postgres! : null));
      const known = xs.filter((v): v is number => v !== null);
      return known.length ? median(known) : Number.NaN;
    };
    const checks = (
      [
        { name: 'PG database CPU: consume / cheapest write', ratio: dbCpu('pgConsume', 'pgWrite'), goal: 3, atMost: true },
        { name: 'PG cheapest write / SELECT 1', ratio: ratio('pgWrite', 'pgSelect1'), goal: null },
        // A reference, not a goal: a consume's read → decide → write transaction cannot come near a bare
        // SELECT 1 on two shared cores (README, "How throughput scales with replicas").
        { name: 'PG consume / bare pg SELECT 1', ratio: ratio('pgConsume', 'pgSelect1'), goal: null },
        { name: 'PG consume, in-process store / SELECT 1', ratio: ratio('pgStoreConsume', 'pgSelect1'), goal: null },
        { name: 'PG consume over gRPC / in-process store', ratio: ratio('pgConsume', 'pgStoreConsume'), goal: null },
        { name: `PG consume / SELECT 1, ${FAR_MS} ms away each way`, ratio: ratio('pgFarConsume', 'pgFarSelect1'), goal: null },
        { name: 'PG consume, 2 replicas / 1 replica', ratio: ratio('pgConsume2', 'pgConsume'), goal: null },
        { name: 'PG consume @1M / @1k prior events', ratio: ratio('pgConsume1M', 'pgConsume1k'), goal: 0.8 },
        { name: 'PG consume, one user / 63 users', ratio: ratio('pgConsume1k', 'pgConsume'), goal: null },
        { name: 'PG login / bare jose.jwtVerify', ratio: ratio('pgLogin', 'pgVerify'), goal: null },
        { name: 'PG login, 2 replicas / 1 replica', ratio: ratio('pgLogin2', 'pgLogin'), goal: null },
      ] as Omit<PostgresCheck, 'pass'>[]
    ).map((c) => ({ ...c, ratio: round(c.ratio, 3), pass: c.goal === null ? null : c.atMost ? c.ratio <= c.goal : c.ratio >= c.goal }));
    const cpuMedian = (k: string, f: keyof PostgresCpu) => {
      const xs = stats[k]!.map((s) => s.cpu[f]).filter((x): x is number => x !== null);
      return xs.length ? round(median(xs), 1) : null;
    };
    const rates = Object.fromEntries(
      Object.keys(rows).map((k) => [
        k,
        {
          perSecond: Math.round(median(rows[k]!)),
          p50Ms: round(median(stats[k]!.map((s) => s.p50Ms))),
          p99Ms: round(median(stats[k]!.map((s) => s.p99Ms))),
          cpuUsPerCall: { replicas: cpuMedian(k, 'replicas'), postgres: cpuMedian(k, 'postgres'), client: cpuMedian(k, 'client') },
        },
      ]),
    );
    return {
      postgres: { version: info.version, settings: info.settings, pool },
      rates,
      checks,
      perCall,
      seconds: round((performance.now() - started) / 1000, 1),
    };
  } finally {
    closeGrpcClients();
    await Promise.all(servers.map((s) => s.stop()));
    await bare.end();
    for (const close of closers) await close();
    await idp.close();
    await db.drop();
    // The cluster of this process is not needed again: its memory back for what runs next.
    if (cluster.owned) cluster.stop('fast');
  }
}

// ---------------------------------------------------------------- seeding

/** The realm, users subscribed to the SQLite bench's 3 windows, and the ledgers of the two history
 *  users, written straight into a migrated database. */
export async function seedPostgres(url: string, log: (s: string) => void): Promise<{ small: string; large: string; spread: string[] }> {
  const now = Date.now();
  const users = { small: 'usr_small', large: 'usr_large', spread: Array.from({ length: SPREAD_USERS }, (_, i) => `usr_spread_${i}`) };
  const all = [users.small, users.large, ...users.spread];
  const storage = await openStorage(url, SecretBox.ephemeral()); // migrates
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('INSERT INTO realms (id, name, created_at) VALUES ($1, $1, $2)', [REALM, now]);
    await c.query("INSERT INTO users (id, realm_id, email, created_at) SELECT u, $1, u || '@example.com', $2 FROM unnest($3::text[]) u", [REALM, now, all]);
    // The cheapest write's rows (5. above): not gatehouse's, dropped with the bench's database.
    await c.query('CREATE TABLE bench_write (id integer PRIMARY KEY, n bigint NOT NULL)');
    await c.query('INSERT INTO bench_write (id, n) SELECT g, 0 FROM generate_series(0, $1::integer - 1) g', [SPREAD_USERS]);
    const [m] = await storage.stores.billing.applyMappingBatch(REALM, 'stripe', 'bench', [{ entitlementKey: 'bench', quotaWindows: WINDOWS }], now);
    for (const [i, userId] of all.entries())
      await storage.stores.billing.createSubscription({ realmId: REALM, userId, mappingId: m!.id, externalSubscriptionId: null, id: `sub_bench_${i}` }, now);
    const t0 = performance.now();
    for (const [userId, n] of [
      [users.small, 1_000],
      [users.large, 1_000_000],
    ] as const) {
      // Spread over the last 29 days: every event is inside the 30-day window (nothing to prune).
      const from = now - 29 * DAY;
      const step = (29 * DAY - 60_000) / n;
      await c.query(
        `INSERT INTO points_usage_ledger (user_id, kind, at, seq, amount, cum)
         SELECT $1, 'subscription_credit', $2::bigint + floor(g * $3::float8)::bigint, g, 1, g FROM generate_series(1, $4::bigint) g`,
        [userId, from, step, n],
      );
      await c.query(
        `INSERT INTO points_usage_heads (user_id, kind, seq, cum, last_at, returned) VALUES ($1, 'subscription_credit', $2, $2, $3, 0)
         ON CONFLICT (user_id, kind) DO UPDATE SET seq = excluded.seq, cum = excluded.cum, last_at = excluded.last_at`,
        [userId, n, from + Math.floor(n * step)],
      );
    }
    // Vacuumed as well as analysed: 1M inserted rows would otherwise set autovacuum on the ledger
    // during the measures, its CPU counted as the consumes'.
    await c.query('VACUUM (ANALYZE)');
    log(`PostgreSQL: seeded 1 001 000 ledger rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } finally {
    await c.end();
    await storage.close();
  }
  return users;
}

// ---------------------------------------------------------------- the cluster and its CPU

async function clusterInfo(url: string): Promise<{ version: string; settings: Record<string, string>; postmaster: number | null }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ version: string; pid: number }>('SELECT current_setting($1) AS version, pg_backend_pid() AS pid', ['server_version']);
    const names = ['fsync', 'synchronous_commit', 'full_page_writes', 'shared_buffers', 'max_connections'];
    const s = await c.query<{ name: string; setting: string; unit: string | null }>('SELECT name, setting, unit FROM pg_settings WHERE name = ANY($1)', [
      names,
    ]);
    return {
      version: rows[0]!.version,
      settings: Object.fromEntries(s.rows.map((r) => [r.name, r.unit ? `${r.setting} × ${r.unit}` : r.setting])),
      postmaster: parentOf(rows[0]!.pid),
    };
  } finally {
    await c.end();
  }
}

/** The parent of a process (/proc), or null where it cannot be read (a server on another host). */
function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** CPU µs used so far by each process of `pids`. */
function cpuOf(pids: number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    const u = processCpuUs(pid);
    if (u) out.set(pid, u.all);
  }
  return out;
}

/** The postmaster and its children: the backends, the writers, autovacuum. */
function clusterPids(postmaster: number): number[] {
  try {
    const children = readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return [postmaster, ...children];
  } catch {
    return [];
  }
}

/** CPU used between two samples: processes that appeared in between count from zero. */
const used = (before: Map<number, number>, after: Map<number, number>) => {
  let us = 0;
  for (const [pid, t] of after) us += t - (before.get(pid) ?? 0);
  return us;
};

async function withCpu(replicas: SpawnedServer[], postmaster: number | null, f: () => Promise<LoadResult>): Promise<LoadResult & { cpu: PostgresCpu }> {
  const pids = replicas.map((s) => s.proc.pid!);
  const r0 = cpuOf(pids);
  const p0 = postmaster === null ? null : cpuOf(clusterPids(postmaster));
  const c0 = process.cpuUsage();
  const r = await f();
  const c = process.cpuUsage(c0);
  const p1 = postmaster === null ? null : cpuOf(clusterPids(postmaster));
  const r1 = cpuOf(pids);
  const per = (us: number) => round(us / r.calls, 1);
  return {
    ...r,
    cpu: {
      replicas: pids.length && r1.size === pids.length ? per(used(r0, r1)) : null,
      postgres: p0 && p1?.size ? per(used(p0, p1)) : null,
      client: per(c.user + c.system),
    },
  };
}

// ---------------------------------------------------------------- at a distance

/** One-way delay of the database "on another host" (a round trip of twice this): enough that on
 *  this machine round trips, not CPU, bound both the consumes and the bare SELECT 1. */
const FAR_MS = 5;

/** Consume over gRPC and the bare SELECT 1, both reaching the database through a proxy that holds
 *  every chunk FAR_MS each way (lib/delay-proxy.ts): a replica and a pool of the same size as the
 *  loopback measures', in interleaved rounds. What a consume costs in round trips, seen where they
 *  are what is scarce. */
async function atADistance(
  url: string,
  spawn: (dbPath: string) => Promise<SpawnedServer>,
  spread: string[],
  poolSize: number,
  postmaster: number | null,
  o: PostgresBenchOptions,
): Promise<Record<string, (LoadResult & { cpu: PostgresCpu })[]>> {
  const target = new URL(url);
  const proxy = await startDelayProxy({ host: target.hostname, port: Number(target.port || 5432) }, FAR_MS);
  const far = new URL(url);
  far.hostname = '127.0.0.1';
  far.port = String(proxy.port);
  const bare = createPool({ url: far.toString(), poolSize, statementTimeoutMs: 10_000, lockTimeoutMs: 5000 }, () => {});
  try {
    const srv = await spawn(far.toString());
    const select1 = () => bare.query({ name: 'one', text: 'SELECT 1' }).then(() => true);
    const calls = Math.min(o.calls, 600);
    await consumeLoad(srv, spread, 200, o.concurrency);
    await runLoad(200, o.concurrency, select1);
    const out: Record<string, (LoadResult & { cpu: PostgresCpu })[]> = { pgFarConsume: [], pgFarSelect1: [] };
    for (let r = 0; r < o.rounds; r++) {
      const steps: [string, SpawnedServer[], () => Promise<LoadResult>][] = [
        ['pgFarConsume', [srv], () => consumeLoad(srv, spread, calls, o.concurrency)],
        ['pgFarSelect1', [], () => runLoad(calls, o.concurrency, select1)],
      ];
      if (r % 2 === 1) steps.reverse();
      for (const [k, replicas, f] of steps) out[k]!.push(await withCpu(replicas, postmaster, f));
    }
    return out;
  } finally {
    await bare.end();
    await proxy.close();
  }
}

// ---------------------------------------------------------------- on the wire

async function countOnTheWire(
  url: string,
  spawn: (dbPath: string) => Promise<SpawnedServer>,
  idp: Awaited<ReturnType<typeof startIdp>>,
  spread: string[],
  returning: string[],
  o: PostgresBenchOptions,
): Promise<PostgresBenchResult['perCall']> {
  const target = new URL(url);
  const counter = await startWireCounter({ host: target.hostname, port: Number(target.port || 5432) });
  try {
    const proxied = new URL(url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(counter.port);
    const srv = await spawn(proxied.toString());
    // Warm: every connection of its pool open, every statement prepared on it, the caches filled.
    await consumeLoad(srv, spread, 500, o.concurrency);
    await loginLoad(srv, await signTokens(idp, 200, returning), o.concurrency);
    const perCall = (counts: WireCounts, calls: number, concurrency: number): WirePerCall => ({
      calls,
      concurrency,
      statements: round(counts.statements / calls, 2),
      roundTrips: round(counts.roundTrips / calls, 2),
      transactions: round(counts.commits / calls, 2),
      // Statements under one in 200 calls (the sweeper's, now and then) are left out; the variants
      // of one statement (points-sql.ts leaves out the parts a call does not need) count as one.
      byStatement: Object.fromEntries(
        [
          ...Object.entries(counts.byText)
            .reduce((by, [text, n]) => {
              const short = text.length > 72 ? text.slice(0, 71) + '…' : text;
              return by.set(short, (by.get(short) ?? 0) + n);
            }, new Map<string, number>())
            .entries(),
        ]
          .filter(([, n]) => n / calls >= 0.005)
          .sort(([, x], [, y]) => y - x)
          .map(([text, n]) => [text, round(n / calls, 2)]),
      ),
    });
    const measure = async (calls: number, concurrency: number, f: () => Promise<unknown>) => {
      counter.reset();
      await f();
      return perCall(counter.counts(), calls, concurrency);
    };
    const loginTokens = await signTokens(idp, 500, returning);
    return {
      method:
        'a replica whose --db points at a proxy that reads the PostgreSQL protocol (bench/lib/pg-wire.ts): statements = Execute and Query messages; a round trip = messages sent while the connection awaited no answer, up to the ReadyForQuery of the last; transactions = COMMITs',
      consume: await measure(2000, o.concurrency, () => consumeLoad(srv, spread, 2000, o.concurrency)),
      consumeAlone: await measure(500, 1, () => consumeLoad(srv, spread, 500, 1)),
      login: await measure(loginTokens.length, o.concurrency, () => loginLoad(srv, loginTokens, o.concurrency)),
    };
  } finally {
    await counter.close();
  }
}

// ---------------------------------------------------------------- output

export function formatPostgres(r: PostgresBenchResult): string {
  const pad = (s: string, n: number) => s.padEnd(n);
  const dash = (x: number | null) => (x === null ? '—' : String(x));
  let out = `PostgreSQL ${r.postgres.version} (${Object.entries(r.postgres.settings)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}; pool ${r.postgres.pool} per process; ${r.seconds} s)\n`;
  out += `${pad('measure', 14)} ${pad('per s', 8)} ${pad('p50 ms', 8)} ${pad('p99 ms', 8)} CPU µs per call: replicas / PostgreSQL / client\n`;
  for (const [k, v] of Object.entries(r.rates)) {
    const c = v.cpuUsPerCall;
    out += `${pad(k, 14)} ${pad(String(v.perSecond), 8)} ${pad(String(v.p50Ms), 8)} ${pad(String(v.p99Ms), 8)} ${dash(c.replicas)} / ${dash(c.postgres)} / ${dash(c.client)}\n`;
  }
  const wire = (name: string, w: WirePerCall) =>
    `${name} (${w.calls} calls, ${w.concurrency} in flight): ${w.statements} statements, ${w.roundTrips} round trips, ${w.transactions} transactions per call\n` +
    Object.entries(w.byStatement)
      .map(([text, n]) => `    ${String(n).padStart(5)}  ${text}\n`)
      .join('');
  out += `\non the wire, per call (${r.perCall.method}):\n`;
  out += wire('  consume', r.perCall.consume);
  out += wire('  consume', r.perCall.consumeAlone);
  out += wire('  login', r.perCall.login);
  return out;
}

export function formatChecks(checks: PostgresCheck[]): string {
  const pad = (s: string, n: number) => s.padEnd(n);
  let out = `${pad('ratio', 42)} ${pad('value', 7)} ${pad('goal', 7)} result\n`;
  for (const c of checks)
    out += `${pad(c.name, 42)} ${pad(String(c.ratio), 7)} ${pad(c.goal === null ? '—' : (c.atMost ? '≤ ' : '≥ ') + c.goal, 7)} ${c.pass === null ? '(for reference)' : c.pass ? 'pass' : 'FAIL'}\n`;
  return out;
}

if (process.argv[1]?.endsWith('bench/postgres.ts')) {
  const why = postgresUnavailable();
  if (why) {
    process.stderr.write(`${why}\n`);
    process.exit(1);
  }
  const { values: args } = parseArgs({
    options: {
      rounds: { type: 'string', default: String(POSTGRES_BENCH_DEFAULTS.rounds) },
      calls: { type: 'string', default: String(POSTGRES_BENCH_DEFAULTS.calls) },
      logins: { type: 'string', default: String(POSTGRES_BENCH_DEFAULTS.logins) },
      concurrency: { type: 'string', default: '16' },
    },
  });
  const result = await postgresBench({
    rounds: Number(args.rounds),
    calls: Number(args.calls),
    logins: Number(args.logins),
    concurrency: Number(args.concurrency),
    log: (s) => process.stderr.write(s + '\n'),
  });
  process.stdout.write(`${formatPostgres(result)}\n${formatChecks(result.checks)}`);
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', 'postgres.json'), JSON.stringify({ at: new Date().toISOString(), ...result }, null, 2) + '\n');
  process.exitCode = result.checks.every((c) => c.pass !== false) ? 0 : 1;
}
