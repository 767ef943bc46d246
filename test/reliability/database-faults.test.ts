// A write lock held by another process past the busy timeout is a quick 503 — not a
// hang and not a partial write — reads keep working meanwhile; and `gatehouse backup` copies a
// running server's database online into a file another server can serve.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { runCli } from '../helpers/cli.ts';
import { api } from '../helpers/http.ts';
import { type SpawnedServer, spawnServer, tempDir } from '../helpers/server.ts';

describe('a database held by another process', () => {
  let srv: SpawnedServer;
  before(async () => {
    srv = await spawnServer({ args: ['--busy-timeout-ms', '300'] });
  });
  after(() => srv.stop());

  describe('database faults', () => {
    it('answers 503 when the busy timeout runs out while another process holds the write lock, and writes nothing', async () => {
      const h = api(srv.http, srv.adminKey);
      assert.equal((await h.post('/api/admin/realms', { id: 'before', name: 'Before' })).status, 200);
      const other = new Database(srv.dbPath);
      other.exec('BEGIN IMMEDIATE');
      try {
        // The lock is held until this test lets go: an answer can only come from the busy timeout.
        const res = await h.post('/api/admin/realms', { id: 'during', name: 'During' });
        assert.equal(res.status, 503, JSON.stringify(res.body));
        assert.equal(res.body.error, 'service_unavailable');
        assert.equal(res.headers.get('retry-after'), '1');
        // Readers are not blocked by a writer (WAL).
        const read = await h.get('/api/admin/realms');
        assert.equal(read.status, 200);
      } finally {
        other.exec('ROLLBACK');
        other.close();
      }
      const ids = (await h.get('/api/admin/realms')).body.realms.map((r: { id: string }) => r.id);
      assert.deepEqual(ids, ['before']);
      assert.equal((await h.post('/api/admin/realms', { id: 'after', name: 'After' })).status, 200);
    });

    it('backs up a running server online; a server on the copy shows the same data', async () => {
      const h = api(srv.http, srv.adminKey);
      // Writes keep landing while the backup runs.
      let writing = true;
      let n = 0;
      const writer = (async () => {
        while (writing) {
          await h.post('/api/admin/realms', { id: `w${n}`, name: `W${n}` });
          n++;
        }
      })();
      const out = join(tempDir(), 'copy.db');
      const res = await runCli(['backup', '--db', srv.dbPath, '--out', out, '--json']);
      writing = false;
      await writer;
      assert.equal(res.code, 0, res.stderr);
      const info = res.json();
      assert.equal(info.out, out);
      assert.ok(info.bytes > 0);
      const again = await runCli(['backup', '--db', srv.dbPath, '--out', out]);
      assert.equal(again.code, 2, 'an existing copy is not overwritten without --force');
      assert.match(again.stderr, /--force/);

      const copy = await spawnServer({ dbPath: out, dir: tempDir() });
      try {
        const copied = (await api(copy.http, copy.adminKey).get('/api/admin/realms')).body.realms.map((r: { id: string }) => r.id);
        assert.ok(copied.includes('before') && copied.includes('after'));
        const live = (await h.get('/api/admin/realms')).body.realms.map((r: { id: string }) => r.id);
        assert.ok(
          copied.every((id: string) => live.includes(id)),
          'the copy holds nothing the source never had',
        );
      } finally {
        await copy.stop();
      }
    });
  });
});
