import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shownDatabase } from './redact.ts';

describe('shownDatabase: a database as logs and messages show it', () => {
  const cases: [string, string, string][] = [
    ['a SQLite path as given', './data/gatehouse.db', './data/gatehouse.db'],
    ['an in-memory database as given', ':memory:', ':memory:'],
    ['a URL without a password as given', 'postgres://gh@db.internal:5432/gatehouse', 'postgres://gh@db.internal:5432/gatehouse'],
    ['the password of the user information hidden', 'postgres://gh:s3cret@db.internal/gatehouse', 'postgres://gh:***@db.internal/gatehouse'],
    [
      'a password query parameter hidden',
      'postgres://gh@db.internal/gatehouse?password=s3cret&sslmode=require',
      'postgres://gh@db.internal/gatehouse?password=***&sslmode=require',
    ],
    ['an sslpassword query parameter hidden', 'postgresql://db.internal/gatehouse?sslpassword=keypass', 'postgresql://db.internal/gatehouse?sslpassword=***'],
    ['a parameter name in capitals hidden too', 'postgres://db.internal/gatehouse?PASSWORD=s3cret', 'postgres://db.internal/gatehouse?PASSWORD=***'],
    ['every repeated password parameter hidden', 'postgres://db/g?password=one&password=two', 'postgres://db/g?password=***'],
    ['both places at once', 'postgres://gh:pw1@db/g?password=pw2', 'postgres://gh:***@db/g?password=***'],
    ['a percent-encoded password hidden', 'postgres://gh:p%40ss%3Aword@db/g', 'postgres://gh:***@db/g'],
  ];
  for (const [name, given, shown] of cases) {
    it(`shows ${name}`, () => assert.equal(shownDatabase(given), shown));
  }

  it('shows nothing of a URL that does not parse', () => {
    const shown = shownDatabase('postgres://gh:s3cret@[bad/g');
    assert.ok(!shown.includes('s3cret'), shown);
  });
});
