-- A consumption's points.consumed event kept as a mark on the movement it records (docs/events.md
-- "The outbox"): the event is a function of that row (server/points/events.ts consumedEvent), so a
-- consume owed to an endpoint writes no outbox row of its own, only this column in the row it
-- writes anyway. The relay hands marked movements out with the outbox's events, oldest first,
-- writing each as a dispatched event row, and clears the mark in the same transaction. The index
-- is by time alone, its entries a quarter of what they would be with the id (fewer pages written
-- per commit); the few marks of one millisecond are put in id order as they are read.
ALTER TABLE points_transactions ADD COLUMN event_pending INTEGER;           -- 1 while its event is owed, else NULL
CREATE INDEX points_transactions_event_pending ON points_transactions(created_at) WHERE event_pending IS NOT NULL;
