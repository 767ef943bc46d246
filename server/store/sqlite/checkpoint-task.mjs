// @ts-check
// The WAL checkpoint as a task of the server's signature thread (checkpointer.ts sends it every
// EVERY_MS; lib/thread-tasks.ts): a connection of its own to the database file, kept open between
// checkpoints, copying committed WAL frames into the database. PASSIVE never waits for and never
// blocks the server's writer or readers. Plain JavaScript: the thread runs without tsx's loader.
import Database from 'better-sqlite3';

/** @type {Map<string, { db: import('better-sqlite3').Database, checkpoint: import('better-sqlite3').Statement }>} */
const open = new Map();

/** One PASSIVE checkpoint of the database at `path`, opening the connection on the first. Throws
 *  only when the database cannot be opened; a checkpoint that fails (SQLITE_BUSY and the like) is
 *  tried again next time, and the server's own backstop bounds the WAL meanwhile. */
export function checkpoint(/** @type {string} */ path) {
  let c = open.get(path);
  if (!c) {
    const db = new Database(path, { fileMustExist: true });
    db.pragma('busy_timeout = 0');
    c = { db, checkpoint: db.prepare('PRAGMA wal_checkpoint(PASSIVE)') };
    open.set(path, c);
  }
  try {
    c.checkpoint.get();
  } catch {
    // as above: the next one tries again
  }
}

/** Closes the connection to `path`, before the server closes its own (the last connection to close
 *  checkpoints the rest and removes the WAL). */
export function close(/** @type {string} */ path) {
  open.get(path)?.db.close();
  open.delete(path);
}
