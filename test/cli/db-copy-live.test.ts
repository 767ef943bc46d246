// gatehouse db copy at its edges, the real CLI over real databases: a SQLite source a real server
// keeps writing to (consumes in a loop) is copied from one consistent snapshot, and the copy
// finishes and checks out; a copy killed outright (SIGKILL) leaves no target, and what it left in
// the temporary folder and beside the target the next copy removes; a copy into a new PostgreSQL
// database killed while it writes leaves that database as it was, not even migrated; the
// same-database guard sees through a symbolic link and through two names of one PostgreSQL server.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, symlinkSync, watch } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { runCli } from '../helpers/cli.ts';
import { api } from '../helpers/http.ts';
import { adminQuery, freshDatabase, postgresUnavailable, type TestDatabase, testPostgres } from '../helpers/postgres.ts';
import { BIN, type InProcessServer, ROOT, startInProcess, tempDir } from '../helpers/server.ts';
import { createRealm, createUser } from '../points/helpers.ts';

const REALM = 'live';
// Enough pages that SQLite's online backup, 4 096 pages a step, takes several steps: with a server
// writing between them it started over, and never finished.
const FILLER_REALMS = 10_000;
const FILLER_BYTES = 4000;

/** Resolves once `ready()` holds, asking again whenever something changes in `folders`; rejects if
 *  `ended` (the process expected to make it hold) settles first. */
async function whenTrue(ready: () => boolean, folders: string[], ended: Promise<unknown>): Promise<void> {
  let changed: () => void = () => {};
  const watchers = folders.map((f) => watch(f, () => changed()));
  let over = false;
  void ended.then(() => ((over = true), changed()));
  try {
    // Watching began before the first look: no change between the two is missed.
    while (!ready()) {
      if (over) throw new Error('the process ended before the state was reached');
      await new Promise<void>((r) => (changed = r));
    }
  } finally {
    for (const w of watchers) w.close();
  }
}

describe('gatehouse db copy at its edges', () => {
  const dir = tempDir();
  const sourceDb = join(dir, 'source.db');
  /** The copies' own temporary folder (TMPDIR), so what they leave there is theirs alone. */
  const tmp = join(dir, 'tmp');
  let srv: InProcessServer;
  let userId: string;
  const copy = (args: string[]) => runCli(['db', 'copy', ...args], { env: { TMPDIR: tmp } });

  before(async () => {
    mkdirSync(tmp);
    srv = await startInProcess({ dbPath: sourceDb, dir });
    const h = api(srv.http, srv.adminKey);
    await createRealm(h, REALM);
    userId = await createUser(h, REALM, 'busy@example.com');
    const grant = await h.post(`/api/points/${REALM}/users/${userId}/grants`, { kind: 'topup_credit', amount: 1_000_000 });
    assert.equal(grant.status, 200, grant.text);
    // Rows enough for many pages, written beside the running server as any writer would.
    const db = new Database(sourceDb);
    db.pragma('busy_timeout = 10000');
    const insert = db.prepare('INSERT INTO realms (id, name, created_at) VALUES (?, ?, ?)');
    db.transaction(() => {
      for (let i = 0; i < FILLER_REALMS; i++) insert.run(`filler-${i}`, `${i}`.padEnd(FILLER_BYTES, 'x'), Date.now());
    })();
    db.close();
  });
  after(async () => {
    await srv.stop();
  });

  it('copies a SQLite database a server is consuming from in a loop: the copy finishes and checks out', async () => {
    const h = api(srv.http, srv.adminKey);
    let writing = true;
    let consumed = 0;
    // Several callers at once: a write lands between any two steps of a page-by-page copy.
    const loop = Promise.all(
      Array.from({ length: 6 }, async () => {
        while (writing) {
          const r = await h.post(`/api/points/${REALM}/consume`, { userId, amount: 1 });
          assert.equal(r.status, 200, r.text);
          consumed++;
        }
      }),
    );
    try {
      const before = consumed;
      const r = await copy(['--from', sourceDb, '--to', join(dir, 'copy-live.db'), '--json']);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(consumed > before, 'the server consumed while the copy ran');
      const report = r.json();
      assert.equal(report.tables.find((t: { name: string }) => t.name === 'realms').rows, FILLER_REALMS + 1);
      assert.ok(report.usersChecked >= 1);
    } finally {
      writing = false;
      await loop;
    }
    const copied = new Database(join(dir, 'copy-live.db'), { readonly: true });
    try {
      assert.equal(copied.pragma('integrity_check', { simple: true }), 'ok');
      assert.equal(copied.prepare('SELECT count(*) FROM users WHERE id = ?').pluck().get(userId), 1);
    } finally {
      copied.close();
    }
  });

  it('leaves no target after a SIGKILL, and the next copy removes what the killed one left', async () => {
    const target = join(dir, 'killed.db');
    const proc = spawn(process.execPath, [BIN, 'db', 'copy', '--from', sourceDb, '--to', target, '--batch-rows', '10'], {
      cwd: ROOT,
      env: { ...process.env, TMPDIR: tmp },
      stdio: 'ignore',
    });
    const exited = once(proc, 'exit');
    const pid = proc.pid!;
    const building = `.killed.db.copy-${pid}`;
    // Killed once both exist: its snapshot in the temporary folder and the target it builds.
    await whenTrue(() => readdirSync(tmp).some((n) => n.startsWith(`gatehouse-copy-${pid}-`)) && readdirSync(dir).includes(building), [tmp, dir], exited);
    assert.equal(proc.exitCode, null, 'the copy was still running when it was to be killed');
    proc.kill('SIGKILL');
    await exited;
    assert.ok(!existsSync(target), 'no target at its path');

    const next = await copy(['--from', sourceDb, '--to', target]);
    assert.equal(next.code, 0, next.stderr);
    assert.ok(existsSync(target));
    assert.deepEqual(
      readdirSync(tmp).filter((n) => n.startsWith('gatehouse-copy-')),
      [],
      'no snapshot left in the temporary folder',
    );
    assert.deepEqual(
      readdirSync(dir).filter((n) => n.includes('.copy-')),
      [],
      'no half-built target left beside it',
    );
  });

  it('refuses to copy a file onto itself through a symbolic link, to the file or to its folder', async () => {
    const link = join(dir, 'link.db');
    symlinkSync(sourceDb, link);
    const linkedFolder = join(tempDir(), 'folder');
    symlinkSync(dir, linkedFolder);
    for (const to of [link, join(linkedFolder, 'source.db')]) {
      const r = await copy(['--from', sourceDb, '--to', to]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /--from and --to name the same database/);
    }
  });

  describe('on PostgreSQL', { skip: postgresUnavailable() ?? undefined }, () => {
    let aliasDb: TestDatabase;
    before(async () => {
      aliasDb = await freshDatabase('alias');
    });
    after(async () => {
      await aliasDb?.drop();
    });

    it('leaves a new PostgreSQL target untouched, not even migrated, when the copy into it is killed while writing, and the next copy fills it', async () => {
      const target = await freshDatabase('killed');
      try {
        const proc = spawn(process.execPath, [BIN, 'db', 'copy', '--from', sourceDb, '--to', target.url, '--batch-rows', '10'], {
          cwd: ROOT,
          env: { ...process.env, TMPDIR: tmp },
          stdio: 'ignore',
        });
        const exited = once(proc, 'exit');
        const server = await testPostgres();
        // Killed once the target's backend has run an INSERT of the copy: rows are being written
        // into the tables its migrations created, in the copy's one transaction.
        const writing = `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'INSERT INTO %'`;
        while ((await adminQuery(server, writing, [target.name])).rows[0].n === 0) {
          assert.equal(proc.exitCode, null, 'the copy was still running when it was to be killed');
        }
        assert.equal(proc.exitCode, null, 'the copy was still running when it was to be killed');
        proc.kill('SIGKILL');
        await exited;

        const schema = async () => {
          const c = new pg.Client({ connectionString: target.url });
          await c.connect();
          try {
            const r = await c.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1");
            return r.rows.map((row) => row.name);
          } finally {
            await c.end();
          }
        };
        assert.deepEqual(await schema(), [], 'no table (not even schema_migrations) in the target');

        const next = await copy(['--from', sourceDb, '--to', target.url, '--json']);
        assert.equal(next.code, 0, next.stderr);
        assert.equal(next.json().tables.find((t: { name: string }) => t.name === 'realms').rows, FILLER_REALMS + 1);
        assert.ok((await schema()).includes('schema_migrations'), 'the copy that committed migrated it');
      } finally {
        await target.drop();
      }
    });

    it('refuses to copy a database onto itself named through another address of its server (localhost and 127.0.0.1)', async () => {
      const server = await testPostgres();
      assert.ok(server.port !== null || aliasDb.url.includes('127.0.0.1'), 'the test server is reached as 127.0.0.1');
      const aliased = new URL(aliasDb.url);
      aliased.hostname = 'localhost';
      const fill = await copy(['--from', sourceDb, '--to', aliasDb.url]);
      assert.equal(fill.code, 0, fill.stderr);
      const r = await copy(['--from', aliasDb.url, '--to', aliased.toString(), '--force']);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /--from and --to name the same database/);
      // Another database of the same server is not the same database.
      const other = await freshDatabase('alias_other');
      try {
        const ok = await copy(['--from', aliasDb.url, '--to', new URL(other.url.replace('127.0.0.1', 'localhost')).toString()]);
        assert.equal(ok.code, 0, ok.stderr);
      } finally {
        await other.drop();
      }
    });
  });
});
