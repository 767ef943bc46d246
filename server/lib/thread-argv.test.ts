import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { threadExecArgv } from './thread-argv.ts';

describe('a worker thread’s node options', () => {
  it('drops the module loaders, in both spellings, and keeps the rest', () => {
    assert.deepEqual(
      threadExecArgv(['--import', 'tsx', '--cpu-prof', '--cpu-prof-dir', '/tmp/p', '--require=./x.cjs', '-r', 'y', '--max-old-space-size=64', '--loader=tsx']),
      ['--cpu-prof', '--cpu-prof-dir', '/tmp/p', '--max-old-space-size=64'],
    );
  });
  it('is empty for a process started without options', () => {
    assert.deepEqual(threadExecArgv([]), []);
  });
});
