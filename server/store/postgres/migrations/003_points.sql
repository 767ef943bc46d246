-- Points and billing (docs/points.md): the PostgreSQL twin of server/store/sqlite/migrations/003_points.sql.
-- Times are epoch milliseconds; window lists are JSON arrays of {windowSeconds, limit}, kept as text.

-- The realm default points configuration. free_periodic_quota_windows NULL = never set.
CREATE TABLE points_default_config (
  realm_id                        TEXT PRIMARY KEY REFERENCES realms(id),
  registration_bonus_points       BIGINT NOT NULL DEFAULT 0,
  free_periodic_points_amount     BIGINT NOT NULL DEFAULT 0,
  free_periodic_grant_period_type TEXT NOT NULL DEFAULT 'monthly',
  free_periodic_validity_days     BIGINT NOT NULL DEFAULT 0,
  free_periodic_quota_windows     TEXT,
  updated_at                      BIGINT NOT NULL
);

CREATE TABLE entitlement_mappings (
  id                  TEXT PRIMARY KEY,
  realm_id            TEXT NOT NULL REFERENCES realms(id),
  payment_provider    TEXT NOT NULL,
  external_product_id TEXT NOT NULL,
  entitlement_key     TEXT NOT NULL,
  billing_type        TEXT NOT NULL,
  billing_period      TEXT NOT NULL,
  points_per_period   BIGINT NOT NULL,
  grant_period_type   TEXT NOT NULL,
  validity_days       BIGINT NOT NULL,
  grant_on_subscribe  BOOLEAN NOT NULL,
  max_periods         BIGINT NOT NULL,
  enabled             BOOLEAN NOT NULL,
  quota_windows       TEXT,              -- NULL = no windows (a fixed grant)
  created_at          BIGINT NOT NULL,
  updated_at          BIGINT NOT NULL
);
CREATE INDEX entitlement_mappings_product ON entitlement_mappings(realm_id, payment_provider, external_product_id);

-- A subscription keeps a snapshot of its mapping's grant terms (the snapshot rule).
CREATE TABLE subscriptions (
  id                       TEXT PRIMARY KEY,
  realm_id                 TEXT NOT NULL REFERENCES realms(id),
  user_id                  TEXT NOT NULL REFERENCES users(id),
  mapping_id               TEXT NOT NULL REFERENCES entitlement_mappings(id),
  external_subscription_id TEXT,
  status                   TEXT NOT NULL CHECK (status IN ('active', 'canceled')),
  terms                    TEXT NOT NULL,   -- JSON snapshot of the mapping's grant terms
  started_at               BIGINT NOT NULL,
  canceled_at              BIGINT
);
CREATE INDEX subscriptions_mapping_active ON subscriptions(mapping_id) WHERE status = 'active';
CREATE INDEX subscriptions_user ON subscriptions(user_id, status);
CREATE UNIQUE INDEX subscriptions_external ON subscriptions(realm_id, external_subscription_id) WHERE external_subscription_id IS NOT NULL;

-- Balances: the three pools and fixed quota grants. One row per grant; `source` makes lazily
-- materialised grants idempotent (registration, free:<period start>, sub:<id>:<period>, grant:<id>).
CREATE TABLE points_balances (
  id          TEXT PRIMARY KEY,
  realm_id    TEXT NOT NULL,
  user_id     TEXT NOT NULL REFERENCES users(id),
  kind        TEXT NOT NULL CHECK (kind IN ('topup_credit', 'registration_credit', 'granted_credit', 'subscription_credit', 'free_periodic_credit')),
  amount      BIGINT NOT NULL,
  remaining   BIGINT NOT NULL CHECK (remaining >= 0),
  expires_at  BIGINT,                  -- NULL = never
  ended_at    BIGINT,                  -- set when its subscription is canceled
  source      TEXT NOT NULL,
  created_at  BIGINT NOT NULL,
  UNIQUE (user_id, source)
);
CREATE INDEX points_balances_live ON points_balances(user_id) WHERE remaining > 0 AND ended_at IS NULL;

-- Window entitlements: a quota grant with windows carries a snapshot of them.
CREATE TABLE points_window_entitlements (
  id          TEXT PRIMARY KEY,
  realm_id    TEXT NOT NULL,
  user_id     TEXT NOT NULL REFERENCES users(id),
  kind        TEXT NOT NULL CHECK (kind IN ('subscription_credit', 'free_periodic_credit')),
  windows     TEXT NOT NULL,           -- JSON snapshot, 1–8 rows
  starts_at   BIGINT NOT NULL,
  ends_at     BIGINT,                  -- NULL = until ended (cancel); else expiry
  source      TEXT NOT NULL,
  created_at  BIGINT NOT NULL,
  UNIQUE (user_id, source)
);
CREATE INDEX points_window_entitlements_user ON points_window_entitlements(user_id, kind);

-- Window usage per (user, quota kind) as a running-total ledger: used(W) = cum_now − cum_at(now − W),
-- two index seeks per window whatever the history length. Rows older than the longest window ever
-- snapshotted for (user, kind) are pruned; `cum` is absolute, so pruning never changes an answer.
CREATE TABLE points_usage_heads (
  user_id       TEXT NOT NULL,
  kind          TEXT NOT NULL,
  seq           BIGINT NOT NULL,       -- seq of the newest ledger row
  cum           BIGINT NOT NULL,       -- running total at the newest row
  last_at       BIGINT NOT NULL,
  retention_ms  BIGINT NOT NULL,       -- the longest window ever snapshotted for (user, kind)
  PRIMARY KEY (user_id, kind)
);
CREATE TABLE points_usage_ledger (
  user_id  TEXT NOT NULL,
  kind     TEXT NOT NULL,
  at       BIGINT NOT NULL,            -- non-decreasing with seq
  seq      BIGINT NOT NULL,
  amount   BIGINT NOT NULL,
  cum      BIGINT NOT NULL,            -- running total including this row
  PRIMARY KEY (user_id, kind, at, seq)
);

-- Accepted consumes, with their allocations (JSON) for audit and idempotent replay.
CREATE TABLE points_transactions (
  id           TEXT PRIMARY KEY,
  realm_id     TEXT NOT NULL,
  user_id      TEXT NOT NULL,
  amount       BIGINT NOT NULL,
  description  TEXT,
  allocations  TEXT NOT NULL,
  created_at   BIGINT NOT NULL
);
CREATE INDEX points_transactions_user ON points_transactions(user_id, created_at);

-- Idempotency keys: a hash of the request and the first answer. The primary key makes a key
-- unique in the database, whichever replica writes it first.
CREATE TABLE points_idempotency (
  realm_id      TEXT NOT NULL,
  scope         TEXT NOT NULL,         -- consume | grant
  key           TEXT NOT NULL,
  request_hash  TEXT NOT NULL,
  response      TEXT NOT NULL,
  created_at    BIGINT NOT NULL,
  PRIMARY KEY (realm_id, scope, key)
);
