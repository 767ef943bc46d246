import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compilePattern, matchPattern, splitPath } from './pattern.ts';

describe('http rule path templates', () => {
  const p = compilePattern('/api/points/{realm_id}/users/{user_id}/summary');
  const table: Array<[string, Record<string, string> | null]> = [
    ['/api/points/acme/users/u1/summary', { realm_id: 'acme', user_id: 'u1' }],
    ['/api/points/acme/users/u%2F1/summary', { realm_id: 'acme', user_id: 'u/1' }],
    ['/api/points/acme/users//summary', null],
    ['/api/points/acme/users/u1', null],
    ['/api/points/acme/users/u1/summary/extra', null],
    ['/api/points/acme/users/u1/summary/', { realm_id: 'acme', user_id: 'u1' }],
  ];
  for (const [path, want] of table) {
    it(`matches ${path} → ${JSON.stringify(want)}`, () => {
      assert.deepEqual(matchPattern(p, splitPath(path)!), want);
    });
  }
  it('refuses templates it cannot serve, so a bad rule stops the boot', () => {
    assert.throws(() => compilePattern('api/x'));
    assert.throws(() => compilePattern('/api/{x=**}'));
    assert.throws(() => compilePattern('/api//x'));
  });
  it('reports broken percent-encoding as no path', () => {
    assert.equal(splitPath('/api/%E0%A4%A'), null);
  });
});
