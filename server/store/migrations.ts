// Versioned migrations, one folder of them per backend (sqlite/migrations/, postgres/migrations/):
// NNN_name.sql, the same numbers and names on both (migrations.test.ts), so a schema version means
// the same on either. Each backend applies its own (sqlite/migrate.ts, postgres/migrate.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The migrations in `dir`, in order: NNN_name.sql, each number once. */
export function listMigrations(dir: string): Migration[] {
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
