import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDuration, parseWindowFlag } from './duration.ts';

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
    ['day', 86_400],
    ['week', 604_800],
    ['Month', 2_592_000],
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
  it('reads --window LENGTH=LIMIT', () => {
    assert.deepEqual(parseWindowFlag('5h=500'), { windowSeconds: 18_000, limit: 500 });
    assert.deepEqual(parseWindowFlag('1w=0'), { windowSeconds: 604_800, limit: 0 });
    assert.equal(typeof parseWindowFlag('5h'), 'string');
    assert.equal(typeof parseWindowFlag('5h=-1'), 'string');
    assert.equal(typeof parseWindowFlag('0=5'), 'string');
  });
  it('phrases a bad --window as "flag: part: problem"', () => {
    assert.equal(parseWindowFlag('0=5'), '--window 0=5: length: must be longer than 0 seconds');
    assert.equal(parseWindowFlag('5x=5'), '--window 5x=5: length: expected a length like 5h, 90m, 1d, 1w, 30d or a number of seconds');
    assert.equal(parseWindowFlag('5h=-1'), '--window 5h=-1: limit: must be a whole number ≥ 0');
  });
});
