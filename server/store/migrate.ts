// Versioned migrations: migrations/NNN_name.sql, applied in order at start, each in its own
// transaction, recorded in schema_migrations. A database newer than this build refuses to start.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The migrations in `dir` (SQLite's by default), in order: NNN_name.sql, each number once. */
export function listMigrations(dir = DIR): Migration[] {
  const seen = new Set<number>();
  return readdirSync(dir)
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => {
      const version = Number(f.slice(0, 3));
      if (seen.has(version)) throw new Error(`two migrations numbered ${version}`);
      seen.add(version);
      return { version, name: f.slice(4, -4), sql: readFileSync(join(dir, f), 'utf8') };
    });
}

export function migrate(db: Database.Database): number {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
  const applied = new Set((db.prepare('SELECT version FROM schema_migrations').all() as Array<{ version: number }>).map((r) => r.version));
  const all = listMigrations();
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
