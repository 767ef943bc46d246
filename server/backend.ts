// The composition root of the storage: opens the database `--db` names — a SQLite file (or
// :memory:) or a postgres:// URL — migrated, as the backend the rest of the server runs on
// (store/backend.ts). The one place outside store/sqlite/ and store/postgres/ that names either.
// Each is loaded when named: a server on SQLite does not load pg (~15 MiB and its start-up time),
// nor one on PostgreSQL better-sqlite3.
import type { Config } from './config.ts';
import type { SecretBox } from './crypto/secrets.ts';
import { moduleLoader } from './lib/load-module.ts';
import type { Logger } from './lib/log.ts';
import type { StorageBackend } from './store/backend.ts';
import { isPostgresUrl } from './store/database-kind.ts';

// Loaded when first needed (server/lib/load-module.ts).
const load = moduleLoader(import.meta.url);

export type { StorageBackend } from './store/backend.ts';

/** The storage a server runs on (`serve`, a cluster's primary). */
export async function openBackend(config: Config, log: Logger, secrets: SecretBox): Promise<StorageBackend> {
  if (!isPostgresUrl(config.db)) {
    const { openSqliteBackend } = await load<typeof import('./store/sqlite/backend.ts')>('./store/sqlite/backend.ts');
    return openSqliteBackend(config.db, { busyTimeoutMs: config.busyTimeoutMs }, secrets);
  }
  const { openPostgresBackend } = await load<typeof import('./store/postgres/backend.ts')>('./store/postgres/backend.ts');
  return openPostgresBackend(
    { url: config.db, poolSize: config.dbPool, statementTimeoutMs: config.dbStatementTimeoutMs, lockTimeoutMs: config.busyTimeoutMs },
    // An idle connection that broke is dropped by the pool and replaced on demand.
    (err) => log.warn('database connection lost', { error: err.message }),
    secrets,
  );
}

/** The storage of `db` for a command that runs without a server (`keys create --db`, the
 *  simulator's :memory:): opened, migrated, and closed by the caller. */
export async function openStorage(db: string, secrets: SecretBox): Promise<StorageBackend> {
  if (!isPostgresUrl(db)) {
    const { openSqliteBackend } = await load<typeof import('./store/sqlite/backend.ts')>('./store/sqlite/backend.ts');
    return openSqliteBackend(db, {}, secrets);
  }
  const { openPostgresBackend } = await load<typeof import('./store/postgres/backend.ts')>('./store/postgres/backend.ts');
  return openPostgresBackend({ url: db, poolSize: 2, statementTimeoutMs: 10_000, lockTimeoutMs: 5000 }, () => {}, secrets);
}
