// Whether the database can do its work (GET /readyz): the connection is open, the file it opened is
// still the one at its path, the schema is this build's, and the write lock can be taken. A removed
// or replaced file keeps answering through the open descriptor while every write lands in a file
// nobody will open again, so the path is checked too.
import { statSync } from 'node:fs';
import { GatehouseError } from '../../errors.ts';
import { listSqliteMigrations } from './migrate.ts';
import type { Db } from './open.ts';

/** The longest the probe waits for the write lock: an answer within a usual probe timeout (1 s)
 *  even while another process holds the lock. */
const PROBE_BUSY_MS = 250;

/** A check to run per probe: null when the database is ready, else the 503 to answer. */
export function databaseReadiness(db: Db): () => GatehouseError | null {
  const newest = listSqliteMigrations().at(-1)?.version ?? 0;
  const opened = db.memory ? null : identity(db.name);
  return () => {
    try {
      if (opened) {
        const now = identity(db.name);
        if (now.dev !== opened.dev || now.ino !== opened.ino) throw new Error(`${db.name} was replaced after it was opened`);
      }
      const version = db.prepare('SELECT max(version) FROM schema_migrations').pluck().get();
      if (version !== newest) throw new Error(`schema version ${String(version)}, this build's is ${newest}`);
      // No transaction stays open between turns (group-commit.ts): one left open blocks every write.
      if (db.inTransaction) throw new Error('a transaction was left open on the connection');
      probeWriteLock(db);
      return null;
    } catch (e) {
      return new GatehouseError('service_unavailable', 'Database unavailable', { cause: e, headers: { 'retry-after': '1' } });
    }
  };
}

function identity(path: string): { dev: number; ino: number } {
  const s = statSync(path);
  return { dev: s.dev, ino: s.ino };
}

/** Takes and releases the write lock with a short busy timeout, then restores the connection's. */
function probeWriteLock(db: Db): void {
  const saved = Number(db.pragma('busy_timeout', { simple: true }));
  db.pragma(`busy_timeout = ${Math.min(saved, PROBE_BUSY_MS)}`);
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
  } finally {
    db.pragma(`busy_timeout = ${saved}`);
  }
}
