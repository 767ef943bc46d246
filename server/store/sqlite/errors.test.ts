import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { GatehouseError } from '../../errors.ts';
import { httpStatusOf } from '../../rpc/status.ts';
import { sqliteError, withSqliteErrors } from './errors.ts';

describe("SQLite errors translated at the store's edge", () => {
  it('a write lock held past the busy timeout is a 503 to retry', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'gh-dberr-')), 'db.sqlite');
    const holder = new Database(path);
    const waiter = new Database(path);
    waiter.pragma('busy_timeout = 0');
    holder.exec('CREATE TABLE t (x); BEGIN IMMEDIATE');
    // A store's method over the waiting connection, as sqliteStores wraps each store.
    const store = withSqliteErrors({ insert: () => waiter.exec('INSERT INTO t VALUES (1)') });
    try {
      const err = (() => {
        try {
          store.insert();
        } catch (e) {
          return e as GatehouseError;
        }
        throw new Error('the insert did not wait for the lock');
      })();
      assert.ok(err instanceof GatehouseError);
      assert.equal(err.code, 'service_unavailable');
      assert.equal(httpStatusOf(err), 503);
      assert.equal(err.message, 'Database is busy, try again');
      assert.deepEqual(err.headers, { 'retry-after': '1' });
      assert.equal((err.cause as { code?: string }).code, 'SQLITE_BUSY');
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

  it('a rejected promise is translated too; our own errors and bugs pass through as they are', async () => {
    const ours = new GatehouseError('not_found', 'No such user');
    const bug = new TypeError('x is undefined');
    const store = withSqliteErrors({
      busy: async () => Promise.reject(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })),
      ours: async () => Promise.reject(ours),
      bug: () => {
        throw bug;
      },
      value: async () => 7,
    });
    await assert.rejects(store.busy(), (e: unknown) => e instanceof GatehouseError && e.code === 'service_unavailable');
    await assert.rejects(store.ours(), (e: unknown) => e === ours);
    assert.throws(
      () => store.bug(),
      (e: unknown) => e === bug,
    );
    assert.equal(await store.value(), 7);
  });

  it("without the store's translation, errors.ts knows no database: a busy error is a 500", () => {
    assert.equal(GatehouseError.from(Object.assign(new Error('busy'), { code: 'SQLITE_BUSY' })).code, 'internal_error');
  });
});
