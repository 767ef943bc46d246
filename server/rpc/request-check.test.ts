import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import protobuf from 'protobufjs';
import { limitProblem } from './field-rules.ts';
import { requestProblem } from './request-check.ts';

const SOURCE = `
syntax = "proto3";
package demo.v1;
message Note { optional string text = 1 [(limits) = { max_length: 5 }]; }
message NoteList { option (json_list) = true; repeated Note notes = 1; }
message PutRequest {
  string shelf_id = 1 [(google.api.field_behavior) = REQUIRED];
  int64 amount = 2 [(google.api.field_behavior) = REQUIRED, (limits).minimum = 1];
  optional int32 page_size = 3 [(limits) = { minimum: 1, maximum: 200 }];
  optional string key = 4 [(gatehouse.v1.limits) = { min_length: 1, max_length: 3 }];
  string code = 5 [(limits) = { pattern: "^[a-z]{2}$" pattern_description: "two letters a-z" }];
  Note note = 6;
  repeated string tags = 7;
  map<string, string> labels = 8;
  NoteList list = 9;
  optional int64 settled = 10 [(google.api.field_behavior) = REQUIRED];
}
`;

const root = protobuf.parse(SOURCE, new protobuf.Root(), { keepCase: true }).root;
root.resolveAll();
const Put = root.lookupType('demo.v1.PutRequest');
const valid = { shelfId: 's', amount: 1, code: '', note: null, tags: [], labels: {}, list: null, settled: 0 };
const problem = (patch: Record<string, unknown>) => requestProblem(Put, { ...valid, ...patch });

describe('the checks of a decoded request', () => {
  it('passes a request within every rule', () => {
    assert.equal(problem({}), null);
    assert.equal(problem({ pageSize: 200, key: 'abc', code: 'ab', note: { text: 'hello' }, settled: 0 }), null);
  });

  const cases: Array<[string, Record<string, unknown>, { field: string; message: string }]> = [
    ['an empty REQUIRED string', { shelfId: '' }, { field: 'shelfId', message: 'required' }],
    ['an absent REQUIRED optional field', { settled: undefined }, { field: 'settled', message: 'required' }],
    ['0 under a minimum of 1 (0 is a value, not a missing field)', { amount: 0 }, { field: 'amount', message: 'must be a positive integer' }],
    ['an integer below a range', { pageSize: 0 }, { field: 'pageSize', message: 'an integer from 1 to 200' }],
    ['an integer above a range', { pageSize: 201 }, { field: 'pageSize', message: 'an integer from 1 to 200' }],
    ['an optional string given empty under a minimum length', { key: '' }, { field: 'key', message: '1–3 characters' }],
    ['a string over its length', { key: 'abcd' }, { field: 'key', message: '1–3 characters' }],
    ['a string off its pattern', { code: 'abc' }, { field: 'code', message: 'two letters a-z' }],
    ['a nested message field over its length', { note: { text: 'toolong' } }, { field: 'note.text', message: 'at most 5 characters' }],
    [
      'a json_list item, named without the list field',
      { list: { notes: [{ text: 'ok' }, { text: 'toolong' }] } },
      { field: 'list[1].text', message: 'at most 5 characters' },
    ],
    ['a NUL in a string', { shelfId: 'a\u0000' }, { field: 'shelfId', message: 'must not contain NUL characters' }],
    ['a NUL in a list item', { tags: ['a', '\u0000'] }, { field: 'tags[1]', message: 'must not contain NUL characters' }],
    ['a NUL in a map key', { labels: { 'a\u0000': 'x' } }, { field: 'labels', message: 'must not contain NUL characters' }],
    ['a NUL in a map value', { labels: { a: '\u0000' } }, { field: 'labels.a', message: 'must not contain NUL characters' }],
  ];
  for (const [what, patch, expected] of cases) {
    it(`refuses ${what}`, () => assert.deepEqual(problem(patch), expected));
  }

  it('does not measure an empty string without presence that is not REQUIRED', () => {
    assert.equal(problem({ code: '' }), null);
  });
});

describe('limit messages', () => {
  const table: Array<[Parameters<typeof limitProblem>[0], string | number, string | null]> = [
    [{ minLength: 1, maxLength: 200 }, '', '1–200 characters'],
    [{ maxLength: 500 }, 'x'.repeat(501), 'at most 500 characters'],
    [{ minLength: 8 }, 'short', 'at least 8 characters'],
    [{ minimum: 0 }, -1, 'must be an integer ≥ 0'],
    [{ minimum: 1 }, 0, 'must be a positive integer'],
    [{ minimum: 1, maximum: 86_400 }, 86_401, 'an integer from 1 to 86400'],
    [{ maximum: 10 }, 11, 'must be at most 10'],
    [{ minimum: 1, maximum: 10 }, 10, null],
  ];
  for (const [limits, value, expected] of table) {
    it(`${JSON.stringify(limits)} on ${JSON.stringify(value).slice(0, 12)}: ${expected ?? 'fine'}`, () => assert.equal(limitProblem(limits, value), expected));
  }
});
