-- Webhook endpoints, their deliveries and every attempt: the PostgreSQL twin of
-- server/store/sqlite/migrations/013_webhooks.sql (docs/events.md). A delivery
-- is a job of the durable queue (010's `jobs`, kind `webhook.deliver`): its id is the job's id.
-- Times are epoch milliseconds; JSON is text.

CREATE TABLE webhooks (
  id                          TEXT PRIMARY KEY,   -- whk_…
  realm_id                    TEXT NOT NULL REFERENCES realms(id),
  url                         TEXT NOT NULL,
  event_types                 TEXT NOT NULL,      -- JSON array of types, or ["*"]
  description                 TEXT NOT NULL,
  enabled                     BOOLEAN NOT NULL,
  secret                      TEXT NOT NULL,      -- whsec_…: a secret at rest
  previous_secret             TEXT,               -- signs too until previous_secret_expires_at
  previous_secret_expires_at  BIGINT,
  failing_since               BIGINT,            -- the first failed attempt since the last success
  created_at                  BIGINT NOT NULL,
  updated_at                  BIGINT NOT NULL
);
CREATE INDEX webhooks_realm ON webhooks(realm_id, created_at, id);

CREATE TABLE webhook_deliveries (
  id          TEXT PRIMARY KEY,                   -- the job's id
  webhook_id  TEXT NOT NULL,
  realm_id    TEXT NOT NULL,
  event_id    TEXT NOT NULL,
  event_type  TEXT NOT NULL,
  created_at  BIGINT NOT NULL
);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries(webhook_id, created_at, id);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries(event_id);

CREATE TABLE webhook_attempts (
  id           TEXT PRIMARY KEY,                  -- wha_…
  delivery_id  TEXT NOT NULL,
  webhook_id   TEXT NOT NULL,
  at           BIGINT NOT NULL,
  http_status  INTEGER,                           -- null when no answer came
  error        TEXT,                              -- null when a 2xx came back
  duration_ms  BIGINT NOT NULL
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts(delivery_id, at, id);

-- Retention (docs/events.md): handed-out events and their deliveries after 30 days, audit records
-- after --audit-retention-days, found by age across realms.
CREATE INDEX events_dispatched ON events(created_at) WHERE dispatched_at IS NOT NULL;
CREATE INDEX audit_log_at ON audit_log(at);
