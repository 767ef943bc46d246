-- Signing-key rotation (docs/security.md): a realm has one current key (retired_at NULL); a
-- rotated one keeps a retired_at in the future, published and verifying until then. The index
-- makes a second current key impossible, whatever races.
CREATE UNIQUE INDEX signing_keys_current ON signing_keys(realm_id) WHERE retired_at IS NULL;
