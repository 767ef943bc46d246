// Opens the PostgreSQL backend once per process: the pool, then the migrations (under their
// advisory lock, on a connection of their own). What `serve --db postgres://…` and
// `keys create --db postgres://…` start from.
import type pg from 'pg';
import { StoreOpenError } from '../open.ts';
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
    throw new StoreOpenError(`cannot open database ${redacted(o.url)}: ${(e as Error).message}`);
  } finally {
    await client.end().catch(() => {});
  }
  return createPool(o, onIdleError);
}

/** The URL without its password, for messages and logs. */
export function redacted(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the PostgreSQL database';
  }
}
