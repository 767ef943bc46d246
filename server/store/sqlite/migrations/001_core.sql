-- Realms, client applications, identity-provider configurations and API keys.
-- Times are epoch milliseconds.
CREATE TABLE realms (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL,
  created_at  INTEGER NOT NULL
);

CREATE TABLE clients (
  realm_id                  TEXT NOT NULL REFERENCES realms(id),
  client_id                 TEXT NOT NULL,
  name                      TEXT NOT NULL,
  type                      TEXT NOT NULL CHECK (type IN ('first_party', 'third_party')),
  redirect_uris             TEXT NOT NULL DEFAULT '[]', -- JSON array
  ip_binding                TEXT NOT NULL CHECK (ip_binding IN ('off', 'exact', 'subnet')),
  enabled                   INTEGER NOT NULL,
  access_token_ttl_seconds  INTEGER NOT NULL,
  refresh_token_ttl_seconds INTEGER NOT NULL,
  created_at                INTEGER NOT NULL,
  PRIMARY KEY (realm_id, client_id)
);

CREATE TABLE providers (
  realm_id              TEXT NOT NULL REFERENCES realms(id),
  provider              TEXT NOT NULL,
  client_id             TEXT NOT NULL,
  enabled               INTEGER NOT NULL,
  client_secret         TEXT,              -- write-only: never returned by a read
  additional_client_ids TEXT NOT NULL DEFAULT '[]',
  team_id               TEXT NOT NULL DEFAULT '',
  key_id                TEXT NOT NULL DEFAULT '',
  private_key           TEXT,              -- write-only (Apple .p8 PEM)
  updated_at            INTEGER NOT NULL,
  PRIMARY KEY (realm_id, provider)
);

CREATE TABLE api_keys (
  id          TEXT PRIMARY KEY,
  key_hash    TEXT NOT NULL UNIQUE,        -- SHA-256 hex of the key; the key itself is never stored
  realm       TEXT NOT NULL,               -- realm id or '*'
  permissions TEXT NOT NULL,               -- JSON array
  name        TEXT NOT NULL DEFAULT '',
  created_at  INTEGER NOT NULL,
  revoked_at  INTEGER
);

-- Accounts. The email is required and unique within a realm (docs/login.md).
CREATE TABLE users (
  id             TEXT PRIMARY KEY,
  realm_id       TEXT NOT NULL REFERENCES realms(id),
  email          TEXT NOT NULL,
  email_verified INTEGER NOT NULL DEFAULT 0,
  given_name     TEXT,
  family_name    TEXT,
  created_at     INTEGER NOT NULL,
  UNIQUE (realm_id, email)
);

-- A provider link: (provider, open_id = the ID token's `sub`) → user.
CREATE TABLE user_identities (
  realm_id    TEXT NOT NULL,
  provider    TEXT NOT NULL,
  subject     TEXT NOT NULL,
  user_id     TEXT NOT NULL REFERENCES users(id),
  email       TEXT,
  created_at  INTEGER NOT NULL,
  PRIMARY KEY (realm_id, provider, subject)
);
CREATE INDEX user_identities_user ON user_identities(user_id);
