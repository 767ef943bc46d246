// Migration 014 on SQLite: a user stored before it gets an appAccountToken (a version 4 UUID of its
// own), and the audit log rebuilt to name the payment providers keeps every record.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { listSqliteMigrations, migrate } from './migrate.ts';

const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('migration 014 (SQLite)', () => {
  it('gives users stored before it a UUID each, new users theirs, and keeps the audit log', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
    for (const m of listSqliteMigrations().filter((x) => x.version < 14)) {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, 0)').run(m.version, m.name);
    }
    db.exec(`INSERT INTO realms (id, name, created_at) VALUES ('r', 'r', 0);
      INSERT INTO users (id, realm_id, email, created_at) VALUES ('usr_a', 'r', 'a@example.com', 0), ('usr_b', 'r', 'b@example.com', 0);
      INSERT INTO audit_log (id, at, realm_id, actor_type, actor_id, action, target_id, changes, request_id)
        VALUES ('aud_1', 1, 'r', 'api_key', 'key_1', 'user.delete', 'usr_x', '{}', NULL)`);
    assert.equal(migrate(db), listSqliteMigrations().filter((x) => x.version >= 14).length);
    const tokens = db.prepare('SELECT app_account_token FROM users ORDER BY id').pluck().all() as string[];
    assert.equal(tokens.length, 2);
    for (const t of tokens) assert.match(t, UUID4);
    assert.notEqual(tokens[0], tokens[1]);
    db.exec("INSERT INTO users (id, realm_id, email, created_at) VALUES ('usr_c', 'r', 'c@example.com', 0)");
    assert.match(db.prepare("SELECT app_account_token FROM users WHERE id = 'usr_c'").pluck().get() as string, UUID4);
    assert.equal(db.prepare("SELECT action FROM audit_log WHERE id = 'aud_1'").pluck().get(), 'user.delete');
    const indexes = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'audit_log' AND sql IS NOT NULL ORDER BY name")
      .pluck()
      .all();
    assert.deepEqual(indexes, ['audit_log_at', 'audit_log_realm', 'audit_log_target'], 'every index of the log made again');
    db.prepare(
      "INSERT INTO audit_log (id, at, realm_id, actor_type, actor_id, action, target_id, changes) VALUES ('aud_2', 2, 'r', 'stripe', 'stripe', 'subscription.activate', 'sub_1', '{}')",
    ).run();
    assert.throws(() =>
      db
        .prepare(
          "INSERT INTO audit_log (id, at, realm_id, actor_type, actor_id, action, target_id, changes) VALUES ('aud_3', 2, 'r', 'paypal', 'p', 'x', 'y', '{}')",
        )
        .run(),
    );
  });
});
