-- The twin of server/store/sqlite/migrations/021_consumed_event_marks.sql: a consumption's
-- points.consumed event kept as a mark on its movement until the relay hands it out. The index
-- holds the id too: PostgreSQL's generic plans then read the marks in order, sorting nothing.
ALTER TABLE points_transactions ADD COLUMN event_pending BOOLEAN;
CREATE INDEX points_transactions_event_pending ON points_transactions(created_at, id COLLATE "C") WHERE event_pending IS NOT NULL;
