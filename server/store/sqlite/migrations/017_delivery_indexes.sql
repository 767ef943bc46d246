-- The due jobs by when they are due (server/store/record-rows.ts dueSql): a claim reads the oldest
-- due jobs up to its limit along this index and stops there, instead of reading and sorting every
-- due job found through one index per status. The two indexes it replaces served nothing else.
CREATE INDEX jobs_due ON jobs (coalesce(lease_until, run_at), id) WHERE status IN ('pending', 'running');
DROP INDEX jobs_pending;
DROP INDEX jobs_running;
