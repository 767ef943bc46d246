import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Column, CopyPlanError, converter, parentsFirst, planCopy, postgresKind, sqliteKind, type TableShape, type Value } from './copy-plan.ts';

const col = (name: string, kind: Column['kind'], type = kind): Column => ({ name, kind, type });
const table = (name: string, columns: Column[], references: string[] = []): TableShape => ({ name, columns, references });

describe('column kinds', () => {
  it('reads SQLite declared types by affinity and PostgreSQL types by name', () => {
    for (const [declared, kind] of [
      ['INTEGER', 'integer'],
      ['BIGINT', 'integer'],
      ['TEXT', 'text'],
      ['VARCHAR(20)', 'text'],
      ['BOOLEAN', 'boolean'],
      ['REAL', 'real'],
      ['DOUBLE PRECISION', 'real'],
      ['BLOB', null],
      ['', null],
    ] as const) {
      assert.equal(sqliteKind(declared), kind, declared);
    }
    for (const [typname, kind] of [
      ['int8', 'integer'],
      ['int4', 'integer'],
      ['bool', 'boolean'],
      ['text', 'text'],
      ['float8', 'real'],
      ['jsonb', null],
      ['bytea', null],
    ] as const) {
      assert.equal(postgresKind(typname), kind, typname);
    }
  });
});

describe('converter', () => {
  const conv = (from: Column['kind'], to: Column['kind']) => converter('t', col('c', from), col('c', to));

  it('turns SQLite booleans (0, 1) into PostgreSQL ones and back, NULL staying NULL', () => {
    const toPg = conv('integer', 'boolean');
    const toSqlite = conv('boolean', 'integer');
    const table: Array<[Value, Value]> = [
      [0n, false],
      [1n, true],
      [null, null],
    ];
    for (const [sqlite, pg] of table) {
      assert.equal(toPg(sqlite), pg);
      assert.equal(toSqlite(pg), sqlite);
    }
  });

  it('refuses a boolean that is neither 0 nor 1, naming the column', () => {
    for (const v of [2n, -1n, 'true', 1.5]) assert.throws(() => conv('integer', 'boolean')(v), /^CopyPlanError: t\.c: .* is not a boolean \(0 or 1\)$/);
  });

  it('keeps integers exact past 2^53 and refuses what is not a 64-bit integer', () => {
    const same = conv('integer', 'integer');
    assert.equal(same(2n ** 62n + 1n), 2n ** 62n + 1n);
    assert.equal(same(-(2n ** 63n)), -(2n ** 63n));
    for (const v of [2n ** 63n, 'x', 1.5, true]) assert.throws(() => same(v), CopyPlanError);
  });

  it('keeps text as it is (JSON included) and refuses a number in a text column', () => {
    const text = conv('text', 'text');
    const json = '{"windowSeconds":3600,"limit":10,"name":"\\u00e9 \\"q\\""}';
    assert.equal(text(json), json);
    assert.equal(text(''), '');
    assert.throws(() => text(5n), /t\.c: 5 is not text/);
  });

  it('refuses kinds that do not convert', () => {
    assert.throws(() => conv('text', 'integer'), /t\.c: a text column \(text\) cannot be copied into a integer one \(integer\)/);
    assert.throws(() => conv('real', 'boolean'), CopyPlanError);
  });
});

describe('planCopy', () => {
  const src = [
    table('users', [col('id', 'text'), col('realm_id', 'text'), col('email_verified', 'integer')], ['realms']),
    table('realms', [col('id', 'text'), col('name', 'text')]),
    table('user_identities', [col('user_id', 'text'), col('subject', 'text')], ['users']),
  ];
  const dst = [
    table('realms', [col('name', 'text'), col('id', 'text')]),
    table('user_identities', [col('subject', 'text'), col('user_id', 'text')], ['users']),
    table('users', [col('email_verified', 'boolean'), col('realm_id', 'text'), col('id', 'text'), col('extra', 'text')], ['realms']),
    table('cache_version', [col('version', 'integer')]),
  ];

  it('copies the source tables only, parents first, columns matched by name whatever their order', () => {
    const plans = planCopy(src, dst);
    assert.deepEqual(
      plans.map((p) => p.name),
      ['realms', 'users', 'user_identities'],
    );
    const users = plans[1]!;
    assert.deepEqual(
      users.target.map((c) => c.name),
      ['id', 'realm_id', 'email_verified'],
    );
    assert.equal(users.convert[2]!(1n), true);
  });

  it('refuses a source table or column the target lacks', () => {
    assert.throws(() => planCopy([...src, table('points_holds', [col('id', 'text')])], dst), /the target has no table points_holds/);
    assert.throws(
      () => planCopy([table('realms', [col('id', 'text'), col('name', 'text'), col('kind', 'text')])], dst),
      /the target's table realms has no column kind/,
    );
  });
});

describe('parentsFirst', () => {
  it('orders every table after those it references, whatever the given order', () => {
    const order = parentsFirst([
      table('refresh_tokens', [], ['token_families']),
      table('token_families', [], ['users', 'realms']),
      table('users', [], ['realms']),
      table('realms', []),
    ]);
    assert.deepEqual(order, ['realms', 'users', 'token_families', 'refresh_tokens']);
  });

  it('ignores references to itself and to tables outside the list, and ends on a cycle', () => {
    assert.deepEqual(parentsFirst([table('a', [], ['a', 'elsewhere']), table('b', [], ['c']), table('c', [], ['b'])]), ['a', 'c', 'b']);
  });
});
