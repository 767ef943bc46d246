// A server's logged stacks name lines of the TypeScript (bin/gatehouse keeps source maps on for
// `serve`), while node keeps no map of node_modules' JavaScript, whose stacks name their own lines.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BIN, ROOT, tempDir } from '../helpers/server.ts';

test('serve maps the stacks of its own TypeScript and keeps no map of node_modules', async () => {
  const dir = tempDir();
  const probe = join(ROOT, 'test', 'helpers', 'source-map-probe.cjs');
  const out = await new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      ['--require', probe, BIN, 'serve', '--db', join(dir, 'g.db'), '--grpc', '127.0.0.1:0', '--http', '127.0.0.1:0'],
      { cwd: ROOT, timeout: 60_000 },
      (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)),
    ),
  );
  const seen = JSON.parse(out.split('\n').find((l) => l.includes('"frame"'))!) as { ours: boolean; grpc: boolean; frame: string };
  const source = join(ROOT, 'server', 'lib', 'http-request.ts');
  const line =
    readFileSync(source, 'utf8')
      .split('\n')
      .findIndex((l) => l.includes('new Error(`not an http(s) URL')) + 1;
  assert.ok(line > 0);
  assert.match(seen.frame, new RegExp(`\\(${source.replaceAll('/', '\\/')}:${line}:\\d+\\)$`), 'the frame names the TypeScript line');
  assert.equal(seen.ours, true, 'node keeps the map of our TypeScript');
  assert.equal(seen.grpc, false, 'and none of grpc-js');
});
