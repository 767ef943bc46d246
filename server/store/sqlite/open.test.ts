// The page cache every connection keeps: SQLite's own size (CACHE_KIB), not the 16 000 KiB
// better-sqlite3 builds SQLite with; SQLite's temporary files in the database's folder (open.ts
// says why).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT, tempDir } from '../../../test/helpers/server.ts';
import { CACHE_KIB, openDatabase } from './open.ts';

test('a connection, read-write or read-only, keeps a page cache of CACHE_KIB', () => {
  const path = join(tempDir(), 'g.db');
  for (const opts of [{}, { readonly: true }]) {
    const db = openDatabase(path, opts);
    try {
      assert.equal(db.pragma('cache_size', { simple: true }), -CACHE_KIB, JSON.stringify(opts));
    } finally {
      db.close();
    }
  }
});

test("SQLite's temporary files go in the database's folder, whatever TMPDIR says, unless SQLITE_TMPDIR names one", async () => {
  // A fresh process each (SQLite reads its temporary folder once per process): a savepoint journal
  // past 64 KiB goes to a temporary file, which /proc shows while the transaction is open.
  const script = `import { readdirSync, readlinkSync } from 'node:fs';
import { openDatabase } from ${JSON.stringify(new URL('./open.ts', import.meta.url).href)};
const db = openDatabase(process.argv[1]);
db.exec('CREATE TABLE spill (id INTEGER PRIMARY KEY, v TEXT)');
const insert = db.prepare('INSERT INTO spill (v) VALUES (?)');
db.transaction(() => { for (let i = 0; i < 20000; i++) insert.run('x'.repeat(100)); })();
db.exec('BEGIN IMMEDIATE');
db.exec('SAVEPOINT unit');
db.exec("UPDATE spill SET v = 'y' || v");
const temp = readdirSync('/proc/self/fd').map((fd) => { try { return readlinkSync('/proc/self/fd/' + fd); } catch { return ''; } }).filter((l) => l.includes('etilqs_'));
db.exec('RELEASE unit');
db.exec('COMMIT');
process.stdout.write(JSON.stringify(temp));`;
  const tempFiles = (dir: string, env: Record<string, string>) =>
    new Promise<string[]>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script, join(dir, 'g.db')],
        { env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/', ...env }, cwd: ROOT },
        (err, stdout, stderr) => (err ? reject(new Error(stderr || String(err))) : resolve(JSON.parse(stdout) as string[])),
      ),
    );
  const other = tempDir();
  for (const env of [{}, { TMPDIR: other }] as Record<string, string>[]) {
    const dir = tempDir();
    const temp = await tempFiles(dir, env);
    assert.ok(temp.length > 0, 'the journal went to a temporary file');
    for (const file of temp) assert.ok(file.startsWith(`${dir}/etilqs_`), `${JSON.stringify(env)}: ${file}`);
  }
  const named = await tempFiles(tempDir(), { SQLITE_TMPDIR: other });
  assert.ok(named.length > 0 && named.every((f) => f.startsWith(`${other}/etilqs_`)), named.join());
});
