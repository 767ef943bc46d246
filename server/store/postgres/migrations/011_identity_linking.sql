-- Apple notifications and identity linking: the PostgreSQL twin of
-- server/store/sqlite/migrations/011_identity_linking.sql. Times are epoch milliseconds.

-- Apple's email-disabled / email-enabled: whether mail to the identity's relay address is
-- forwarded. NULL: Apple never said (every identity before this migration, every Google one).
ALTER TABLE user_identities ADD COLUMN email_forwarding TEXT CHECK (email_forwarding IN ('enabled', 'disabled'));

-- The provider whose sign-in opened the family (`apple`, `google`), so Apple's consent-revoked
-- ends only the sessions Apple's sign-in opened. NULL: opened before this migration, unknown,
-- treated as not Apple's. A downstream code carries it from the login to the family it makes.
ALTER TABLE token_families ADD COLUMN provider TEXT;
ALTER TABLE authorization_codes ADD COLUMN provider TEXT;
CREATE INDEX token_families_user_provider ON token_families(user_id, provider);

-- Apple notifications already processed, by their `jti`: once per jti across replicas (the
-- primary key), kept 30 days (expires_at) and then deleted by the periodic sweep.
CREATE TABLE apple_notifications (
  realm_id     TEXT NOT NULL REFERENCES realms(id),
  jti          TEXT NOT NULL,
  received_at  BIGINT NOT NULL,
  expires_at   BIGINT NOT NULL,
  PRIMARY KEY (realm_id, jti)
);
CREATE INDEX apple_notifications_expiry ON apple_notifications(expires_at);
