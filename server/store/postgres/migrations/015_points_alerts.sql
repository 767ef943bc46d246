-- Points alerts: the PostgreSQL twin of server/store/sqlite/migrations/015_points_alerts.sql (docs/events.md,
-- docs/events.md). Times are epoch milliseconds; JSON is text.

CREATE TABLE points_alert_config (
  realm_id                TEXT PRIMARY KEY REFERENCES realms(id),
  low_balance_thresholds  TEXT NOT NULL,     -- JSON array of positive integers, ascending
  quota_exhausted         BOOLEAN NOT NULL,
  quota_recovered         BOOLEAN NOT NULL,
  updated_at              BIGINT NOT NULL
);

CREATE TABLE points_alert_state (
  user_id           TEXT PRIMARY KEY,
  realm_id          TEXT NOT NULL,
  fired_thresholds  TEXT NOT NULL,           -- JSON array: reported, disarmed until the total is back
  exhaustions       TEXT NOT NULL            -- JSON array of {creditKind, windowSeconds, recoversAt}
);

-- Retention of stored idempotency answers (docs/events.md): found by age across realms.
CREATE INDEX points_idempotency_created ON points_idempotency(created_at);
