// The server process as operators run it: `npm start` under a supervisor that signals npm, and
// grpc-js's own messages in the server's JSON log rather than as stray console lines.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { ROOT, tempDir } from '../helpers/server.ts';

describe('the server process', () => {
  it('stops gracefully and exits 0 when npm start receives SIGTERM', async () => {
    const dir = tempDir();
    const npm = spawn('npm', ['start'], {
      cwd: ROOT,
      env: { ...process.env, GATEHOUSE_DB: join(dir, 'g.db'), GATEHOUSE_GRPC_ADDR: '127.0.0.1:0', GATEHOUSE_HTTP_ADDR: '127.0.0.1:0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    npm.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => npm.once('exit', (code, signal) => resolve([code, signal])));
    try {
      const ready = await new Promise<{ http: string }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ready line:\n${stderr}`)), 30_000);
        createInterface({ input: npm.stdout }).on('line', (line) => {
          if (!line.startsWith('{')) return; // npm's own "> gatehouse@… start" banner
          clearTimeout(timer);
          resolve(JSON.parse(line));
        });
      });
      const url = `http://${ready.http}/api/admin/realms`;
      assert.equal((await fetch(url)).status, 401, 'the server answers');
      npm.kill('SIGTERM');
      assert.deepEqual(await exited, [0, null], stderr);
      assert.match(stderr, /"msg":"stopped"/);
      await assert.rejects(fetch(url), 'nothing listens any more');
    } finally {
      npm.kill('SIGKILL');
    }
  });

  it("writes grpc-js's own messages as JSON log lines", async () => {
    // A taken gRPC port makes grpc-js log "No address added …" itself before the bind fails.
    const taken = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => taken.once('listening', r));
    try {
      const port = (taken.address() as { port: number }).port;
      const r = await runCli(['serve', '--db', join(tempDir(), 'g.db'), '--grpc', `127.0.0.1:${port}`, '--http', '127.0.0.1:0']);
      assert.equal(r.code, 1);
      const lines = r.stderr.trim().split('\n');
      const fromGrpc = lines
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l))
        .filter((l) => l.source === 'grpc-js');
      assert.ok(
        fromGrpc.some((l) => l.level === 'error' && /No address added/.test(l.msg)),
        r.stderr,
      );
      assert.deepEqual(
        lines.filter((l) => /^[EID] /.test(l)),
        [],
        'no line in grpc-js console format',
      );
    } finally {
      taken.close();
    }
  });
});
