import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { chunkLines, createLogger, type LogFields } from './log.ts';

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

describe('log lines', () => {
  it('are the JSON of { time, level, msg, ...base fields, ...line fields }, byte for byte, whatever the fields', () => {
    const cases: Array<{ base: LogFields; fields?: LogFields }> = [
      { base: {} },
      { base: {}, fields: {} },
      { base: { requestId: 'req_1' } },
      { base: { requestId: 'req_1' }, fields: { realmId: 'r', created: true, ms: 1.5, gone: undefined } },
      { base: { requestId: 'req_1', realmId: 'a' }, fields: { realmId: 'b', userId: 'u' } }, // a line field replaces a base one
      { base: { requestId: 'req_1' }, fields: { requestId: undefined, route: 'x' } }, // and drops it when undefined
      { base: { msg: 'base' }, fields: { level: 'x' } }, // fields named like the line's own replace them
      { base: { requestId: 'req_1' }, fields: { 2: 'two', route: 'x' } }, // an index key sorts first
      { base: { requestId: 'q"\\\u2028' }, fields: { text: 'é\n"', nested: { a: [1, null] } } },
    ];
    for (const { base, fields } of cases) {
      const lines: string[] = [];
      const log = createLogger({ write: (l) => lines.push(l) }).child(base);
      log.info('a "message"', fields);
      log.warn('again', fields);
      for (const [i, line] of lines.entries()) {
        const time = (JSON.parse(line) as { time: string }).time;
        assert.match(time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        const level = i === 0 ? 'info' : 'warn';
        assert.equal(line, JSON.stringify({ time, level, msg: i === 0 ? 'a "message"' : 'again', ...base, ...fields }));
      }
    }
  });

  it("carry the time as Date's toISOString writes it, whichever millisecond and second come next", () => {
    const lines: string[] = [];
    const log = createLogger({ write: (l) => lines.push(l) });
    const times = [
      0, 7, 7, 99, 100, 999, 1000, 1_764_300_000_007, 1_764_300_000_050, 1_764_300_000_050, 1_764_300_001_001, 1_764_300_000_999, 951_782_399_999, -1,
    ];
    const now = mock.method(Date, 'now', () => times[lines.length]!);
    try {
      for (let i = 0; i < times.length; i++) log.info('tick');
    } finally {
      now.mock.restore();
    }
    assert.deepEqual(
      lines.map((l) => (JSON.parse(l) as { time: string }).time),
      times.map((ms) => new Date(ms).toISOString()),
    );
  });
});
