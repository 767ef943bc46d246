// Deleting an account (docs/login.md "Deleting an account") against the size of what it deletes:
// a user with 100 000 history rows (and as many usage ledger rows) and 1 000 token families, against
// a fresh user with one session, through the users store in this process (no transport). Two
// figures per deletion: its answer (the one transaction that makes the account gone; goal under a
// second on both backends, also printed as a ratio against the fresh user's) and its purge (the
// `user.purge` job's batches, run here as the job runs them, from the commit until no row is left).
// Beside them, the p99 of other users' consumes (8 in flight) from the deletion's start to its
// purge's end, against their p99 over the same number of calls with neither. The rows are seeded
// straight into the tables; each round deletes a heavy and a fresh user of its own.
//   node --import tsx bench/account-deletion.ts [--rounds 3 --backend sqlite|postgres]
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CryptoOffload } from '../server/crypto/offload.ts';
import { SecretBox } from '../server/crypto/secrets.ts';
import { claimed } from '../server/jobs/retry.ts';
import { createLogger } from '../server/lib/log.ts';
import { createClient } from '../server/store/postgres/connect.ts';
import { openPostgres } from '../server/store/postgres/open.ts';
import { postgresStores } from '../server/store/postgres/stores.ts';
import { startCheckpointer } from '../server/store/sqlite/checkpointer.ts';
import { immediate, openDatabase } from '../server/store/sqlite/open.ts';
import { sqliteStores } from '../server/store/sqlite/stores.ts';
import type { Stores } from '../server/stores.ts';
import { planAccountDeletion } from '../server/users/deletion.ts';
import { USER_PURGE, USER_PURGE_POLICY } from '../server/users/purge.ts';
import { freshDatabase, testPostgresOptions } from '../test/helpers/postgres.ts';
import { tempDir } from '../test/helpers/server.ts';

export type DeletionBackend = 'sqlite' | 'postgres';

const HISTORY_ROWS = 100_000;
const FAMILIES = 1_000;
const OTHERS = 4;
const REALM = 'bench';

export interface AccountDeletionResult {
  backend: DeletionBackend;
  rounds: number;
  historyRows: number;
  families: number;
  /** Median milliseconds of a deletion's answer (its transaction). */
  heavyMs: number;
  freshMs: number;
  /** Median milliseconds of the heavy user's purge, from the deletion's answer to no row left. */
  purgeMs: number;
  /** Median of each round's heavy deletion over its fresh one. */
  ratio: number;
  underASecond: boolean;
  /** Other users' consume p99 (ms): while a heavy deletion and its purge run, and with neither. */
  consumeP99DuringMs: number;
  consumeP99BaselineMs: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))] ?? 0;

const heavy = (r: number) => `heavy_${r}`;
const fresh = (r: number) => `fresh_${r}`;
const other = (i: number) => `other_${i}`;

/** The accounts: per round a heavy and a fresh user, and the others who consume. The statements
 *  are the same text on both backends but for the row generator (SQLite's recursive CTE,
 *  PostgreSQL's generate_series) and the placeholders. */
function seedStatements(rounds: number, now: number, series: (n: string) => string, p: (i: number) => string): Array<[string, unknown[]]> {
  // Typed where the value is not a column's (PostgreSQL infers nothing from `||` or `+`).
  const t = (i: number) => `CAST(${p(i)} AS TEXT)`;
  const b = (i: number) => `CAST(${p(i)} AS BIGINT)`;
  const out: Array<[string, unknown[]]> = [[`INSERT INTO realms (id, name, created_at) VALUES (${p(1)}, ${p(1)}, ${p(2)})`, [REALM, now]]];
  const user = (id: string) => {
    out.push([`INSERT INTO users (id, realm_id, email, created_at) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)})`, [id, REALM, `${id}@example.com`, now]]);
    out.push([
      `INSERT INTO user_identities (realm_id, provider, subject, user_id, email, created_at) VALUES (${p(1)}, 'apple', ${p(2)}, ${p(2)}, NULL, ${p(3)})`,
      [REALM, id, now],
    ]);
  };
  const families = (id: string, n: number) => {
    out.push([
      `INSERT INTO token_families (id, realm_id, user_id, client_id, ip, ip_binding, access_ttl_s, refresh_ttl_s, created_at, expires_at)
       SELECT ${t(1)} || '_' || n, ${t(2)}, ${t(1)}, 'app', '127.0.0.1', 'off', 900, 3600, ${b(3)}, ${b(3)} + 3600000 FROM ${series(b(4))}`,
      [id, REALM, now, n],
    ]);
    out.push([
      `INSERT INTO refresh_tokens (token_hash, family_id, created_at, expires_at) SELECT ${t(1)} || '_rt_' || n, ${t(1)} || '_' || n, ${b(2)}, ${b(2)} + 3600000 FROM ${series(b(3))}`,
      [id, now, n],
    ]);
  };
  for (let r = 0; r < rounds; r++) {
    user(heavy(r));
    families(heavy(r), FAMILIES);
    out.push([
      `INSERT INTO points_transactions (id, realm_id, user_id, amount, description, allocations, created_at, kind)
       SELECT ${t(1)} || '_ptx_' || n, ${t(2)}, ${t(1)}, 1, NULL, '[]', ${b(3)} - n * 1000, 'consume' FROM ${series(b(4))}`,
      [heavy(r), REALM, now, HISTORY_ROWS],
    ]);
    out.push([
      `INSERT INTO points_usage_ledger (user_id, kind, at, seq, amount, cum)
       SELECT ${t(1)}, 'subscription_credit', ${b(2)} - (${b(3)} - n) * 1000, n, 1, n FROM ${series(b(3))}`,
      [heavy(r), now, HISTORY_ROWS],
    ]);
    out.push([
      `INSERT INTO points_usage_heads (user_id, kind, seq, cum, last_at, returned) VALUES (${p(1)}, 'subscription_credit', ${p(2)}, ${p(2)}, ${p(3)}, 0)`,
      [heavy(r), HISTORY_ROWS, now],
    ]);
    user(fresh(r));
    families(fresh(r), 1);
  }
  for (let i = 0; i < OTHERS; i++) user(other(i));
  return out;
}

/** The stores over a seeded database of `backend`. */
async function openSeeded(backend: DeletionBackend, rounds: number, now: number): Promise<{ stores: Stores; close(): Promise<void> }> {
  if (backend === 'postgres') {
    const db = await freshDatabase('bench');
    const pool = await openPostgres({ ...testPostgresOptions(db.url), poolSize: 10 }, () => {});
    const sql = createClient(testPostgresOptions(db.url));
    await sql.connect();
    try {
      const statements = seedStatements(
        rounds,
        now,
        (n) => `generate_series(1, ${n}::bigint) AS g(n)`,
        (i) => `$${i}`,
      );
      for (const [text, values] of statements) await sql.query(text, values);
      await sql.query('VACUUM ANALYZE');
    } finally {
      await sql.end();
    }
    return {
      stores: postgresStores(pool, { secrets: SecretBox.ephemeral() }),
      async close() {
        await pool.end();
        await db.drop();
      },
    };
  }
  const dir = tempDir('gatehouse-bench-deletion-');
  const path = join(dir, 'deletion.db');
  const db = openDatabase(path);
  const series = (n: string) => `(WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${n}) SELECT n FROM s)`;
  const statements = seedStatements(rounds, now, series, (i) => `@p${i}`);
  await immediate(db, () => {
    for (const [text, values] of statements) db.prepare(text).run(Object.fromEntries(values.map((v, i) => [`p${i + 1}`, v])));
  });
  db.exec('ANALYZE');
  // WAL checkpoints on a thread, as `gatehouse serve` runs them (store/sqlite/checkpointer.ts).
  const thread = new CryptoOffload();
  const checkpointer = startCheckpointer(db, path, createLogger({ level: 'error', write: () => {} }), thread);
  return {
    stores: sqliteStores(db, SecretBox.ephemeral()),
    async close() {
      await checkpointer.stop();
      await thread.stopWorker();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Milliseconds the deletion of `userId` takes to answer, and then its purge, run as the job runs
 *  it: batch after batch under the job's lease, held by this process. */
async function timedDeletion(stores: Stores, userId: string): Promise<{ answerMs: number; purgeMs: number }> {
  const now = Date.now();
  const request = { realmId: REALM, userId, actor: { type: 'system' as const, id: 'bench' }, requestId: null };
  const t0 = performance.now();
  const done = await stores.users.deleteAccount(REALM, userId, (snapshot) => {
    const plan = planAccountDeletion(snapshot, request, now, []);
    const jobs = plan.emitted.jobs.map((j) => (j.kind === USER_PURGE ? claimed(j, 'bench', now, USER_PURGE_POLICY) : j));
    return { ...plan, emitted: { ...plan.emitted, jobs } };
  });
  const answerMs = performance.now() - t0;
  if (!done) throw new Error(`${userId} was not deleted`);
  const job = done.emitted.jobs.find((j) => j.kind === USER_PURGE)!;
  const t1 = performance.now();
  for (;;) {
    const at = Date.now();
    const batch = await stores.users.purgeAccountBatch(userId, { jobId: job.id, owner: 'bench', until: at + USER_PURGE_POLICY.leaseMs, now: at });
    if (batch === null) throw new Error(`the purge of ${userId} lost its lease`);
    if (batch.finished) break;
  }
  return { answerMs, purgeMs: performance.now() - t1 };
}

let consumeIds = 0;

/** Consumes of the other users, 8 in flight, until `until` settles (at least `min` calls): each
 *  call's milliseconds. */
async function consumesUntil(stores: Stores, until: Promise<unknown>, min: number): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const times: number[] = [];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (!done || times.length < min) {
        const n = consumeIds++;
        const userId = other(n % OTHERS);
        const t0 = performance.now();
        await stores.points.consume(
          { realmId: REALM, userId, amount: 1, description: null, idempotencyKey: null, requestHash: '', transactionId: `ptx_c${n}` },
          Date.now(),
        );
        times.push(performance.now() - t0);
      }
    }),
  );
  return times;
}

export async function accountDeletion(opts: { rounds?: number; backend?: DeletionBackend; log?: (s: string) => void } = {}): Promise<AccountDeletionResult> {
  const rounds = opts.rounds ?? 3;
  const backend = opts.backend ?? 'sqlite';
  const log = opts.log ?? (() => {});
  const t0 = Date.now();
  const { stores, close } = await openSeeded(backend, rounds, t0);
  log(
    `deletion bench (${backend}): seeded ${rounds} users of ${HISTORY_ROWS} history rows and ${FAMILIES} families in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  const heavyMs: number[] = [];
  const freshMs: number[] = [];
  const purgeMs: number[] = [];
  const during: number[] = [];
  const baseline: number[] = [];
  try {
    for (let i = 0; i < OTHERS; i++) {
      await stores.points.grant(
        { realmId: REALM, userId: other(i), kind: 'topup_credit', amount: 1e9, expiresAt: null, idempotencyKey: null, requestHash: '', grantId: `grt_${i}` },
        Date.now(),
      );
    }
    await consumesUntil(stores, Promise.resolve(), 500); // warm-up
    for (let r = 0; r < rounds; r++) {
      const deletion = timedDeletion(stores, heavy(r));
      const calls = await consumesUntil(stores, deletion, 50);
      const ms = await deletion;
      during.push(p99(calls));
      baseline.push(p99(await consumesUntil(stores, Promise.resolve(), calls.length)));
      heavyMs.push(ms.answerMs);
      purgeMs.push(ms.purgeMs);
      freshMs.push((await timedDeletion(stores, fresh(r))).answerMs);
      log(
        `deletion bench (${backend}) round ${r + 1}/${rounds}: heavy ${ms.answerMs.toFixed(0)} ms to answer, then ${ms.purgeMs.toFixed(0)} ms of purge; fresh ${freshMs.at(-1)!.toFixed(1)} ms; other users' consume p99 ${during.at(-1)!.toFixed(1)} ms during both (${calls.length} calls), ${baseline.at(-1)!.toFixed(1)} ms without`,
      );
    }
  } finally {
    await close();
  }
  const round2 = (x: number) => Number(x.toFixed(2));
  return {
    backend,
    rounds,
    historyRows: HISTORY_ROWS,
    families: FAMILIES,
    heavyMs: round2(median(heavyMs)),
    freshMs: round2(median(freshMs)),
    purgeMs: round2(median(purgeMs)),
    ratio: round2(median(heavyMs.map((h, i) => h / freshMs[i]!))),
    underASecond: Math.max(...heavyMs) < 1000,
    consumeP99DuringMs: round2(median(during)),
    consumeP99BaselineMs: round2(median(baseline)),
  };
}

/** One line for the bench report. */
export function formatAccountDeletion(r: AccountDeletionResult): string {
  return `account deletion (${r.backend}; ${r.historyRows} history rows, ${r.families} sessions): answered in ${r.heavyMs} ms (under a second: ${r.underASecond}), ${r.ratio}× a fresh user's ${r.freshMs} ms, then purged in ${r.purgeMs} ms; other users' consume p99 ${r.consumeP99DuringMs} ms during both, ${r.consumeP99BaselineMs} ms without`;
}

if (process.argv[1]?.endsWith('account-deletion.ts')) {
  const { values } = parseArgs({ strict: false, options: { rounds: { type: 'string' }, backend: { type: 'string' } } });
  const r = await accountDeletion({
    backend: values.backend === 'postgres' ? 'postgres' : 'sqlite',
    rounds: values.rounds ? Number(values.rounds) : undefined,
    log: (s) => process.stderr.write(s + '\n'),
  });
  process.stdout.write(`${formatAccountDeletion(r)}\n${JSON.stringify(r, null, 2)}\n`);
}
