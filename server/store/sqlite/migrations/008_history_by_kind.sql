-- Listing one kind of movement (docs/points.md, history): one index range whatever the kind. The
-- partial index of 007 (consumes left out) served a page only when the statement named the kind as
-- a literal; bound as a parameter, SQLite walked the user's whole history to fill a page of a rare
-- kind, and a page of consumes did the same for a user whose history is mostly holds.
DROP INDEX points_transactions_user_kind;
CREATE INDEX points_transactions_user_kind ON points_transactions(user_id, kind, created_at, id);
