// Starts a real gatehouse on port 0 — as a child process (`bin/gatehouse serve`, as operators run
// it) or in this process with a manual clock (for tests that move time) — with a bootstrap API key.
// On SQLite (a file in a temporary folder) or on PostgreSQL (a fresh database of the test
// process's server, test/helpers/postgres.ts) when `backend` says so (test/helpers/backends.ts).

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { createApiKey } from '../../server/admin/api-keys.ts';
import { openStorage } from '../../server/backend.ts';
import { type Config, loadConfig } from '../../server/config.ts';
import type { SecretBox } from '../../server/crypto/secrets.ts';
import type { Clock } from '../../server/lib/clock.ts';
import { createLogger } from '../../server/lib/log.ts';
import type { RunningServer, ServerOptions } from '../../server/main.ts';
import { loadSecrets } from '../../server/secrets-key.ts';
import { freshDatabase } from './postgres.ts';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'gatehouse');

export type TestBackend = 'sqlite' | 'postgres';

export interface TestServer {
  http: string; // http://127.0.0.1:PORT
  grpc: string; // 127.0.0.1:PORT
  /** The database: a SQLite file, or a postgres:// URL. */
  dbPath: string;
  dir: string;
  /** An API key for all realms with every permission. */
  adminKey: string;
  /** Everything the server wrote to stderr so far (JSON log lines). */
  logs(): string;
  /** Resolves once what the server logged satisfies `holds`, however long that takes; rejects if
   *  its log ends first (the server exited or stopped). */
  logged(holds: (logs: string) => boolean): Promise<void>;
  stop(): Promise<void>;
}

export function tempDir(prefix = 'gatehouse-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The key of the secrets at rest a server on `db` uses (its default file, made when missing:
 *  beside a SQLite file, in ./data for PostgreSQL). */
export function secretsOf(db: string): SecretBox {
  return loadSecrets({ db, secretsKey: null, secretsKeyFile: null }, { warn: () => {} });
}

/** Creates a key straight in the database (what `gatehouse keys create --db` does), a SQLite file
 *  or a postgres:// URL; an empty database is migrated first. */
export async function bootstrapKey(dbPath: string, realm = '*', permissions = ['*']): Promise<string> {
  const storage = await openStorage(dbPath, secretsOf(dbPath));
  try {
    return (await createApiKey(storage.stores.admin, { realm, permissions, name: 'test' }, Date.now())).key;
  } finally {
    await storage.close();
  }
}

/** A new database for servers to share (pass its dbPath to each): a file in `dir` on SQLite, a
 *  fresh database on PostgreSQL; `drop` removes it (on SQLite, removing `dir` does). */
export async function newDatabase(dir: string, backend: TestBackend = 'sqlite'): Promise<{ dbPath: string; drop(): Promise<void> }> {
  if (backend === 'postgres') {
    const db = await freshDatabase();
    return { dbPath: db.url, drop: db.drop };
  }
  return { dbPath: join(dir, 'gatehouse.db'), drop: async () => {} };
}

/** Where a server's database lives: `dbPath` when given (its owner drops it), else a new one. */
function databaseFor(backend: TestBackend, dir: string, dbPath: string | undefined): Promise<{ dbPath: string; drop(): Promise<void> }> {
  return dbPath !== undefined ? Promise.resolve({ dbPath, drop: async () => {} }) : newDatabase(dir, backend);
}

export interface SpawnOptions {
  args?: string[];
  env?: Record<string, string>;
  dir?: string;
  /** A database to serve (a SQLite file or a postgres:// URL), shared with whoever passes it too. */
  dbPath?: string;
  /** Where a new database is made when `dbPath` is not given (default SQLite). */
  backend?: TestBackend;
  /** Flags for node itself (e.g. `--cpu-prof` when profiling a benchmark). */
  nodeArgs?: string[];
}

export interface SpawnedServer extends TestServer {
  proc: ChildProcess;
  /** Everything the server wrote to stdout so far (the ready line). */
  stdout(): string;
  /** Sends a signal and resolves with the exit code. */
  kill(signal: NodeJS.Signals): Promise<number | null>;
}

/** What a server has logged so far, and the waits on what it comes to hold (`logged`). */
class LogWatch {
  text = '';
  private waiters: Array<{ holds: (logs: string) => boolean; resolve: () => void; reject: (e: Error) => void }> = [];
  /** Why nothing more will come, once nothing will. */
  private ended: string | null = null;

  add(chunk: string): void {
    this.text += chunk;
    this.waiters = this.waiters.filter((w) => {
      if (!w.holds(this.text)) return true;
      w.resolve();
      return false;
    });
  }

  /** Nothing more will come: every wait still pending, and every later one the log does not
   *  already satisfy, rejects with `why` and the log. */
  end(why: string): void {
    this.ended = why;
    for (const w of this.waiters) w.reject(this.endedError());
    this.waiters = [];
  }

  logged(holds: (logs: string) => boolean): Promise<void> {
    if (holds(this.text)) return Promise.resolve();
    if (this.ended !== null) return Promise.reject(this.endedError());
    return new Promise((resolve, reject) => this.waiters.push({ holds, resolve, reject }));
  }

  private endedError(): Error {
    return new Error(`${this.ended} before the awaited log:\n${this.text}`);
  }
}

export async function spawnServer(opts: SpawnOptions = {}): Promise<SpawnedServer> {
  const dir = opts.dir ?? tempDir();
  const database = await databaseFor(opts.backend ?? 'sqlite', dir, opts.dbPath);
  const dbPath = database.dbPath;
  const adminKey = await bootstrapKey(dbPath);
  const proc = spawn(
    process.execPath,
    [...(opts.nodeArgs ?? []), BIN, 'serve', '--db', dbPath, '--grpc', '127.0.0.1:0', '--http', '127.0.0.1:0', ...(opts.args ?? [])],
    {
      cwd: ROOT,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const log = new LogWatch();
  let stdout = '';
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => log.add(d));
  proc.stderr!.once('end', () => log.end("the server's output ended"));
  proc.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  const exited = new Promise<number | null>((res) => proc.once('exit', (code) => res(code)));
  const ready = await new Promise<{ grpc: string; http: string }>((resolveReady, reject) => {
    const rl = createInterface({ input: proc.stdout! });
    // No time limit: a slow start is waited for; a failed one ends the process (below).
    // The first JSON line is the ready event; node's own lines (--trace-gc) may come before it.
    const onLine = (line: string) => {
      if (!line.startsWith('{')) return;
      rl.off('line', onLine);
      try {
        resolveReady(JSON.parse(line));
      } catch {
        reject(new Error(`unexpected first line: ${line}`));
      }
    };
    rl.on('line', onLine);
    void exited.then((code) => reject(new Error(`server exited with ${code} before ready:\n${log.text}`)));
  });
  let stopped = false;
  const kill = async (signal: NodeJS.Signals) => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
    return exited;
  };
  return {
    http: `http://${ready.http}`,
    grpc: ready.grpc,
    dbPath,
    dir,
    adminKey,
    proc,
    logs: () => log.text,
    stdout: () => stdout,
    kill,
    logged: (holds) => log.logged(holds),
    async stop() {
      if (stopped) return;
      stopped = true;
      await kill('SIGTERM');
      await database.drop();
      if (!opts.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface InProcessServer extends TestServer {
  running: RunningServer;
}

export interface InProcessOptions {
  clock?: Clock;
  /** The server's settings, as its flags would set them (they win over `env`). */
  config?: Partial<Config>;
  /** Its environment (GATEHOUSE_*), read as `gatehouse serve` reads the process's: nothing of the
   *  test process's own environment is read. */
  env?: Record<string, string>;
  tuning?: Pick<ServerOptions, 'headersTimeoutMs' | 'sweepIntervalMs' | 'jobIntervalMs' | 'resolveHost' | 'webhookTimeoutMs'>;
  /** A folder kept when the server stops (its owner removes it). */
  dir?: string;
  /** A database to serve (a SQLite file or a postgres:// URL), shared with whoever passes it too;
   *  kept when the server stops. */
  dbPath?: string;
  /** Where a new database is made when `dbPath` is not given (default SQLite). */
  backend?: TestBackend;
}

/** The real server in this process (real HTTP and gRPC on port 0): what a spawned one does, for
 *  the tests where the process itself is not what is tested. A start that fails throws what the
 *  spawned server would have printed before exiting. */
export async function startInProcess(opts: InProcessOptions = {}): Promise<InProcessServer> {
  const dir = opts.dir ?? tempDir();
  const database = await databaseFor(opts.backend ?? 'sqlite', dir, opts.dbPath);
  const dbPath = database.dbPath;
  const cleanUp = async () => {
    await database.drop();
    if (!opts.dir) rmSync(dir, { recursive: true, force: true });
  };
  const log = new LogWatch();
  let running: RunningServer;
  let adminKey: string;
  try {
    adminKey = await bootstrapKey(dbPath);
    const config = { ...loadConfig({}, opts.env ?? {}), db: dbPath, grpcAddr: '127.0.0.1:0', httpAddr: '127.0.0.1:0', ...opts.config };
    // Imported here, not above: a test file that only spawns servers (or runs the CLI) then never
    // loads the whole server (about a CPU-second per file).
    const { startServer } = await import('../../server/main.ts');
    running = await startServer(config, { ...opts.tuning, clock: opts.clock, log: createLogger({ level: 'debug', write: (line) => log.add(`${line}\n`) }) });
  } catch (e) {
    await cleanUp();
    throw e;
  }
  let stopped: Promise<void> | null = null;
  return {
    http: running.httpUrl,
    grpc: running.grpcAddr,
    dbPath,
    dir,
    adminKey,
    running,
    logs: () => log.text,
    logged: (holds) => log.logged(holds),
    stop() {
      return (stopped ??= (async () => {
        await running.stop(2000);
        log.end('the server stopped');
        await cleanUp();
      })());
    },
  };
}
