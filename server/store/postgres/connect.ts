// Connecting to PostgreSQL: the URL, the pool and the session settings, in one place.
// `--db postgres://…` / `postgresql://…` selects this backend. The URL's query parameters follow
// libpq (sslmode=disable|prefer|require|verify-ca|verify-full, sslrootcert, host=/socket/dir,
// application_name, …) and the PG* environment variables (PGHOST, PGUSER, PGPASSWORD, PGDATABASE,
// PGPORT, PGSSLMODE…) fill in what the URL leaves out, as with psql.
import pg from 'pg';

export interface PostgresOptions {
  url: string;
  /** Connections this process keeps at most. */
  poolSize: number;
  /** Longest one statement may run before it is cancelled (answered 503, busy). */
  statementTimeoutMs: number;
  /** Longest a statement waits for a row lock (a user's points, a refresh token) before 503. */
  lockTimeoutMs: number;
}

/** BIGINT columns hold epoch milliseconds and points, all within 2^53−1 (the API's bound): read as
 *  numbers, not the driver's default strings. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? Number : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

/** The connection settings of `url`: libpq's reading of sslmode (pg alone would treat `require`
 *  as `verify-full`), unless the URL chose otherwise. */
export function connectionString(url: string): string {
  const q = url.indexOf('?');
  const params = new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
  if (params.has('uselibpqcompat')) return url;
  return url + (q === -1 ? '?' : '&') + 'uselibpqcompat=true';
}

export function clientConfig(o: Pick<PostgresOptions, 'url' | 'statementTimeoutMs' | 'lockTimeoutMs'>): pg.ClientConfig {
  return {
    connectionString: connectionString(o.url),
    types,
    statement_timeout: o.statementTimeoutMs,
    lock_timeout: o.lockTimeoutMs,
    // A connection left inside a transaction (a process frozen mid-call) must not hold a user's
    // row lock forever.
    idle_in_transaction_session_timeout: Math.max(60_000, o.statementTimeoutMs * 2),
    connectionTimeoutMillis: 5000,
    keepAlive: true,
    fallback_application_name: 'gatehouse',
    // Every statement is prepared once per connection (tx.ts) and written to be planned without
    // its values (indexes chosen by columns, partial indexes by literals). Left to choose, the
    // server kept re-planning the points state read and the charge on every call (their array
    // parameters make a generic plan look costly to it): ~0.9 ms of its CPU per consume.
    options: '-c plan_cache_mode=force_generic_plan',
  };
}

/** The pool of the stores. Its connections pipeline: a use case sends the statements that do not
 *  wait on each other's answers together, one round trip for all of them. */
export function createPool(o: PostgresOptions, onIdleError: (err: Error) => void): pg.Pool {
  const config = clientConfig(o);
  // A generic plan is made once per connection, on the tables as they are then, and kept: planned
  // on a young database's few rows, a read by key scanned the table whole and went on doing so as
  // it grew (the history's prune, planned on an empty history, read all of it ~1 time in 8). The
  // stores' statements all reach their rows through an index; one with no index to use still scans
  // (cache_version's one row), its cost then past any threshold: no JIT compiling it on each call
  // (~20 ms each), nor anything else of this service's, whose statements each touch a few rows.
  config.options += ' -c enable_seqscan=off -c jit=off';
  const pool = new pg.Pool({ ...config, max: o.poolSize, idleTimeoutMillis: 30_000, pipeline: true });
  // An idle connection that breaks (the server restarted, an operator ended it) is dropped by the
  // pool; without a listener the error would end the process.
  pool.on('error', onIdleError);
  return pool;
}

/** A single connection outside the pool (migrations run many statements in one string, which a
 *  pipelined connection refuses). */
export function createClient(o: Pick<PostgresOptions, 'url' | 'statementTimeoutMs' | 'lockTimeoutMs'>): pg.Client {
  return new pg.Client({ ...clientConfig(o), statement_timeout: 0 });
}
