// Opens the PostgreSQL backend once per process: the pool, then the migrations (under their
// advisory lock, on a connection of their own). What `serve --db postgres://…` and
// `keys create --db postgres://…` start from.
import type pg from 'pg';
import { shownDatabase } from '../../lib/redact.ts';
import { StoreOpenError } from '../errors.ts';
import { createClient, createPool, type PostgresOptions } from './connect.ts';
import { migratePostgres } from './migrate.ts';

/** Connects, migrates, and returns the stores' pool; throws StoreOpenError naming the database
 *  (without its password) when it cannot be reached or migrated. */
export async function openPostgres(o: PostgresOptions, onIdleError: (err: Error) => void): Promise<pg.Pool> {
  const client = createClient(o);
  try {
    await client.connect();
    await migratePostgres(client);
  } catch (e) {
    throw new StoreOpenError(`cannot open database ${shownDatabase(o.url)}: ${(e as Error).message}`);
  } finally {
    await client.end().catch(() => {});
  }
  return createPool(o, onIdleError);
}
