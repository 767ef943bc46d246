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
  it('splits a path into decoded segments, without the slashes at either end', () => {
    const table: Array<[string, string[]]> = [
      ['/', ['']],
      ['', ['']],
      ['///a//b///', ['a', '', 'b']],
      ['/api/oauth/acme/apple/native-login', ['api', 'oauth', 'acme', 'apple', 'native-login']],
      ['/a%2Fb/%C3%A9/c', ['a/b', 'é', 'c']],
    ];
    for (const [path, want] of table) assert.deepEqual(splitPath(path), want, path);
  });
  it('reports broken percent-encoding as no path', () => {
    assert.equal(splitPath('/api/%E0%A4%A'), null);
  });
});
