import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { objectRows } from './rows.ts';

const db = new Database(':memory:');
db.exec(`CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER, x REAL, b BLOB, note TEXT);
  INSERT INTO t VALUES ('a', 1, 1.5, x'0102', NULL), ('b', 2, NULL, NULL, 'it''s "quoted"')`);

test('objectRows gives the rows better-sqlite3 gives, key for key and in order', () => {
  for (const sql of ['SELECT * FROM t ORDER BY id', 'SELECT id AS "we""ird key", n + 1 AS "1st", note FROM t ORDER BY id']) {
    const own = db.prepare(sql).all();
    const built = objectRows(db.prepare(sql)).all();
    assert.deepEqual(built, own);
    assert.deepEqual(
      built.map((r) => Object.keys(r as object)),
      own.map((r) => Object.keys(r as object)),
    );
  }
});

test('objectRows: get answers undefined for no row, all an empty list, and a repeated name keeps its last column', () => {
  assert.equal(objectRows(db.prepare('SELECT * FROM t WHERE id = ?')).get('none'), undefined);
  assert.deepEqual(objectRows(db.prepare('SELECT * FROM t WHERE id = ?')).all('none'), []);
  const sql = 'SELECT 1 AS v, 2 AS v';
  assert.deepEqual(objectRows(db.prepare(sql)).get(), db.prepare(sql).get());
  assert.deepEqual(objectRows(db.prepare(sql)).get(), { v: 2 });
});

test('objectRows takes named parameters as the statement does', () => {
  const rows = objectRows(db.prepare('SELECT id FROM t WHERE n >= @min ORDER BY id'));
  assert.deepEqual(rows.all({ min: 2 }), [{ id: 'b' }]);
});
