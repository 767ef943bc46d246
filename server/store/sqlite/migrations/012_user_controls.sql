-- User-level controls and the claims /userinfo answers (OpenID Connect Core §5.1). Times are epoch
-- milliseconds.

-- When an account's claims (its name) last changed; NULL: never since it was created.
ALTER TABLE users ADD COLUMN updated_at INTEGER;
-- When an operator disabled the account (every login refused, every token family revoked); NULL:
-- enabled.
ALTER TABLE users ADD COLUMN disabled_at INTEGER;

-- Whether a native login to this provider must carry a nonce (docs/login.md): the only defence
-- against a captured ID token being replayed. Off by default, as before.
ALTER TABLE providers ADD COLUMN require_nonce INTEGER NOT NULL DEFAULT 0;
