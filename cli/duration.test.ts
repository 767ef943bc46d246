import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration, parseDuration, parseWindowFlag } from './duration.ts';

describe('durations as operators type them', () => {
  const table: Array<[string, number | null]> = [
    ['5h', 18_000],
    ['90m', 5_400],
    ['1d', 86_400],
    ['1w', 604_800],
    ['30d', 2_592_000],
    ['3600', 3_600],
    [' 2H ', 7_200],
    ['45s', 45],
    ['0', null],
    ['0h', null],
    ['-5h', null],
    ['5x', null],
    ['1.5h', null],
    ['', null],
  ];
  for (const [text, want] of table) {
    it(`reads "${text}" as ${want ?? 'an error'}`, () => {
      const got = parseDuration(text);
      if (want === null) assert.equal(typeof got, 'string');
      else assert.equal(got, want);
    });
  }
  it('writes the shortest exact spelling', () => {
    assert.deepEqual([18_000, 604_800, 2_592_000, 5_400, 45, 86_400 * 14, 3_601].map(formatDuration), ['5h', '1w', '30d', '90m', '45s', '2w', '3601s']);
  });
  it('reads --window LENGTH=LIMIT', () => {
    assert.deepEqual(parseWindowFlag('5h=500'), { windowSeconds: 18_000, limit: 500 });
    assert.deepEqual(parseWindowFlag('1w=0'), { windowSeconds: 604_800, limit: 0 });
    assert.equal(typeof parseWindowFlag('5h'), 'string');
    assert.equal(typeof parseWindowFlag('5h=-1'), 'string');
    assert.equal(typeof parseWindowFlag('0=5'), 'string');
  });
});
