-- Retention of finished jobs: the twin of server/store/sqlite/migrations/018_finished_jobs.sql.
CREATE INDEX jobs_finished ON jobs (updated_at) WHERE status IN ('done', 'failed') AND kind <> 'webhook.deliver';
