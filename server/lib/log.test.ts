import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chunkLines } from './log.ts';

describe('chunkLines: the writes of the stderr log lines', () => {
  it('keeps every write to at most PIPE_BUF bytes of whole lines, so processes sharing stderr never mix a line', () => {
    const lines = Array.from({ length: 300 }, (_, i) => JSON.stringify({ msg: 'http', i, name: 'é'.repeat(i % 40) }));
    const chunks = chunkLines(lines);
    assert.ok(chunks.length > 1);
    for (const c of chunks) {
      assert.ok(Buffer.byteLength(c) <= 4096, `${Buffer.byteLength(c)} bytes`);
      assert.ok(c.endsWith('\n'));
    }
    assert.deepEqual(chunks.join('').split('\n').slice(0, -1), lines);
  });

  it('counts bytes, not characters', () => {
    const line = 'é'.repeat(1500); // 3000 bytes, 1500 characters
    assert.equal(chunkLines([line, line]).length, 2);
  });

  it('writes a line longer than the limit on its own, whole', () => {
    const long = 'x'.repeat(5000);
    assert.deepEqual(chunkLines(['a', long, 'b']), ['a\n', `${long}\n`, 'b\n']);
  });

  it('writes nothing for no lines', () => {
    assert.deepEqual(chunkLines([]), []);
  });
});
