-- The twin of server/store/sqlite/migrations/020_outbox_indexes.sql: nothing but the storage tests
-- reads the outbox by realm, so events_realm (010) only cost each event written an index entry.
DROP INDEX events_realm;
