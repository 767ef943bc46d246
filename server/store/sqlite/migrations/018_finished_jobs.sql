-- Retention of finished jobs (docs/events.md "Retention"): the periodic sweep deletes the jobs done or
-- failed 30 days ago along this index, oldest first. Webhook deliveries are not in it: they go with
-- their events (webhook-store pruneEvents), and their finishing writes no entry here.
CREATE INDEX jobs_finished ON jobs (updated_at) WHERE status IN ('done', 'failed') AND kind <> 'webhook.deliver';
