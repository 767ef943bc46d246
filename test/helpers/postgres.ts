// A PostgreSQL server for the tests: GATEHOUSE_TEST_POSTGRES_URL when set (a server someone else
// runs), else one throwaway cluster per test process (a copy of one initdb kept in the temporary
// folder, started on a free port and a socket folder of its own, stopped and removed when the
// process exits). Each suite
// takes a fresh database of it (freshDatabase). As root, initdb and postgres run as the `postgres`
// OS user (postgres refuses to run as root).

import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { SecretBox } from '../../server/crypto/secrets.ts';
import type { PostgresOptions } from '../../server/store/postgres/connect.ts';
import { openPostgres } from '../../server/store/postgres/open.ts';
import { postgresStores } from '../../server/store/postgres/stores.ts';
import type { TxObserver } from '../../server/store/postgres/tx.ts';
import type { StoreFixture } from '../store/contract.ts';
import { freePort } from './free-port.ts';
import { tempDir } from './server.ts';

export interface TestPostgres {
  /** A URL of database `name` on this server. */
  url(name: string): string;
  /** Whether the tests own the cluster (and so may stop and start it). */
  owned: boolean;
  /** An owned cluster's TCP port and Unix socket folder (null for a given URL). */
  port: number | null;
  socketDir: string | null;
  /** Stops the cluster (`fast`: every connection is ended); owned clusters only. */
  stop(mode?: 'fast' | 'immediate'): void;
  /** Starts it again on the same port; owned clusters only. */
  start(): void;
}

export interface TestDatabase {
  url: string;
  name: string;
  /** Drops the database (ending its connections first). */
  drop(): Promise<void>;
}

/** Where Debian's packages put the server binaries (the newest version there). */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0]!, 'bin') : null;
}

/** Why PostgreSQL tests cannot run here (no URL given and no server binaries), or null. */
export function postgresUnavailable(): string | null {
  if (process.env.GATEHOUSE_TEST_POSTGRES_URL || postgresBinDir()) return null;
  return 'no PostgreSQL: install the postgresql package or set GATEHOUSE_TEST_POSTGRES_URL';
}

let server: Promise<TestPostgres> | null = null;

/** This process's PostgreSQL server, started on first use. */
export function testPostgres(): Promise<TestPostgres> {
  server ??= startServer();
  return server;
}

async function startServer(): Promise<TestPostgres> {
  const given = process.env.GATEHOUSE_TEST_POSTGRES_URL;
  if (given) {
    const base = new URL(given);
    return {
      owned: false,
      port: null,
      socketDir: null,
      url: (name) => {
        const u = new URL(base);
        u.pathname = `/${name}`;
        return u.toString();
      },
      stop: () => {
        throw new Error('the tests do not own GATEHOUSE_TEST_POSTGRES_URL: it cannot be stopped');
      },
      start: () => {},
    };
  }
  const bin = postgresBinDir();
  if (!bin) throw new Error('no PostgreSQL server binaries (apt-get install postgresql), and GATEHOUSE_TEST_POSTGRES_URL is not set');
  const dir = tempDir('gatehouse-pg-');
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, uidOf('postgres'), gidOf('postgres'));
  const run = (cmd: string, args: string[]) => {
    const full = join(bin, cmd);
    execFileSync(asRoot ? 'runuser' : full, asRoot ? ['-u', 'postgres', '--', full, ...args] : args, { stdio: ['ignore', 'ignore', 'pipe'] });
  };
  // A copy of initdb's output (cp -a keeps its owner and modes): initdb itself runs once per
  // machine and PostgreSQL version, not once per test process (~2 s each).
  execFileSync('cp', ['-a', templateCluster(bin, asRoot, run), data]);
  const port = await freePort();
  // Durability is not what these tests check: no fsync, so a cluster starts and writes quickly.
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  const start = () => run('pg_ctl', ['-D', data, '-o', opts, '-l', join(dir, 'log'), '-w', '-t', '30', 'start']);
  const stop = (mode: 'fast' | 'immediate' = 'fast') => run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
  start();
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    try {
      stop('immediate');
    } catch {
      // already stopped
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', remove);
  // The test runner ends a file that outlives its tests with a signal: no 'exit' then, so the
  // cluster is removed here and the signal delivered again.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      remove();
      process.kill(process.pid, signal);
    });
  }
  return { owned: true, port, socketDir: dir, url: (name) => `postgres://postgres@127.0.0.1:${port}/${name}`, stop, start };
}

/** A fresh cluster's data folder for `bin`'s PostgreSQL, made once in the temporary folder and
 *  copied by every test process after. Made aside and renamed into place, so a process that finds it
 *  finds it whole; when several make it at once, the first rename wins and the others drop theirs. */
function templateCluster(bin: string, asRoot: boolean, run: (cmd: string, args: string[]) => void): string {
  const version = bin.split('/').at(-2) ?? 'pg';
  const dir = join(tmpdir(), `gatehouse-pg-template-${version}-${process.getuid?.() ?? 0}`);
  const data = join(dir, 'data');
  if (existsSync(data)) return data;
  const staging = tempDir('gatehouse-pg-template-');
  if (asRoot) chownSync(staging, uidOf('postgres'), gidOf('postgres'));
  run('initdb', ['-D', join(staging, 'data'), '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '-N', '--no-instructions']);
  try {
    renameSync(staging, dir);
  } catch {
    rmSync(staging, { recursive: true, force: true }); // another process's is in place
  }
  return data;
}

let seq = 0;

/** A new empty database on this process's server. */
export async function freshDatabase(prefix = 'gh'): Promise<TestDatabase> {
  const srv = await testPostgres();
  const name = `${prefix}_${process.pid}_${++seq}_${Math.random().toString(36).slice(2, 8)}`;
  await adminQuery(srv, `CREATE DATABASE ${name}`);
  return {
    name,
    url: srv.url(name),
    drop: async () => {
      await adminQuery(srv, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** Runs one statement on the server's maintenance database. */
export async function adminQuery(srv: TestPostgres, sql: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const c = new pg.Client({ connectionString: srv.url('postgres') });
  await c.connect();
  try {
    return await c.query(sql, values);
  } finally {
    await c.end();
  }
}

function uidOf(user: string): number {
  return Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
}
function gidOf(user: string): number {
  return Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
}

/** Options of the stores' pools in tests: small, and quick to give up on a stopped server. */
export function testPostgresOptions(url: string): PostgresOptions {
  return { url, poolSize: 8, statementTimeoutMs: 10_000, lockTimeoutMs: 5000 };
}

/** Every store over a fresh, migrated database; `peer()` opens another pool on it (a second
 *  replica); `close()` ends every pool and drops the database. */
export async function freshPostgresStores(observe?: TxObserver): Promise<StoreFixture> {
  const db = await freshDatabase();
  const pools: pg.Pool[] = [];
  const secrets = SecretBox.ephemeral(); // one key for every replica of the fixture
  const open = async () => {
    const pool = await openPostgres(testPostgresOptions(db.url), () => {});
    pools.push(pool);
    return postgresStores(pool, { observe, secrets });
  };
  const first = await open();
  return {
    ...first,
    peer: open,
    async close() {
      await Promise.all(pools.map((p) => p.end()));
      await db.drop();
    },
  };
}
