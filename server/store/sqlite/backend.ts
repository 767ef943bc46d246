// The SQLite backend: the stores over one connection, its readiness probe, its group commit paced
// by the server, and its WAL checkpoints.
import type { SecretBox } from '../../crypto/secrets.ts';
import type { StorageBackend } from '../backend.ts';
import { leaveCheckpointsToAnother, startCheckpointer } from './checkpointer.ts';
import { dbErrorKind } from './error-kind.ts';
import { observeBatches, waitForAnswers } from './group-commit.ts';
import { type Db, type OpenOptions, openDatabase } from './open.ts';
import { databaseReadiness } from './readiness.ts';
import { sqliteStores } from './stores.ts';

const connections = new WeakMap<StorageBackend, Db>();

/** `secrets` seals what the stores keep secret (crypto/secrets.ts; secrets-key.ts loads it). */
function sqliteBackend(db: Db, secrets: SecretBox): StorageBackend {
  const ready = databaseReadiness(db);
  const backend: StorageBackend = {
    stores: sqliteStores(db, secrets),
    errorKind: dbErrorKind,
    ready: async () => ready(),
    paceWrites(answers, onBatch) {
      if (onBatch) observeBatches(db, onBatch);
      waitForAnswers(db, answers);
    },
    startMaintenance(log, own, thread) {
      // An in-memory database has no file to checkpoint.
      if (db.memory) return { stop: async () => {} };
      if (!own) {
        leaveCheckpointsToAnother(db);
        return { stop: async () => {} };
      }
      return startCheckpointer(db, db.name, log, thread);
    },
    close: async () => {
      if (db.open) db.close();
    },
  };
  connections.set(backend, db);
  return backend;
}

/** Opens (creating and migrating) the database file at `path`, or an in-memory one. */
export function openSqliteBackend(path: string, opts: OpenOptions, secrets: SecretBox): StorageBackend {
  return sqliteBackend(openDatabase(path, opts), secrets);
}

/** The connection under a SQLite backend, null for another: for the tests that look at what the
 *  server's own connection holds. */
export function sqliteConnectionOf(backend: StorageBackend): Db | null {
  return connections.get(backend) ?? null;
}
