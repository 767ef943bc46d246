-- Account lifecycle, events and audit (docs/login.md "Deleting an account"): the PostgreSQL twin of
-- server/store/sqlite/migrations/010_account_lifecycle.sql. Times are epoch milliseconds; JSON is text.

-- What stays of a deleted account: no personal data.
CREATE TABLE user_tombstones (
  user_id     TEXT PRIMARY KEY,
  realm_id    TEXT NOT NULL REFERENCES realms(id),
  deleted_at  BIGINT NOT NULL
);

-- A deleted account's row stays (its cancelled subscriptions and revoked sessions point at it), its
-- email and names erased; every lookup of a user skips it.
ALTER TABLE users ADD COLUMN deleted_at BIGINT;

-- Per identity of a deleted account, the SHA-256 hex of `provider:subject`: a new sign-in with that
-- subject creates a new account but no second registration credit.
CREATE TABLE deleted_subjects (
  realm_id      TEXT NOT NULL REFERENCES realms(id),
  subject_hash  TEXT NOT NULL,
  user_id       TEXT NOT NULL,
  deleted_at    BIGINT NOT NULL,
  PRIMARY KEY (realm_id, subject_hash)
);

-- What the deletion removes, found by user: a stored idempotency answer (by the user it answered
-- for: every answer names its userId) and unused codes.
ALTER TABLE points_idempotency ADD COLUMN user_id TEXT;
UPDATE points_idempotency SET user_id = response::json ->> 'userId';
CREATE INDEX points_idempotency_user ON points_idempotency(user_id) WHERE user_id IS NOT NULL;
CREATE INDEX authorization_codes_user ON authorization_codes(user_id);

-- The refresh token Apple's token endpoint returned to the web flow, revoked when the account is
-- deleted. Never returned by an API, never logged.
ALTER TABLE user_identities ADD COLUMN apple_refresh_token TEXT;

-- The transactional outbox: written in the transaction of the change it reports; a relay
-- marks `dispatched_at` once the event has been handed to its deliveries.
CREATE TABLE events (
  id             TEXT PRIMARY KEY,        -- evt_…
  type           TEXT NOT NULL,
  realm_id       TEXT NOT NULL,
  created_at     BIGINT NOT NULL,
  data           TEXT NOT NULL,           -- JSON: ids and figures, never a token or secret
  dispatched_at  BIGINT
);
CREATE INDEX events_undispatched ON events(created_at, id) WHERE dispatched_at IS NULL;
CREATE INDEX events_realm ON events(realm_id, created_at, id);

-- The audit log, newest first per realm ('*' for global).
CREATE TABLE audit_log (
  id          TEXT PRIMARY KEY,           -- aud_…
  at          BIGINT NOT NULL,
  realm_id    TEXT NOT NULL,
  actor_type  TEXT NOT NULL CHECK (actor_type IN ('api_key', 'user', 'apple', 'system')),
  actor_id    TEXT NOT NULL,
  action      TEXT NOT NULL,
  target_id   TEXT NOT NULL,
  changes     TEXT NOT NULL,              -- JSON {field: {before, after}}, secrets "[redacted]"
  request_id  TEXT
);
CREATE INDEX audit_log_realm ON audit_log(realm_id, at, id);
CREATE INDEX audit_log_target ON audit_log(realm_id, target_id, at, id);

-- The durable job queue (Apple revocations, webhook deliveries): a replica claims a due job by
-- taking its lease; a job whose lease ran out (its replica died) is due again. server/jobs/ decides
-- retries, backoff and giving up.
CREATE TABLE jobs (
  id           TEXT PRIMARY KEY,          -- job_…
  kind         TEXT NOT NULL,
  realm_id     TEXT NOT NULL,
  payload      TEXT NOT NULL,             -- JSON, never a secret
  secret       TEXT,                      -- what the job needs that is a secret (an Apple token)
  status       TEXT NOT NULL CHECK (status IN ('pending', 'running', 'done', 'failed')),
  attempts     INTEGER NOT NULL DEFAULT 0,
  run_at       BIGINT NOT NULL,
  lease_owner  TEXT,
  lease_until  BIGINT,
  give_up_at   BIGINT NOT NULL,
  last_error   TEXT,
  created_at   BIGINT NOT NULL,
  updated_at   BIGINT NOT NULL
);
CREATE INDEX jobs_pending ON jobs(run_at) WHERE status = 'pending';
CREATE INDEX jobs_running ON jobs(lease_until) WHERE status = 'running';
