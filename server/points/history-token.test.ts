import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatehouseError } from '../errors.ts';
import { decodeHistoryToken, encodeHistoryToken } from './history-token.ts';

const listing = { realmId: 'acme', userId: 'usr_1', kind: null };
const cursor = { createdAt: 1_780_000_000_123, transactionId: 'ptx_0abc' };

const refusedNamingPageToken = (e: unknown) => e instanceof GatehouseError && e.code === 'bad_request' && e.extra.field === 'pageToken';

describe('history page tokens', () => {
  it('carry the cursor back unchanged, as URL-safe text', () => {
    const token = encodeHistoryToken(cursor, listing);
    assert.match(token, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(decodeHistoryToken(token, listing), cursor);
  });

  it('read the empty token as the first page', () => {
    assert.equal(decodeHistoryToken('', listing), null);
  });

  it("refuse a token of another user's, realm's or kind's listing", () => {
    const token = encodeHistoryToken(cursor, listing);
    for (const other of [
      { ...listing, userId: 'usr_2' },
      { ...listing, realmId: 'other' },
      { ...listing, kind: 'consume' },
    ]) {
      assert.throws(() => decodeHistoryToken(token, other), refusedNamingPageToken, JSON.stringify(other));
    }
  });

  const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
  const fields = JSON.parse(Buffer.from(encodeHistoryToken(cursor, listing), 'base64url').toString());
  const table: Array<[string, string]> = [
    ['not base64url', 'abc+/='],
    ['not JSON', b64('{nope')],
    ['a JSON array', b64([1, 2])],
    ['another version', b64({ ...fields, v: 2 })],
    ['an extra field', b64({ ...fields, x: 1 })],
    ['a fractional time', b64({ ...fields, t: 1.5 })],
    ['a negative time', b64({ ...fields, t: -1 })],
    ['a time as text', b64({ ...fields, t: '1' })],
    ['an empty id', b64({ ...fields, id: '' })],
    ['an id that is not text', b64({ ...fields, id: 7 })],
    ['a very long token', 'A'.repeat(600)],
  ];
  for (const [what, token] of table) {
    it(`refuses ${what} with a 400 naming pageToken`, () => {
      assert.throws(() => decodeHistoryToken(token, listing), refusedNamingPageToken);
    });
  }
});
