// WAL checkpoints on a thread of their own. SQLite's automatic checkpoint runs inside the
// COMMIT that crosses wal_autocheckpoint pages: on the event loop, it copies ~1000 pages into the
// database file and waits for two fsyncs, and every request in flight waits with it (measured on
// the bench machine: ~15–25 µs of event-loop time per login, and stalls of milliseconds).
//
// Here a worker thread with its own connection checkpoints (PASSIVE) every EVERY_MS, and the
// server's connection keeps SQLite's automatic checkpoint only as a backstop at BACKSTOP_PAGES: the
// WAL can restart only at a moment when every frame has been copied, which a checkpointer racing a
// busy writer may not see for a while; the backstop copies what is left itself and so bounds the
// WAL (~40 MiB). If the worker cannot start or stops, the server's connection goes back to
// SQLite's default (1000 pages): checkpoints then cost what they cost before, nothing is lost.

import { Worker } from 'node:worker_threads';
import type { Logger } from '../../lib/log.ts';
import { threadExecArgv } from '../../lib/thread-argv.ts';
import type { Db } from './open.ts';

// A checkpoint copies each page the WAL holds once, however many commits rewrote it since the last:
// the pages every login or consume writes again (the newest leaves of time-ordered indexes, a
// user's ledger and history) are copied less often the longer the interval. Measured on the bench
// machine: the thread's CPU per login 25–28 µs at 20 ms → 12–15 µs at 100 ms; at 500 ms its share
// of a consume bench's profile fell from 1.9% to 0.4% (the server's CPU per consume over gRPC, all
// threads, moved by −17 to 0 µs in three runs, within a shared machine's noise). The
// WAL holds half a second of commits more (a few MiB at thousands of consumes a second, well under
// BACKSTOP_PAGES); durability does not change (a commit is durable in the WAL).
const EVERY_MS = 500;
const BACKSTOP_PAGES = 10_000;
const SQLITE_DEFAULT_PAGES = 1000;

/** For a connection whose database another process checkpoints (the cluster's primary runs the
 *  one checkpointer thread of a `serve --workers N`): it keeps only the backstop. */
export function leaveCheckpointsToAnother(db: Db): void {
  db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
}

export interface Checkpointer {
  /** Stops the thread and closes its connection (before the server closes its own). */
  stop(): Promise<void>;
}

export function startCheckpointer(db: Db, path: string, log: Logger): Checkpointer {
  let stopping = false;
  let fellBack = false;
  const fallBack = (why: string) => {
    if (stopping || fellBack || !db.open) return; // 'error' is followed by 'exit': say it once
    fellBack = true;
    db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
    log.error('checkpointer thread stopped; the server checkpoints the database itself', { reason: why });
  };
  const w = new Worker(new URL('./checkpoint-worker.mjs', import.meta.url), {
    workerData: { path, everyMs: EVERY_MS },
    execArgv: threadExecArgv(), // plain JavaScript: no tsx in the thread, even under `node --import tsx`
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 }, // it allocates next to nothing
  });
  const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
  w.on('error', (e) => fallBack(e.message));
  w.on('exit', (code) => fallBack(`exit ${code}`));
  w.unref(); // a server's listeners keep the process alive, not this
  db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  return {
    async stop() {
      if (stopping) return;
      stopping = true;
      w.ref();
      w.postMessage('stop');
      await exited;
      if (db.open) db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
    },
  };
}
