-- Signing-key rotation (docs/security.md), the PostgreSQL twin of
-- server/store/sqlite/migrations/009_signing_key_rotation.sql: one current key per realm (retired_at
-- NULL); a rotated one keeps a retired_at in the future, published and verifying until then.
CREATE UNIQUE INDEX signing_keys_current ON signing_keys(realm_id) WHERE retired_at IS NULL;

-- Every replica caches its keys: a rotation anywhere moves the cache version (001_core.sql), so
-- each sees it on its next call.
CREATE TRIGGER signing_keys_cache_version AFTER INSERT OR UPDATE OR DELETE ON signing_keys
  FOR EACH STATEMENT EXECUTE FUNCTION bump_cache_version();
