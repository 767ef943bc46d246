// immediate() runs a unit synchronously inside its transaction: a unit given as an async function
// would let what it awaits run after COMMIT, outside the transaction. The type refuses one; the
// compiler is asked directly, over a file that tries.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../../../test/helpers/server.ts';
import { immediate, openDatabase } from './open.ts';

test('a unit runs in the transaction: its writes commit together, or not at all when it throws', async () => {
  const db = openDatabase(':memory:');
  try {
    db.exec('CREATE TABLE t (n INTEGER)');
    const ins = db.prepare('INSERT INTO t (n) VALUES (?)');
    assert.equal(await immediate(db, () => ins.run(1).changes + ins.run(2).changes), 2);
    await assert.rejects(
      immediate(db, () => {
        ins.run(3);
        throw new Error('refused');
      }),
      /refused/,
    );
    assert.deepEqual(db.prepare('SELECT n FROM t ORDER BY n').pluck().all(), [1, 2]);
  } finally {
    db.close();
  }
});

test('an async unit, or one returning a promise, does not type-check', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-immediate-'));
  const open = JSON.stringify(join(ROOT, 'server', 'store', 'sqlite', 'open.ts'));
  writeFileSync(
    join(dir, 'units.ts'),
    [
      `import { immediate, openDatabase } from ${open};`,
      `const db = openDatabase(':memory:');`,
      'export const fine: Promise<number> = immediate(db, () => 1);',
      'export const asyncUnit = immediate(db, async () => 1);',
      'export const promised = immediate(db, () => Promise.resolve(1));',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      extends: join(ROOT, 'tsconfig.json'),
      compilerOptions: { typeRoots: [join(ROOT, 'node_modules', '@types')] },
      include: ['units.ts'],
    }),
  );
  const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
  const out = await new Promise<string>((resolve) => execFile(tsc, ['--noEmit', '-p', dir], (_err, stdout, stderr) => resolve(`${stdout}${stderr}`)));
  const errors = out.split('\n').filter((l) => l.includes('error TS'));
  assert.deepEqual(
    errors.map((l) => /units\.ts\((\d+),/.exec(l)?.[1]),
    ['4', '5'],
    out,
  );
});
