import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { threadExecArgv } from './thread-argv.ts';

/** Whether a thread started with these options runs (resolves its exit code, or the refusal). */
function runThread(execArgv: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    try {
      const w = new Worker('process.exitCode = 7', { eval: true, execArgv });
      w.once('error', reject);
      w.once('exit', resolve);
    } catch (e) {
      reject(e);
    }
  });
}

describe('a worker thread’s node options', () => {
  const processArgs = [
    '--import',
    'tsx',
    '--max-old-space-size=64',
    '--cpu-prof',
    '--cpu-prof-dir',
    '/tmp/p',
    '--require=./x.cjs',
    '-r',
    'y',
    '--trace-gc',
    '--expose-gc',
    '--max-semi-space-size',
    '4',
    '--title=gatehouse',
    '--heap-prof-name=h.heapprofile',
    '--loader=tsx',
    '--enable-source-maps',
  ];

  it('keeps the diagnostic options, in both spellings, and drops loaders, V8 and process options', () => {
    assert.deepEqual(threadExecArgv(processArgs), ['--cpu-prof', '--cpu-prof-dir', '/tmp/p', '--heap-prof-name=h.heapprofile', '--enable-source-maps']);
  });

  it('is empty for a process started without options', () => {
    assert.deepEqual(threadExecArgv([]), []);
  });

  it('gives options a thread accepts: one starts under a process started with every kind, and is profiled', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'thread-argv-'));
    try {
      const args = processArgs.map((a) => (a === '/tmp/p' ? dir : a)).filter((a) => !a.startsWith('--heap-prof'));
      assert.equal(await runThread(threadExecArgv(args)), 7);
      assert.equal(readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).length, 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // What a thread was given before the options were sorted: refused.
    await assert.rejects(runThread(['--max-old-space-size=64']), { code: 'ERR_WORKER_INVALID_EXEC_ARGV' });
  });
});
