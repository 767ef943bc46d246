// The storage a server runs on, whichever database `--db` names: the five stores, the translation
// of the database's errors into ours, the readiness probe, and closing. SQLite's own machinery
// (group commit, answer turns, WAL checkpoints) stays with the SQLite connection, which `sqlite`
// hands to the composition root; PostgreSQL has none of it.
import type pg from 'pg';
import type { Config } from './config.ts';
import type { SecretBox } from './crypto/secrets.ts';
import type { ErrorTranslator, GatehouseError } from './errors.ts';
import type { Logger } from './lib/log.ts';
import type { DbErrorClassifier } from './lib/metrics.ts';
import { isPostgresUrl } from './store/database-kind.ts';
import { postgresError, postgresErrorKind } from './store/postgres/errors.ts';
import { openPostgres } from './store/postgres/open.ts';
import { postgresReadiness } from './store/postgres/readiness.ts';
import { postgresStores } from './store/postgres/stores.ts';
import { dbErrorKind } from './store/sqlite/error-kind.ts';
import { sqliteError } from './store/sqlite/errors.ts';
import { type Db, openDatabase } from './store/sqlite/open.ts';
import { databaseReadiness } from './store/sqlite/readiness.ts';
import { sqliteStores } from './store/sqlite/stores.ts';
import type { Stores } from './stores.ts';

export interface StorageBackend {
  stores: Stores;
  /** The SQLite connection; null on PostgreSQL. */
  sqlite: Db | null;
  /** Our error for one of the database's that is not a bug (busy, unreachable → 503), or null. */
  errors: ErrorTranslator;
  /** Which kind of database failure an error is (for the metrics). */
  errorKind: DbErrorClassifier;
  /** null when the database can serve; else the 503 /readyz answers. */
  ready(): Promise<GatehouseError | null>;
  close(): Promise<void>;
}

/** `secrets` seals what the stores keep secret (crypto/secrets.ts; secrets-key.ts loads it). */
export function sqliteBackend(db: Db, secrets: SecretBox): StorageBackend {
  const ready = databaseReadiness(db);
  return {
    stores: sqliteStores(db, secrets),
    sqlite: db,
    errors: sqliteError,
    errorKind: dbErrorKind,
    ready: async () => ready(),
    close: async () => {
      if (db.open) db.close();
    },
  };
}

export function postgresBackend(pool: pg.Pool, secrets: SecretBox): StorageBackend {
  let closed: Promise<void> | null = null;
  return {
    stores: postgresStores(pool, { secrets }),
    sqlite: null,
    errors: postgresError,
    errorKind: postgresErrorKind,
    ready: () => postgresReadiness(pool),
    close: () => (closed ??= pool.end()),
  };
}

/** Opens the PostgreSQL database a postgres:// `--db` names (migrating it), or null for a SQLite
 *  path (opened synchronously by the composition root). */
export async function openPostgresBackend(config: Config, log: Logger, secrets: SecretBox): Promise<StorageBackend | null> {
  if (!isPostgresUrl(config.db)) return null;
  const pool = await openPostgres(
    { url: config.db, poolSize: config.dbPool, statementTimeoutMs: config.dbStatementTimeoutMs, lockTimeoutMs: config.busyTimeoutMs },
    // An idle connection that broke is dropped by the pool and replaced on demand.
    (err) => log.warn('database connection lost', { error: err.message }),
  );
  return postgresBackend(pool, secrets);
}

/** The storage of `db` (a SQLite path or a postgres:// URL) for a command that runs without a
 *  server (`keys create --db`): opened, migrated, and closed by the caller. */
export async function openStorage(db: string, secrets: SecretBox): Promise<StorageBackend> {
  if (!isPostgresUrl(db)) return sqliteBackend(openDatabase(db), secrets);
  return postgresBackend(await openPostgres({ url: db, poolSize: 2, statementTimeoutMs: 10_000, lockTimeoutMs: 5000 }, () => {}), secrets);
}
