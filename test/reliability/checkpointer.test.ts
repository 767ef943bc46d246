// WAL checkpoints run on the server's signature thread (server/store/sqlite/checkpointer.ts): committed
// pages reach the database file shortly after a write, long before SQLite's own automatic
// checkpoint would (1000 pages), and the server's connection only keeps a backstop. While the
// thread cannot checkpoint, the server goes back to SQLite's own checkpoints and says so, and takes
// the backstop again once it can.

import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { CryptoOffload } from '../../server/crypto/offload.ts';
import { createLogger } from '../../server/lib/log.ts';
import { sqliteConnectionOf } from '../../server/store/sqlite/backend.ts';
import { startCheckpointer } from '../../server/store/sqlite/checkpointer.ts';
import { openDatabase } from '../../server/store/sqlite/open.ts';
import { api } from '../helpers/http.ts';
import { startInProcess, tempDir } from '../helpers/server.ts';

/** Polls for a state the checkpointer's thread brings about, however long the machine takes. */
const until = async (ok: () => boolean) => {
  while (!ok()) await new Promise((r) => setTimeout(r, 25));
};

/** The users in the database file itself, its WAL left out: a copy of the file alone is opened
 *  (a copy taken mid-checkpoint may not open; it counts as none yet). */
function usersInFile(dbPath: string): number {
  const copy = join(tempDir(), 'file-only.db');
  copyFileSync(dbPath, copy);
  try {
    const db = new Database(copy);
    try {
      return (db.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return 0;
  }
}

test('writes reach the database file without waiting for a page-count checkpoint', async () => {
  const srv = await startInProcess();
  try {
    assert.equal(
      sqliteConnectionOf(srv.running.app.backend)!.pragma('wal_autocheckpoint', { simple: true }),
      10_000,
      'the server’s own checkpoint is only a backstop',
    );
    const admin = api(srv.http, srv.adminKey);
    assert.equal((await admin.post('/api/admin/realms', { id: 'ck', name: 'ck' })).status, 200);
    // 100 accounts: each commit appends its pages (the user, its audit record and event, their
    // indexes) to the WAL, a few hundred frames in all — far below the server's 10 000-page backstop.
    for (let i = 0; i < 100; i++) {
      const r = await admin.post('/api/admin/realms/ck/users', { email: `u${i}@example.com` });
      assert.equal(r.status, 200, r.text);
    }
    const wal = statSync(`${srv.dbPath}-wal`).size / 4120; // frames of a 4 KiB page + 24-byte header
    assert.ok(wal < 10_000, `the WAL holds ${wal} frames: the server's backstop may have checkpointed`);
    // The server's own checkpoint waits for 10 000 pages: only the checkpointer brings these rows
    // into the file.
    await until(() => usersInFile(srv.dbPath) === 100);
  } finally {
    await srv.stop();
  }
});

test('a checkpointer whose thread cannot open the database hands checkpoints back to the server, logs it, and takes them again once it can', async () => {
  const dir = tempDir();
  const db = openDatabase(join(dir, 'g.db'));
  const thread = new CryptoOffload();
  let logs = '';
  // The thread's path names a folder that does not exist yet.
  const elsewhere = join(dir, 'later', 'g.db');
  const cp = startCheckpointer(db, elsewhere, createLogger({ level: 'debug', write: (l) => (logs += l + '\n') }), thread);
  try {
    await until(() => db.pragma('wal_autocheckpoint', { simple: true }) === 1000);
    assert.match(logs, /checkpoints stopped on the signature thread; the server checkpoints the database itself/);
    assert.match(logs, /Cannot open database because the directory does not exist/, 'the log says why');
    mkdirSync(join(dir, 'later'));
    openDatabase(elsewhere).close();
    await until(() => db.pragma('wal_autocheckpoint', { simple: true }) === 10_000);
    assert.match(logs, /checkpoints are back on the signature thread/);
    assert.equal(logs.match(/checkpoints stopped/g)!.length, 1, 'said once while it lasted');
  } finally {
    await cp.stop();
    await thread.stopWorker();
    db.close();
  }
});

test('a server whose signature thread stops mid-run goes on, and its checkpoints come back with the next thread', async () => {
  const srv = await startInProcess();
  try {
    const db = sqliteConnectionOf(srv.running.app.backend)!;
    await srv.running.app.signatures.stopWorker();
    // The next checkpoint starts a fresh thread (a stopped one is not a failure to wait out), with
    // a connection of its own again; a checkpoint the stop caught in flight handed back until then.
    const admin = api(srv.http, srv.adminKey);
    assert.equal((await admin.post('/api/admin/realms', { id: 'ck2', name: 'ck2' })).status, 200);
    for (let i = 0; i < 5; i++) assert.equal((await admin.post('/api/admin/realms/ck2/users', { email: `v${i}@example.com` })).status, 200);
    await until(() => usersInFile(srv.dbPath) === 5);
    await until(() => db.pragma('wal_autocheckpoint', { simple: true }) === 10_000); // only the backstop again
  } finally {
    await srv.stop();
  }
});
