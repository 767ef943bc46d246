-- Payment providers drive subscriptions: the PostgreSQL twin of
-- server/store/sqlite/migrations/014_payment_providers.sql. Times are epoch milliseconds.

-- The user's stable UUID for StoreKit's appAccountToken (filled for existing users, the default
-- for new ones; gen_random_uuid is built in from PostgreSQL 13).
ALTER TABLE users ADD COLUMN app_account_token TEXT NOT NULL DEFAULT gen_random_uuid()::text;
CREATE UNIQUE INDEX users_app_account_token ON users(app_account_token);

CREATE TABLE billing_provider_settings (
  realm_id       TEXT NOT NULL REFERENCES realms(id),
  provider       TEXT NOT NULL CHECK (provider IN ('app_store', 'stripe')),
  settings       TEXT NOT NULL,
  secret         TEXT,
  updated_at     BIGINT NOT NULL,
  PRIMARY KEY (realm_id, provider)
);

CREATE TABLE billing_notifications (
  id                       TEXT PRIMARY KEY,
  realm_id                 TEXT NOT NULL REFERENCES realms(id),
  provider                 TEXT NOT NULL,
  external_id              TEXT NOT NULL,
  type                     TEXT NOT NULL,
  status                   TEXT NOT NULL CHECK (status IN ('applied', 'unmatched', 'ignored')),
  reason                   TEXT NOT NULL DEFAULT '',
  user_id                  TEXT,
  external_product_id      TEXT NOT NULL DEFAULT '',
  external_subscription_id TEXT NOT NULL DEFAULT '',
  subscription_id          TEXT,
  facts                    TEXT NOT NULL,
  duplicates               BIGINT NOT NULL DEFAULT 0,
  provider_at              BIGINT NOT NULL,
  received_at              BIGINT NOT NULL,
  applied_at               BIGINT
);
CREATE UNIQUE INDEX billing_notifications_external ON billing_notifications(realm_id, provider, external_id);
CREATE INDEX billing_notifications_listing ON billing_notifications(realm_id, received_at, id);

CREATE TABLE billing_provider_subscriptions (
  realm_id                 TEXT NOT NULL REFERENCES realms(id),
  provider                 TEXT NOT NULL,
  external_subscription_id TEXT NOT NULL,
  user_id                  TEXT NOT NULL REFERENCES users(id),
  external_product_id      TEXT NOT NULL,
  active                   BOOLEAN NOT NULL,
  provider_at              BIGINT NOT NULL,
  subscription_id          TEXT REFERENCES subscriptions(id),
  PRIMARY KEY (realm_id, provider, external_subscription_id)
);

-- A payment provider's verified notification is the actor of its effect's audit record.
ALTER TABLE audit_log DROP CONSTRAINT audit_log_actor_type_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_actor_type_check CHECK (actor_type IN ('api_key', 'user', 'apple', 'system', 'app_store', 'stripe'));
