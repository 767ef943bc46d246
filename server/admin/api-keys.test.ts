import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keyOutsideCaller } from './api-keys.ts';

describe('a key acts only on keys within its own realm and permissions', () => {
  const k = (realm: string, ...permissions: string[]) => ({ realm, permissions });
  const table: Array<[string, ReturnType<typeof k>, ReturnType<typeof k>, RegExp | null]> = [
    ['all-realm * key, any key', k('*', '*'), k('*', '*'), null],
    ['realm key, same realm, subset', k('r', 'api_keys.manage', 'points.view'), k('r', 'points.view'), null],
    ['realm key, same realm, equal set', k('r', 'api_keys.manage'), k('r', 'api_keys.manage'), null],
    ['realm * key, a realm key with *', k('r', '*'), k('r', '*'), null],
    ['all-realm key, a realm key within its permissions', k('*', 'api_keys.manage', 'points.view'), k('r', 'points.view'), null],
    ['realm key, an all-realm key', k('r', '*'), k('*', 'points.view'), /bound to realm r/],
    ['realm key, another realm', k('r', '*'), k('s', 'points.view'), /bound to realm r/],
    ['api_keys.manage alone, a points.manage key', k('r', 'api_keys.manage'), k('r', 'points.manage'), /lacks points\.manage/],
    ['a key without *, a * key', k('*', 'api_keys.manage', 'points.manage'), k('*', '*'), /lacks \*/],
    ['partly outside', k('r', 'api_keys.manage', 'points.view'), k('r', 'points.view', 'points.consume'), /lacks points\.consume$/],
  ];
  for (const [name, caller, target, expected] of table) {
    it(`${name} → ${expected ? 'refused' : 'allowed'}`, () => {
      const p = keyOutsideCaller(caller, target);
      if (expected === null) assert.equal(p, null);
      else assert.match(p ?? 'allowed', expected);
    });
  }
});
