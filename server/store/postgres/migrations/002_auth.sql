-- Login sessions and OAuth state (docs/login.md): the PostgreSQL twin of
-- server/store/sqlite/migrations/002_auth.sql. Times are epoch milliseconds.
-- Secrets (refresh tokens, authorization codes) are stored only as their SHA-256 hex.

-- Per-realm signing keys of gatehouse's own access tokens (Ed25519), created lazily.
CREATE TABLE signing_keys (
  kid          TEXT PRIMARY KEY,
  realm_id     TEXT NOT NULL REFERENCES realms(id),
  alg          TEXT NOT NULL,
  private_pem  TEXT NOT NULL,             -- PKCS#8
  public_jwk   TEXT NOT NULL,             -- JSON
  created_at   BIGINT NOT NULL,
  retired_at   BIGINT
);
CREATE INDEX signing_keys_realm ON signing_keys(realm_id, created_at);

-- A token family: one login (or one code exchange) and every refresh token rotated from it.
CREATE TABLE token_families (
  id              TEXT PRIMARY KEY,
  realm_id        TEXT NOT NULL REFERENCES realms(id),
  user_id         TEXT NOT NULL REFERENCES users(id),
  client_id       TEXT NOT NULL,
  ip              TEXT NOT NULL,            -- the issuing client IP
  ip_binding      TEXT NOT NULL CHECK (ip_binding IN ('off', 'exact', 'subnet')),
  access_ttl_s    BIGINT NOT NULL,
  refresh_ttl_s   BIGINT NOT NULL,
  created_at      BIGINT NOT NULL,
  revoked_at      BIGINT,
  revoked_reason  TEXT
);
CREATE INDEX token_families_user ON token_families(user_id);

CREATE TABLE refresh_tokens (
  token_hash   TEXT PRIMARY KEY,
  family_id    TEXT NOT NULL REFERENCES token_families(id),
  created_at   BIGINT NOT NULL,
  expires_at   BIGINT NOT NULL,
  rotated_at   BIGINT                     -- set when exchanged; presenting it again revokes the family
);
CREATE INDEX refresh_tokens_family ON refresh_tokens(family_id);

-- Downstream authorization transactions started at /authorize (the OAuth `state`).
CREATE TABLE authorize_transactions (
  realm_id        TEXT NOT NULL REFERENCES realms(id),
  state           TEXT NOT NULL,
  client_id       TEXT NOT NULL,
  redirect_uri    TEXT NOT NULL,
  code_challenge  TEXT NOT NULL,
  scope           TEXT NOT NULL DEFAULT '',
  created_at      BIGINT NOT NULL,
  expires_at      BIGINT NOT NULL,
  consumed_at     BIGINT,
  PRIMARY KEY (realm_id, state)
);

-- One-time authorization codes (`ac_…`) issued by native login's downstream branch.
CREATE TABLE authorization_codes (
  code_hash       TEXT PRIMARY KEY,
  realm_id        TEXT NOT NULL REFERENCES realms(id),
  client_id       TEXT NOT NULL,
  redirect_uri    TEXT NOT NULL,
  code_challenge  TEXT NOT NULL,
  scope           TEXT NOT NULL DEFAULT '',
  user_id         TEXT NOT NULL REFERENCES users(id),
  ip              TEXT NOT NULL,
  created_at      BIGINT NOT NULL,
  expires_at      BIGINT NOT NULL,
  used_at         BIGINT,
  family_id       TEXT                      -- the family issued from it (revoked on replay)
);
