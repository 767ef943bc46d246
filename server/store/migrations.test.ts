import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listPostgresMigrations } from './postgres/migrate.ts';
import { listSqliteMigrations } from './sqlite/migrate.ts';

describe('the migrations', () => {
  it('gives PostgreSQL the twins of SQLite’s: the same numbers and names, so a schema version means the same on both backends', () => {
    const sqlite = listSqliteMigrations().map((m) => `${m.version}_${m.name}`);
    const postgres = listPostgresMigrations().map((m) => `${m.version}_${m.name}`);
    assert.deepEqual(postgres, sqlite, 'each server/store/sqlite/migrations/NNN_name.sql needs server/store/postgres/migrations/NNN_name.sql');
  });
});
