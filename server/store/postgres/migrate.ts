// Versioned migrations of the PostgreSQL schema: migrations/NNN_name.sql, each the twin of
// server/store/sqlite/migrations/NNN_name.sql (same number and name, same tables, keys and indexes in
// PostgreSQL's dialect), so a schema version means the same on both backends. A new SQLite
// migration gets its twin here with the same number (../migrations.test.ts holds the two lists equal).
// Applied in order at start, each in its own transaction, recorded in schema_migrations, all under
// one session advisory lock: replicas starting together wait for the first, which migrates, and
// then find nothing left to do. A database newer than this build refuses to start.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { listMigrations, type Migration } from '../migrations.ts';

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** The advisory lock key of gatehouse's migrations (any fixed number: one per schema owner). */
const MIGRATION_LOCK = 0x6761_7465; // "gate"

export const listPostgresMigrations = (): Migration[] => listMigrations(DIR);

/** The newest schema version this build knows. */
export const newestPostgresVersion = (): number => listPostgresMigrations().at(-1)?.version ?? 0;

/** Applies the migrations the database lacks, over `client` (a connection of its own: a migration
 *  file holds several statements). Returns how many ran. `inTransaction`: the caller has opened a
 *  transaction on `client` and the migrations become part of it (PostgreSQL's DDL is
 *  transactional), kept only if it commits; the lock is then held until it ends. */
export async function migratePostgres(client: pg.ClientBase, now = Date.now(), inTransaction = false): Promise<number> {
  await client.query(inTransaction ? 'SELECT pg_advisory_xact_lock($1)' : 'SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
  try {
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`);
    const applied = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
    const all = listPostgresMigrations();
    const newest = all.at(-1)?.version ?? 0;
    const maxApplied = Math.max(0, ...applied);
    if (maxApplied > newest) throw new Error(`database schema version ${maxApplied} is newer than this gatehouse (${newest})`);
    let count = 0;
    for (const m of all) {
      if (applied.has(m.version)) continue;
      // Each in a transaction of its own, unless inside the caller's.
      if (!inTransaction) await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [m.version, m.name, now]);
        if (!inTransaction) await client.query('COMMIT');
      } catch (e) {
        if (!inTransaction) await client.query('ROLLBACK').catch(() => {});
        throw new Error(`migration ${m.version}_${m.name} failed: ${(e as Error).message}`, { cause: e });
      }
      count++;
    }
    return count;
  } finally {
    if (!inTransaction) await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
  }
}
