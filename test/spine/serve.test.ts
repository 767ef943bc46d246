// `gatehouse serve` — the ready line, env twins, port 0, clear start-up errors, and a
// graceful SIGTERM that exits 0 with the database intact.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { api, requestInFlight } from '../helpers/http.ts';
import { BIN, bootstrapKey, ROOT, spawnServer, tempDir } from '../helpers/server.ts';
import { databaseIntegrity, withStores } from '../helpers/stores.ts';

describe('gatehouse serve', () => {
  it('prints exactly one ready line with the bound addresses, taking its settings from env twins', async () => {
    const dir = tempDir();
    const db = join(dir, 'env.db');
    const key = await bootstrapKey(db);
    const proc = spawn(process.execPath, [BIN, 'serve'], {
      cwd: ROOT,
      env: { ...process.env, GATEHOUSE_DB: db, GATEHOUSE_GRPC_ADDR: '127.0.0.1:0', GATEHOUSE_HTTP_ADDR: '127.0.0.1:0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    const rl = createInterface({ input: proc.stdout! });
    const first = await new Promise<string>((resolve) => rl.once('line', resolve));
    rl.on('line', (l) => lines.push(l));
    const ready = JSON.parse(first);
    assert.deepEqual(Object.keys(ready), ['event', 'grpc', 'http']);
    assert.equal(ready.event, 'ready');
    assert.match(ready.grpc, /^127\.0\.0\.1:\d+$/);
    assert.match(ready.http, /^127\.0\.0\.1:\d+$/);
    assert.notEqual(ready.http, '127.0.0.1:0');
    const res = await api(`http://${ready.http}`, key).get('/api/admin/realms');
    assert.equal(res.status, 200);
    const code = await new Promise<number | null>((resolve) => {
      proc.once('exit', (c) => resolve(c));
      proc.kill('SIGTERM');
    });
    assert.equal(code, 0);
    assert.deepEqual(lines, [], 'nothing but the ready line on stdout');
  });

  it('exits 0 on SIGTERM and SIGINT with every acknowledged write in an intact database', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const srv = await spawnServer({ dir: tempDir() });
      const h = api(srv.http, srv.adminKey);
      for (let i = 0; i < 20; i++) assert.equal((await h.post('/api/admin/realms', { id: `r${i}`, name: `Realm ${i}` })).status, 200);
      // A burst the server has received when the signal arrives is finished, not cut off.
      const late = Array.from({ length: 10 }, (_, i) => `late${i}`);
      const inflight = late.map((id) => requestInFlight(srv.http, 'POST', '/api/admin/realms', { body: { id, name: 'late' }, key: srv.adminKey }));
      await Promise.all(inflight.map((r) => r.received));
      const code = await srv.kill(signal);
      assert.equal(code, 0, srv.logs());
      const answers = await Promise.all(inflight.map((r) => r.answer));
      assert.deepEqual(
        answers.map((a) => a.status),
        late.map(() => 200),
        'every request in flight is answered',
      );
      assert.equal(databaseIntegrity(srv.dbPath), 'ok');
      const stored = new Set((await withStores(srv.dbPath, (s) => s.admin.listRealms())).map((r) => r.id));
      const acknowledged = [...Array.from({ length: 20 }, (_, i) => `r${i}`), ...late];
      assert.deepEqual(
        acknowledged.filter((id) => !stored.has(id)),
        [],
        `every acknowledged realm is stored (${stored.size} stored, ${acknowledged.length} acknowledged)`,
      );
      assert.match(srv.logs(), /"msg":"stopped"/);
    }
  });

  it('serves, and the CLI runs, with no temporary folder it may write to (a read-only root filesystem)', async () => {
    // A folder inside a file: nothing can be made there (ENOTDIR), as under a read-only root. tsx
    // would keep its compile cache in it, and SQLite its temporary files.
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, '');
    const env = { TMPDIR: join(file, 'tmp') };
    const srv = await spawnServer({ env });
    try {
      const admin = api(srv.http, srv.adminKey);
      const created = await admin.post('/api/admin/realms', { id: 'no-temp', name: 'No temp' });
      assert.equal(created.status, 200, created.text);
      const cli = await runCli(['realm', 'list', '--server', srv.grpc, '--api-key', srv.adminKey, '--json'], { env });
      assert.equal(cli.code, 0, cli.stderr);
      assert.ok(JSON.stringify(cli.json()).includes('no-temp'));
    } finally {
      await srv.stop();
    }
  });

  it('refuses to start with a clear message for a bad flag value, a taken port or an unwritable database', async () => {
    const bad = await runCli(['serve', '--http', 'nonsense']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--http.*host:port/);
    const dir = tempDir();
    const roDir = join(dir, 'ro');
    mkdirSync(roDir);
    const roDb = join(roDir, 'g.db');
    writeFileSync(roDb, '');
    chmodSync(roDb, 0o444);
    chmodSync(roDir, 0o555);
    if (process.getuid?.() !== 0) {
      const ro = await runCli(['serve', '--db', roDb, '--grpc', '127.0.0.1:0', '--http', '127.0.0.1:0']);
      assert.equal(ro.code, 1);
      assert.match(ro.stderr, /read-only|cannot/);
    }
    const notDb = join(dir, 'not.db');
    writeFileSync(notDb, 'this is not a database, it is a text file that is long enough to have a header page');
    const garbage = await runCli(['serve', '--db', notDb, '--grpc', '127.0.0.1:0', '--http', '127.0.0.1:0']);
    assert.equal(garbage.code, 1);
    assert.match(garbage.stderr, /not a gatehouse database|not a database/);
    const srv = await spawnServer();
    try {
      const port = srv.http.split(':').pop();
      const taken = await runCli(['serve', '--db', join(dir, 'x.db'), '--grpc', '127.0.0.1:0', '--http', `127.0.0.1:${port}`]);
      assert.equal(taken.code, 1);
      assert.match(taken.stderr, /cannot listen for HTTP/);
    } finally {
      await srv.stop();
    }
  });
});
