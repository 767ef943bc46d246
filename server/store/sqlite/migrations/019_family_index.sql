-- token_families_user_provider (011) starts with user_id, so it serves every lookup of a user's
-- families that token_families_user did (revocation, deletion, the purge, the foreign key from
-- users): that index only cost each login's family insert one more B-tree to write.
DROP INDEX token_families_user;
