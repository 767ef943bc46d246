-- Points alerts (docs/events.md): a realm's configuration, and per user what its
-- earlier alerts left (server/points/alerts.ts AlertState). Times are epoch milliseconds; JSON is text.

CREATE TABLE points_alert_config (
  realm_id                TEXT PRIMARY KEY REFERENCES realms(id),
  low_balance_thresholds  TEXT NOT NULL,     -- JSON array of positive integers, ascending
  quota_exhausted         INTEGER NOT NULL,
  quota_recovered         INTEGER NOT NULL,
  updated_at              INTEGER NOT NULL
);

CREATE TABLE points_alert_state (
  user_id           TEXT PRIMARY KEY,
  realm_id          TEXT NOT NULL,
  fired_thresholds  TEXT NOT NULL,           -- JSON array: reported, disarmed until the total is back
  exhaustions       TEXT NOT NULL            -- JSON array of {creditKind, windowSeconds, recoversAt}
);

-- Retention of stored idempotency answers (docs/events.md): found by age across realms.
CREATE INDEX points_idempotency_created ON points_idempotency(created_at);
