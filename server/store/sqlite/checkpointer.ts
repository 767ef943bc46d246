// WAL checkpoints off the event loop. SQLite's automatic checkpoint runs inside the COMMIT that
// crosses wal_autocheckpoint pages: on the event loop, it copies ~1000 pages into the database
// file and waits for two fsyncs, and every request in flight waits with it (measured on the bench
// machine: ~15–25 µs of event-loop time per login, and stalls of milliseconds).
//
// Here the server's signature thread, with a connection of its own, checkpoints (PASSIVE) every
// EVERY_MS (checkpoint-task.mjs, lib/thread-tasks.ts), and the server's connection keeps SQLite's
// automatic checkpoint only as a backstop at BACKSTOP_PAGES: the WAL can restart only at a moment
// when every frame has been copied, which a checkpointer racing a busy writer may not see for a
// while; the backstop copies what is left itself and so bounds the WAL (~40 MiB). While the thread
// cannot checkpoint (it could not start, it stopped, the database would not open there), the
// server's connection goes back to SQLite's default (1000 pages): checkpoints then cost what they
// cost before, nothing is lost; the backstop returns with the thread's next checkpoint.

import type { Logger } from '../../lib/log.ts';
import type { ThreadTasks } from '../../lib/thread-tasks.ts';
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
 *  checkpoints of a `serve --workers N`): it keeps only the backstop. */
export function leaveCheckpointsToAnother(db: Db): void {
  db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
}

export interface Checkpointer {
  /** Stops the checkpoints and closes the thread's connection (before the server closes its own). */
  stop(): Promise<void>;
}

const TASK = new URL('./checkpoint-task.mjs', import.meta.url);

export function startCheckpointer(db: Db, path: string, log: Logger, thread: ThreadTasks): Checkpointer {
  let stopping = false;
  let onThread = true;
  let running: Promise<void> | null = null;
  const handBack = (why: string) => {
    if (stopping || !onThread || !db.open) return; // said once, until the thread is back
    onThread = false;
    db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
    log.error('checkpoints stopped on the signature thread; the server checkpoints the database itself', { reason: why });
  };
  const takeBack = () => {
    if (stopping || onThread || !db.open) return;
    onThread = true;
    db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    log.info('checkpoints are back on the signature thread');
  };
  const tick = () => {
    if (running || stopping) return; // one at a time: a slow one is not queued behind
    const p = thread.runTask(TASK, 'checkpoint', path);
    if (!p) return handBack('no thread is running');
    running = p.then(takeBack, (e: Error) => handBack(e.message)).finally(() => (running = null));
  };
  // A server's listeners keep the process alive, not this.
  const timer = setInterval(tick, EVERY_MS).unref();
  db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  return {
    async stop() {
      if (stopping) return;
      stopping = true;
      clearInterval(timer);
      await running;
      // The thread's connection closes first: the server's, closed last, checkpoints what is left.
      await thread.runTask(TASK, 'close', path)?.catch(() => {});
      if (db.open) db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
    },
  };
}
