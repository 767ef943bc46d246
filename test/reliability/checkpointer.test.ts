// WAL checkpoints run on the server's checkpointer thread (server/store/sqlite/checkpointer.ts): committed
// pages reach the database file shortly after a write, long before SQLite's own automatic
// checkpoint would (1000 pages), and the server's connection only keeps a backstop. If the thread
// cannot run, the server goes back to SQLite's own checkpoints and says so.

import assert from 'node:assert/strict';
import { copyFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
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

test('a checkpointer that cannot open the database hands checkpoints back to the server, and logs it', async () => {
  const dir = tempDir();
  const db = openDatabase(join(dir, 'g.db'));
  let logs = '';
  const cp = startCheckpointer(db, join(dir, 'missing', 'nowhere.db'), createLogger({ level: 'debug', write: (l) => (logs += l + '\n') }));
  try {
    await until(() => db.pragma('wal_autocheckpoint', { simple: true }) === 1000);
    assert.match(logs, /checkpointer thread stopped; the server checkpoints the database itself/);
  } finally {
    await cp.stop();
    db.close();
  }
});
