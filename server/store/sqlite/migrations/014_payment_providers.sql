-- Payment providers drive subscriptions (README "Selling plans through the App Store and Stripe"). Times are epoch milliseconds.

-- The user's stable UUID for StoreKit's appAccountToken: the App Store echoes it in every
-- transaction, and it names the user. Filled for existing users here, for new ones by the trigger
-- (a random version 4 UUID, RFC 9562 §5.4).
ALTER TABLE users ADD COLUMN app_account_token TEXT;
UPDATE users SET app_account_token = lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-'
  || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)));
CREATE UNIQUE INDEX users_app_account_token ON users(app_account_token);
CREATE TRIGGER users_app_account_token AFTER INSERT ON users WHEN NEW.app_account_token IS NULL
BEGIN
  UPDATE users SET app_account_token = lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-'
    || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))
  WHERE id = NEW.id;
END;

-- A realm's settings per payment provider: App Store {bundleId, appAppleId, environments};
-- Stripe's endpoint secret is write-only (never returned by a read).
CREATE TABLE billing_provider_settings (
  realm_id       TEXT NOT NULL REFERENCES realms(id),
  provider       TEXT NOT NULL CHECK (provider IN ('app_store', 'stripe')),
  settings       TEXT NOT NULL,   -- JSON, no secret
  secret         TEXT,            -- write-only
  updated_at     INTEGER NOT NULL,
  PRIMARY KEY (realm_id, provider)
);

-- Every verified notification, once per provider id (notificationUUID, Stripe event id): what it
-- said (enough to apply it again) and what it did.
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
  facts                    TEXT NOT NULL,   -- JSON: the verified fields the decision reads
  duplicates               INTEGER NOT NULL DEFAULT 0,
  provider_at              INTEGER NOT NULL,
  received_at              INTEGER NOT NULL,
  applied_at               INTEGER
);
CREATE UNIQUE INDEX billing_notifications_external ON billing_notifications(realm_id, provider, external_id);
CREATE INDEX billing_notifications_listing ON billing_notifications(realm_id, received_at, id);

-- Where a provider's subscription (App Store original transaction, Stripe subscription) stands:
-- the newest provider time applied (older notifications change nothing) and the gatehouse
-- subscription it drives.
CREATE TABLE billing_provider_subscriptions (
  realm_id                 TEXT NOT NULL REFERENCES realms(id),
  provider                 TEXT NOT NULL,
  external_subscription_id TEXT NOT NULL,
  user_id                  TEXT NOT NULL REFERENCES users(id),
  external_product_id      TEXT NOT NULL,
  active                   INTEGER NOT NULL,
  provider_at              INTEGER NOT NULL,
  subscription_id          TEXT REFERENCES subscriptions(id),
  PRIMARY KEY (realm_id, provider, external_subscription_id)
);

-- A payment provider's verified notification is the actor of its effect's audit record (README
-- "Selling plans through the App Store and Stripe"): the actor types gain app_store and stripe. SQLite changes a CHECK by rebuilding the table
-- (sqlite.org/lang_altertable.html, "other kinds of table schema changes"), its indexes (010's and
-- 013's) made again.
CREATE TABLE audit_log_014 (
  id          TEXT PRIMARY KEY,
  at          INTEGER NOT NULL,
  realm_id    TEXT NOT NULL,
  actor_type  TEXT NOT NULL CHECK (actor_type IN ('api_key', 'user', 'apple', 'system', 'app_store', 'stripe')),
  actor_id    TEXT NOT NULL,
  action      TEXT NOT NULL,
  target_id   TEXT NOT NULL,
  changes     TEXT NOT NULL,              -- JSON {field: {before, after}}, secrets "[redacted]"
  request_id  TEXT
);
INSERT INTO audit_log_014 SELECT id, at, realm_id, actor_type, actor_id, action, target_id, changes, request_id FROM audit_log;
DROP TABLE audit_log;
ALTER TABLE audit_log_014 RENAME TO audit_log;
CREATE INDEX audit_log_realm ON audit_log(realm_id, at, id);
CREATE INDEX audit_log_target ON audit_log(realm_id, target_id, at, id);
CREATE INDEX audit_log_at ON audit_log(at);
