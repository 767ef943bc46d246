import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hasDuplicateMembers } from './id-token.ts';

function parsedObject(json: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(json);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

describe('hasDuplicateMembers: a token whose header or claims name a member twice is malformed', () => {
  const table: Array<[json: string, duplicate: boolean]> = [
    ['{"a":1,"b":2}', false],
    ['{"a":1,"a":2}', true],
    [' { "sub" : "x" , "sub" : "y" } ', true],
    ['{"a":1,"\\u0061":2}', true], // the same key, once escaped
    ['{"a\\"b":1,"a\\"b":2}', true],
    ['{"a\\"b":1,"a\\\\b":2}', false],
    ['{"a":{"a":1,"a":2},"b":[{"b":1},{"b":2}]}', false], // only the top level's members count
    ['{"x":"a,\\"x\\":1","y":2}', false], // a comma and a quote inside a value
    ['{"é":1,"\\u00e9":2}', true],
    ['{}', false],
    ['[1,1]', false],
    ['not json', false],
  ];
  for (const [json, duplicate] of table) {
    it(`${json} → ${duplicate}`, () => assert.equal(hasDuplicateMembers(json), duplicate));
  }
  // Given the text's JSON.parse result, the members are counted against its properties instead.
  for (const [json, duplicate] of table) {
    const parsed = parsedObject(json);
    if (parsed) it(`${json} → ${duplicate}, counted against its parse`, () => assert.equal(hasDuplicateMembers(json, parsed), duplicate));
  }
  it('counts __proto__ as a member like any other name', () => {
    for (const json of ['{"__proto__":1,"__proto__":2}', '{"__proto__":{},"a":1}']) {
      assert.equal(hasDuplicateMembers(json, parsedObject(json)), hasDuplicateMembers(json), json);
    }
  });
});
