import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { GatehouseError } from '../../errors.ts';
import { httpStatusOf } from '../../rpc/status.ts';
import { sqliteError } from './errors.ts';

describe("SQLite errors translated at the store's edge", () => {
  it('a write lock held past the busy timeout is a 503 to retry', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'gh-dberr-')), 'db.sqlite');
    const holder = new Database(path);
    const waiter = new Database(path);
    waiter.pragma('busy_timeout = 0');
    holder.exec('CREATE TABLE t (x); BEGIN IMMEDIATE');
    try {
      const thrown = (() => {
        try {
          waiter.exec('INSERT INTO t VALUES (1)');
        } catch (e) {
          return e;
        }
        throw new Error('the insert did not wait for the lock');
      })();
      const err = GatehouseError.from(thrown, sqliteError);
      assert.equal(err.code, 'service_unavailable');
      assert.equal(httpStatusOf(err), 503);
      assert.equal(err.message, 'Database is busy, try again');
      assert.deepEqual(err.headers, { 'retry-after': '1' });
      assert.equal(err.cause, thrown);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
      waiter.close();
    }
  });

  const table: Array<[string, unknown, string | null]> = [
    ['busy', Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }), 'service_unavailable'],
    ['locked (a table lock)', Object.assign(new Error('database table is locked'), { code: 'SQLITE_LOCKED' }), 'service_unavailable'],
    ['a constraint failure is a bug of ours', Object.assign(new Error('UNIQUE constraint failed'), { code: 'SQLITE_CONSTRAINT_UNIQUE' }), null],
    ["anything else is not the database's to explain", new TypeError('x is undefined'), null],
    ['nor is a thrown non-error', null, null],
  ];
  for (const [name, err, want] of table) it(`${name} → ${want ?? 'not translated (500)'}`, () => assert.equal(sqliteError(err)?.code ?? null, want));

  it("without the store's translation, errors.ts knows no database: a busy error is a 500", () => {
    assert.equal(GatehouseError.from(Object.assign(new Error('busy'), { code: 'SQLITE_BUSY' })).code, 'internal_error');
  });
});
