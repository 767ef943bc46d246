-- The twin of server/store/sqlite/migrations/019_family_index.sql: token_families_user_provider
-- (011) starts with user_id and serves every lookup token_families_user did.
DROP INDEX token_families_user;
