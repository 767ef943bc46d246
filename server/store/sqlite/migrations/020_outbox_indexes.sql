-- Nothing but the storage tests reads the outbox by realm (deliveries are read by endpoint, the
-- relay by events_undispatched, retention by events_dispatched): events_realm (010) only cost each
-- event written, on every consume of a realm with an endpoint, one more B-tree to write.
DROP INDEX events_realm;
