import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { FlatTable } from './flat-table.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('FlatTable', () => {
  it('answers get, has, set, delete and size as a Map does', () => {
    const t = FlatTable.byNumber<{ n: number }>();
    const a = { n: 1 };
    assert.equal(t.set(1, a), t);
    t.set(3, { n: 3 });
    t.set(3, { n: 33 }); // replaced, not counted twice
    assert.equal(t.size, 2);
    assert.equal(t.get(1), a);
    assert.deepEqual(t.get(3), { n: 33 });
    assert.equal(t.get(5), undefined);
    assert.equal(t.has(1), true);
    assert.equal(t.has(5), false);
    assert.equal(t.delete(1), true);
    assert.equal(t.delete(1), false);
    assert.equal(t.size, 1);
    assert.equal(t.has(1), false);
  });

  it('gives keys back as they were set: numbers as numbers, any string as itself', () => {
    const n = FlatTable.byNumber<string>();
    for (const id of [7, 1, 2147483647]) n.set(id, `s${id}`);
    assert.deepEqual([...n.keys()], [1, 7, 2147483647]);
    const s = FlatTable.byString<number>();
    for (const [i, k] of ['usr_b', '__proto__', 'constructor', '12', 'usr_a'].entries()) s.set(k, i);
    assert.deepEqual(new Set([...s.keys()]), new Set(['usr_b', '__proto__', 'constructor', '12', 'usr_a']));
    assert.equal(s.get('__proto__'), 1);
    assert.equal(s.get('toString'), undefined); // nothing inherited
    assert.equal(s.size, 5);
  });

  it('reads like a Map: values, entries, iteration and clear', () => {
    const t = FlatTable.byNumber<string>();
    for (const id of [5, 3]) t.set(id, `s${id}`);
    assert.deepEqual([...t.values()], ['s3', 's5']);
    assert.deepEqual(
      [...t.entries()],
      [
        [3, 's3'],
        [5, 's5'],
      ],
    );
    assert.deepEqual([...t], [...t.entries()]);
    assert.deepEqual(
      new Map(t),
      new Map([
        [3, 's3'],
        [5, 's5'],
      ]),
    );
    const keys = t.keys();
    assert.deepEqual(keys.next(), { value: 3, done: false });
    t.clear();
    assert.equal(t.size, 0);
    assert.equal(t.get(3), undefined);
    assert.deepEqual([...t], []);
  });

  it('visits the entries there are in forEach, skipping one deleted on the way (as node destroys a session’s streams)', () => {
    const t = FlatTable.byNumber<string>();
    for (const id of [1, 3, 5, 7]) t.set(id, `s${id}`);
    const seen: Array<[string, number]> = [];
    t.forEach((v, k) => {
      seen.push([v, k]);
      t.delete(k);
      if (k === 3) t.delete(5);
    });
    assert.deepEqual(seen, [
      ['s1', 1],
      ['s3', 3],
      ['s7', 7],
    ]);
    assert.equal(t.size, 0);
  });

  it('lets a scavenge free what it held once the table is old, where a Map keeps every value it ever held for the old space', async () => {
    // A child process: explicit minor and full GCs need --expose-gc. 1 000 calls of ~4 KB each go
    // through a table of 16 in flight, the table and its holder old first (two full GCs), then
    // three scavenges: the old space grows by what they had to keep.
    const script = `
      const v8 = require('node:v8');
      const { FlatTable } = require('./server/lib/flat-table.ts');
      const oldUsed = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_used_size;
      function kept(table) {
        for (let i = 0; i < 4; i++) table.set(i, {});
        for (let i = 0; i < 4; i++) table.delete(i);
        gc(); gc();
        const before = oldUsed();
        for (let i = 100; i < 1100; i++) {
          table.set(i, { payload: new Array(500).fill(i) });
          if (i >= 116) table.delete(i - 16);
        }
        for (let i = 1084; i < 1100; i++) table.delete(i);
        for (let i = 0; i < 3; i++) gc({ type: 'minor' });
        return oldUsed() - before;
      }
      process.stdout.write(JSON.stringify({ map: kept(new Map()), flat: kept(FlatTable.byNumber()) }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--require', 'tsx/cjs', '-e', script], { cwd: ROOT });
    const kept = JSON.parse(stdout) as { map: number; flat: number };
    // The control: the same calls through a Map promote megabytes (if not, this node no longer
    // needs the table, and the test says so).
    assert.ok(kept.map > 2_000_000, `a Map kept ${kept.map} bytes of finished calls`);
    assert.ok(kept.flat < 256 * 1024, `the table kept ${kept.flat} bytes of finished calls`);
  });
});
