// What a server runs on, whichever database `--db` names: the interface each backend fills
// (sqlite/backend.ts, postgres/backend.ts) and the composition root opens (server/backend.ts).
// What only one database has (SQLite's group commit and WAL checkpoints) is an optional hook here,
// so nothing above the backends names a database.
import type { GatehouseError } from '../errors.ts';
import type { AnswerTurns } from '../lib/answer-turns.ts';
import type { Logger } from '../lib/log.ts';
import type { DbErrorClassifier } from '../lib/metrics.ts';
import type { ThreadTasks } from '../lib/thread-tasks.ts';
import type { Stores } from '../stores.ts';

export interface StorageBackend {
  /** The stores; each hands back our error for one of its database's that is not a bug (busy,
   *  unreachable → 503, with the database's as the cause) and lets the rest through (a bug: 500). */
  stores: Stores;
  /** Which kind of database failure an error is (for the metrics). */
  errorKind: DbErrorClassifier;
  /** null when the database can serve; else the 503 /readyz answers. */
  ready(): Promise<GatehouseError | null>;
  /** Paces the database's write batches by the server: they wait out the turns the gRPC server
   *  answers in, and each one's size is told to `onBatch` (SQLite's group commit; PostgreSQL
   *  batches nothing). */
  paceWrites?(answers: AnswerTurns, onBatch: ((units: number) => void) | null): void;
  /** Starts what keeps the database in shape while a server runs on it (SQLite's WAL checkpoints,
   *  as tasks of `thread`); `own` false: another process does it (a cluster worker's primary). */
  startMaintenance?(log: Logger, own: boolean, thread: ThreadTasks): Maintenance;
  close(): Promise<void>;
}

export interface Maintenance {
  stop(): Promise<void>;
}
