// The PostgreSQL backend: the stores over one pool, its readiness probe, and closing. It has none
// of SQLite's machinery (the database batches and checkpoints by itself).
import type pg from 'pg';
import type { SecretBox } from '../../crypto/secrets.ts';
import type { StorageBackend } from '../backend.ts';
import type { PostgresOptions } from './connect.ts';
import { postgresErrorKind } from './errors.ts';
import { openPostgres } from './open.ts';
import { postgresReadiness } from './readiness.ts';
import { postgresStores } from './stores.ts';

function postgresBackend(pool: pg.Pool, secrets: SecretBox): StorageBackend {
  let closed: Promise<void> | null = null;
  return {
    stores: postgresStores(pool, { secrets }),
    errorKind: postgresErrorKind,
    ready: () => postgresReadiness(pool),
    close: () => (closed ??= pool.end()),
  };
}

/** Connects and migrates (postgres/open.ts), then the backend over the pool. */
export async function openPostgresBackend(o: PostgresOptions, onIdleError: (err: Error) => void, secrets: SecretBox): Promise<StorageBackend> {
  return postgresBackend(await openPostgres(o, onIdleError), secrets);
}
