-- Sign in with Apple on the web: the PostgreSQL twin of server/store/sqlite/migrations/004_apple_web.sql.
-- Times are epoch milliseconds.

-- The Services ID of the realm's Apple web flow: Apple's `client_id` on the authorize and token
-- endpoints and the `aud` of the ID tokens it returns there ('' = web flow not configured). Native
-- login keeps using `client_id` (the bundle id) and `additional_client_ids`.
ALTER TABLE providers ADD COLUMN web_client_id TEXT NOT NULL DEFAULT '';

-- Web login attempts: started by GET …/apple/login, consumed once by POST …/apple/callback.
-- The `state` sent to Apple is stored only as its SHA-256 hex; `nonce` is the raw value whose
-- SHA-256 hex Apple echoes in the ID token (the same nonce rule as native login).
CREATE TABLE apple_web_attempts (
  state_hash        TEXT PRIMARY KEY,
  realm_id          TEXT NOT NULL REFERENCES realms(id),
  client_id         TEXT NOT NULL,
  downstream_state  TEXT,
  nonce             TEXT NOT NULL,
  created_at        BIGINT NOT NULL,
  expires_at        BIGINT NOT NULL,
  consumed_at       BIGINT
);
CREATE INDEX apple_web_attempts_expiry ON apple_web_attempts(expires_at);
