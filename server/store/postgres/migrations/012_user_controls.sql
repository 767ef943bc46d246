-- User-level controls and the claims /userinfo answers: the PostgreSQL twin of
-- server/store/sqlite/migrations/012_user_controls.sql. Times are epoch milliseconds.

-- When an account's claims (its name) last changed; NULL: never since it was created.
ALTER TABLE users ADD COLUMN updated_at BIGINT;
-- When an operator disabled the account (every login refused, every token family revoked); NULL:
-- enabled.
ALTER TABLE users ADD COLUMN disabled_at BIGINT;

-- Whether a native login to this provider must carry a nonce (docs/login.md): the only defence
-- against a captured ID token being replayed. Off by default, as before.
ALTER TABLE providers ADD COLUMN require_nonce BOOLEAN NOT NULL DEFAULT false;
