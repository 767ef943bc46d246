-- Bounded login state: a periodic sweep (server/auth/sweep.ts) deletes what can never be used again,
-- in small batches found through these indexes. Times are epoch milliseconds.

-- When a family's last token lapses: its newest refresh token's expiry, or the expiry of the access
-- token issued with it when that is later. Until then every rotated refresh token of the family is
-- kept (reuse detection); after it the whole family goes. Kept up to date on every rotation.
ALTER TABLE token_families ADD COLUMN expires_at INTEGER;
UPDATE token_families SET expires_at = (
  SELECT max(max(r.expires_at, r.created_at + token_families.access_ttl_s * 1000))
  FROM refresh_tokens r WHERE r.family_id = token_families.id
);
CREATE INDEX token_families_expiry ON token_families(expires_at);

CREATE INDEX authorize_transactions_expiry ON authorize_transactions(expires_at);
CREATE INDEX authorize_transactions_consumed ON authorize_transactions(consumed_at) WHERE consumed_at IS NOT NULL;
CREATE INDEX authorization_codes_expiry ON authorization_codes(expires_at);
CREATE INDEX apple_web_attempts_consumed ON apple_web_attempts(consumed_at) WHERE consumed_at IS NOT NULL;
