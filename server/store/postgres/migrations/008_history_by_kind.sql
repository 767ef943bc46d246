-- Listing one kind of movement (docs/points.md, history): the PostgreSQL twin of
-- server/store/sqlite/migrations/008_history_by_kind.sql. One index range whatever the kind, the kind a
-- parameter of one generic plan (the partial index of 007 served only the kinds other than consume,
-- named apart as a literal).
DROP INDEX points_transactions_user_kind;
CREATE INDEX points_transactions_user_kind ON points_transactions(user_id, kind, created_at, id COLLATE "C");
