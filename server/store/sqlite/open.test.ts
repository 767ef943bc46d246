// The page cache every connection keeps: SQLite's own size (CACHE_KIB), not the 16 000 KiB
// better-sqlite3 builds SQLite with (open.ts says why).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../../../test/helpers/server.ts';
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
