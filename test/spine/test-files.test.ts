// How `npm test` runs the test files (test/run.ts): a folder's files share a process, so a file
// must keep its hooks inside its own `describe` (one at the top level would run before every file
// of the process or after all of them), and every file must be run, once.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from '../helpers/server.ts';
import { plan, testFiles } from '../run.ts';

const FILES = ['test', 'server', 'cli'].flatMap((r) => testFiles(r));

describe('the test files as npm test runs them', () => {
  it('finds the test files of every folder', () => {
    for (const f of ['test/spine/test-files.test.ts', 'server/points/holds.test.ts', 'cli/duration.test.ts']) assert.ok(FILES.includes(f), f);
    assert.ok(FILES.length > 150, String(FILES.length));
  });

  it('runs every file once, in fewer processes than files', () => {
    const processes = plan(FILES);
    assert.deepEqual(processes.flat().sort(), [...FILES].sort());
    assert.ok(processes.length < 30, String(processes.length));
    // Test files that would be missed on a rename of a folder: a new folder is run too.
    assert.deepEqual(plan(['test/new/a.test.ts', 'test/cli/b.test.ts']).flat().sort(), ['test/cli/b.test.ts', 'test/new/a.test.ts']);
  });

  it('finds no hook at a file’s top level', () => {
    const offenders = FILES.filter((f) => /^(before|after|beforeEach|afterEach)\(/m.test(readFileSync(join(ROOT, f), 'utf8')));
    assert.deepEqual(offenders, [], 'move these hooks into a describe of the file: its folder’s other files share its process');
  });
});
