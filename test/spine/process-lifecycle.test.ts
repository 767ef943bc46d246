// The server process as operators run it: `npm start` under a supervisor that signals npm or in a
// terminal where Ctrl-C signals npm and the server alike, and grpc-js's own messages in the server's JSON log rather than as stray console lines.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { parseAddr } from '../../server/config.ts';
import { runCli } from '../helpers/cli.ts';
import { KEYS, runInPty } from '../helpers/pty.ts';
import { ROOT, spawnServer, tempDir } from '../helpers/server.ts';

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
        createInterface({ input: npm.stdout }).on('line', (line) => {
          if (!line.startsWith('{')) return; // npm's own "> gatehouse@… start" banner
          resolve(JSON.parse(line));
        });
        void exited.then(([code, signal]) => reject(new Error(`npm start ended (${signal ?? code}) before the ready line:\n${stderr}`)));
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

  // A terminal's Ctrl-C signals its whole foreground process group: npm, and the server it started
  // (with --workers, the primary and every worker), which npm's own handler then signals a second
  // time. Every SIGINT after the first must find the drain under way, never the default action's
  // exit: a request held in flight keeps the drain going while Ctrl-C is pressed again.
  for (const [name, args, drains] of [
    ['', '', 1],
    [' --workers 2', ' -- --workers 2', 3], // the primary and its two workers
  ] as const)
    it(`stops gracefully and exits 0 when Ctrl-C in a terminal interrupts npm start${name}, however often it is pressed`, async () => {
      const dir = tempDir();
      const db = join(dir, 'g.db');
      const pty = runInPty(`npm start${args}`, { GATEHOUSE_DB: db, GATEHOUSE_GRPC_ADDR: '127.0.0.1:0', GATEHOUSE_HTTP_ADDR: '127.0.0.1:0' });
      const held = new Socket();
      try {
        // npm's spinner may share the ready line's start on a terminal.
        await pty.waitFor(/\{"event":"ready"[^}]*\}/);
        const ready = JSON.parse(/\{"event":"ready"[^}]*\}/.exec(pty.screen())![0]) as { http: string };
        assert.ok(existsSync(`${db}-wal`), 'the database is open in WAL mode');
        // "100 Continue" says the server has the request's headers: it is in flight until its body comes.
        const { host, port } = parseAddr(ready.http);
        let answer = '';
        held.setEncoding('utf8').on('data', (d: string) => (answer += d));
        const continued = new Promise<void>((resolve) => held.on('data', () => answer.includes('100 Continue') && resolve()));
        held.connect(port, host, () =>
          held.write(
            'POST /api/oauth/none/apple/native-login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n',
          ),
        );
        await continued;
        const closed = new Promise<void>((resolve) => held.on('close', () => resolve()));

        pty.type(KEYS.ctrlC);
        await pty.waitFor(/"msg":"shutting down".*"signal":"SIGINT"/);
        pty.mark();
        pty.type(KEYS.ctrlC);
        // The terminal echoes ^C once it has signalled the group: a server without a listener by
        // then is already dying.
        await Promise.race([pty.waitFor(/\^C/), pty.exit]);
        held.write('{}');
        await closed;
        assert.equal(await pty.exit, 0, pty.screen());
        const lines = pty.screen().split(/\r?\n/);
        // Each process drains once, however many signals reach it: the primary's line always, a
        // worker's when its own line made it to the terminal before it ended (see below).
        const drainsBy = [...pty.screen().matchAll(/\{[^{}]*"msg":"shutting down"[^{}]*\}/g)].map((m) => {
          const line = JSON.parse(m[0]) as { worker?: number };
          return line.worker === undefined ? 'primary' : `worker ${line.worker}`;
        });
        assert.equal(drainsBy.filter((who) => who === 'primary').length, 1, pty.screen());
        assert.equal(new Set(drainsBy).size, drainsBy.length, `one drain a process for every signal: ${drainsBy.join(', ')}`);
        assert.ok(drainsBy.length <= drains, pty.screen());
        const stopped = lines.filter((l) => l.includes('"msg":"stopped"'));
        if (drains === 1) assert.equal(stopped.length, 1);
        // A worker with nothing in flight may be ended by the second Ctrl-C in the instant it exits,
        // its last log line with it (the primary counts that as clean); the primary always says it.
        else
          assert.ok(
            stopped.some((l) => !l.includes('"worker"')),
            'the primary stopped',
          );
        // The database and the key of its secrets at rest, made beside it on first start; no -wal or -shm.
        assert.deepEqual(readdirSync(dir).sort(), ['g.db', 'secrets.key'], 'the WAL was checkpointed and removed on close');
        await assert.rejects(fetch(`http://${ready.http}/`), 'nothing listens any more');
      } finally {
        held.destroy();
        pty.kill();
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

  // Operators size a server's heap with node's own options; its signature thread (which runs the
  // WAL checkpoints too) must start under them as it does without.
  it('serves when node is started with heap and GC options, its threads up', async () => {
    const srv = await spawnServer({ nodeArgs: ['--max-old-space-size=256', '--max-semi-space-size=4', '--trace-gc'] });
    try {
      assert.equal((await fetch(`${srv.http}/api/admin/realms`)).status, 401, 'the server answers');
      // A checkpoint is due every 500 ms: two have been sent to the thread, or said why not.
      await new Promise((r) => setTimeout(r, 1100));
      assert.equal(await srv.kill('SIGTERM'), 0);
      assert.doesNotMatch(srv.logs(), /checkpoints stopped|start_failed|ERR_WORKER/);
    } finally {
      await srv.stop();
    }
  });
});
