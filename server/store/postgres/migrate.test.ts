import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listMigrations } from '../migrate.ts';
import { listPostgresMigrations } from './migrate.ts';

describe('PostgreSQL migrations', () => {
  it('are the twins of the SQLite ones: the same numbers and names, so a schema version means the same on both backends', () => {
    const sqlite = listMigrations().map((m) => `${m.version}_${m.name}`);
    const postgres = listPostgresMigrations().map((m) => `${m.version}_${m.name}`);
    assert.deepEqual(postgres, sqlite, 'each server/store/migrations/NNN_name.sql needs server/store/postgres/migrations/NNN_name.sql');
  });
});
