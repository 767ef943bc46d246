// @ts-check
// The checkpointer thread (checkpointer.ts starts it): its own connection to the database file,
// copying committed WAL frames into the database every EVERY_MS (checkpointer.ts). PASSIVE never waits for
// and never blocks the server's writer or readers. Plain JavaScript, so the thread runs without
// tsx's loader (~25 MiB a thread).
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { path, everyMs } = /** @type {{ path: string, everyMs: number }} */ (workerData);
const db = new Database(path, { fileMustExist: true });
db.pragma('busy_timeout = 0');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');

const timer = setInterval(() => {
  try {
    checkpoint.get();
  } catch {
    // SQLITE_BUSY and the like: the next tick tries again; the server's own backstop bounds the WAL.
  }
}, everyMs);

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
port.on('message', (/** @type {unknown} */ m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  db.close();
  port.close();
});
