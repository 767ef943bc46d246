// The database a server serves, read (and seeded) by a test straight through its own driver, for
// what no API shows: rows left behind.
import Database from 'better-sqlite3';
import { createClient } from '../../server/store/postgres/connect.ts';
import { testPostgresOptions } from './postgres.ts';
import type { TestBackend } from './server.ts';

/** The database a server serves, as a test reads and seeds it ($1… placeholders, one use each). */
export interface RawDb {
  exec(sql: string): Promise<void>;
  count(sql: string, values: unknown[]): Promise<number>;
  close(): Promise<void>;
}

export async function rawDb(dbPath: string, backend: TestBackend): Promise<RawDb> {
  if (backend === 'postgres') {
    const client = createClient(testPostgresOptions(dbPath));
    await client.connect();
    return {
      exec: async (sql) => void (await client.query(sql)),
      count: async (sql, values) => Number(Object.values((await client.query(sql, values)).rows[0] as object)[0]),
      close: () => client.end(),
    };
  }
  const db = new Database(dbPath);
  db.pragma('busy_timeout = 10000');
  return {
    exec: async (sql) => void db.exec(sql),
    count: async (sql, values) =>
      Number(
        db
          .prepare(sql.replace(/\$\d+/g, '?'))
          .pluck()
          .get(...values),
      ),
    close: async () => void db.close(),
  };
}
