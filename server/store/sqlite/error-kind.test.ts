import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { dbErrorKind } from './error-kind.ts';
import { sqliteError } from './errors.ts';

/** The error `fn` throws (real SQLite errors, not hand-made ones). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  assert.fail('expected an error');
}

describe('database error kinds', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-error-kind-'));

  it('a write lock held elsewhere past the busy timeout is busy, and answers 503 "busy"', () => {
    const path = join(dir, 'busy.db');
    const a = new Database(path);
    const b = new Database(path);
    a.pragma('journal_mode = WAL');
    b.pragma('busy_timeout = 0');
    a.exec('BEGIN IMMEDIATE');
    const e = thrown(() => b.exec('BEGIN IMMEDIATE'));
    a.exec('ROLLBACK');
    a.close();
    b.close();
    assert.equal(dbErrorKind(e), 'busy');
    assert.equal(sqliteError(e)?.message, 'Database is busy, try again');
    assert.equal(sqliteError(e)?.code, 'service_unavailable');
  });

  it('a closed connection and a file that is not a database are unavailable, and answer 503 "unavailable"', () => {
    const closed = new Database(':memory:');
    closed.close();
    const notOpen = thrown(() => closed.prepare('SELECT 1'));
    const junk = join(dir, 'junk.db');
    writeFileSync(junk, 'this is not a database file, just text that is long enough to have a header'.repeat(10));
    const notADb = thrown(() => new Database(junk).prepare('SELECT * FROM sqlite_master').all());
    for (const e of [notOpen, notADb]) {
      assert.equal(dbErrorKind(e), 'unavailable', String(e));
      assert.equal(sqliteError(e)?.message, 'Database unavailable');
      assert.equal(sqliteError(e)?.code, 'service_unavailable');
    }
  });

  it('other SQLite errors are other (still a 500: a bug, not an outage); anything else is not a database error', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (id TEXT PRIMARY KEY)');
    db.exec("INSERT INTO t VALUES ('a')");
    const constraint = thrown(() => db.exec("INSERT INTO t VALUES ('a')"));
    db.close();
    assert.equal(dbErrorKind(constraint), 'other');
    assert.equal(sqliteError(constraint), null, 'the translator leaves it to be a 500');
    assert.equal(dbErrorKind(new Error('boom')), null);
    assert.equal(dbErrorKind(new TypeError('x is not a function')), null);
    assert.equal(dbErrorKind(undefined), null);
    assert.equal(dbErrorKind(Object.assign(new Error('no such file'), { code: 'ENOENT' })), null);
    rmSync(dir, { recursive: true, force: true });
  });
});
