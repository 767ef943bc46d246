// Versioned migrations: migrations/NNN_name.sql, applied in order at start, each in its own
// transaction, recorded in schema_migrations. A database newer than this build refuses to start.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';
import { listMigrations, type Migration } from '../migrations.ts';

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** SQLite's migrations, in order. */
export const listSqliteMigrations = (): Migration[] => listMigrations(DIR);

export function migrate(db: Database.Database): number {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
  const applied = new Set((db.prepare('SELECT version FROM schema_migrations').all() as Array<{ version: number }>).map((r) => r.version));
  const all = listSqliteMigrations();
  const newest = all.length ? all[all.length - 1]!.version : 0;
  const maxApplied = Math.max(0, ...applied);
  if (maxApplied > newest) throw new Error(`database schema version ${maxApplied} is newer than this gatehouse (${newest})`);
  let count = 0;
  for (const m of all) {
    if (applied.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, Date.now());
    }).immediate();
    count++;
  }
  return count;
}
