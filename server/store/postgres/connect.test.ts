import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPostgresUrl } from '../database-kind.ts';
import { clientConfig, connectionString } from './connect.ts';

describe('PostgreSQL connection settings', () => {
  it('takes postgres:// and postgresql:// URLs as PostgreSQL, anything else as a SQLite path', () => {
    for (const url of ['postgres://h/db', 'postgresql://u@h:5433/db?sslmode=require', 'POSTGRES:///db?host=/run/postgresql'])
      assert.equal(isPostgresUrl(url), true, url);
    for (const path of ['./data/gatehouse.db', ':memory:', '/var/lib/postgres.db', 'postgres.db']) assert.equal(isPostgresUrl(path), false, path);
  });

  it('reads sslmode as libpq does (require encrypts without verifying), unless the URL chose otherwise', () => {
    assert.equal(connectionString('postgres://h/db'), 'postgres://h/db?uselibpqcompat=true');
    assert.equal(connectionString('postgres://h/db?sslmode=require'), 'postgres://h/db?sslmode=require&uselibpqcompat=true');
    assert.equal(connectionString('postgres://h/db?uselibpqcompat=false'), 'postgres://h/db?uselibpqcompat=false');
  });

  it('sets the lock and statement timeouts of every session, and a bound on a transaction left idle', () => {
    const c = clientConfig({ url: 'postgres://h/db', statementTimeoutMs: 3000, lockTimeoutMs: 700 });
    assert.equal(c.statement_timeout, 3000);
    assert.equal(c.lock_timeout, 700);
    assert.ok((c.idle_in_transaction_session_timeout ?? 0) >= 6000);
  });
});
