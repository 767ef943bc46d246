-- Holds, refunds and history (docs/points.md).

-- Quota that goes back returns to the ledger row it was drawn at: `returned` of the row (a row
-- given back whole is deleted), and the sums of the aligned seq blocks holding it
-- (points_usage_returns; level 0 is the row itself, level L a block of 16^L rows), so a window
-- subtracts what came back inside it in a few seeks.
ALTER TABLE points_usage_ledger ADD COLUMN returned INTEGER NOT NULL DEFAULT 0;
ALTER TABLE points_usage_heads ADD COLUMN returned INTEGER NOT NULL DEFAULT 0;
-- History is now kept for the longest allowed window (366 days) whatever the windows held.
ALTER TABLE points_usage_heads DROP COLUMN retention_ms;
CREATE TABLE points_usage_returns (
  user_id  TEXT NOT NULL,
  kind     TEXT NOT NULL,
  level    INTEGER NOT NULL,
  idx      INTEGER NOT NULL,
  amount   INTEGER NOT NULL,
  PRIMARY KEY (user_id, kind, level, idx)
) WITHOUT ROWID;

-- Every source of a grant the service gives by itself, once whatever its form (a balance, a
-- window entitlement, or nothing for a zero amount).
CREATE TABLE points_grants_given (
  user_id  TEXT NOT NULL,
  source   TEXT NOT NULL,
  PRIMARY KEY (user_id, source)
) WITHOUT ROWID;
INSERT OR IGNORE INTO points_grants_given (user_id, source) SELECT user_id, source FROM points_balances WHERE source NOT LIKE 'grant:%';
INSERT OR IGNORE INTO points_grants_given (user_id, source) SELECT user_id, source FROM points_window_entitlements;

-- Holds: lines are the allocations with their ledger rows (JSON).
CREATE TABLE points_holds (
  id              TEXT PRIMARY KEY,
  realm_id        TEXT NOT NULL,
  user_id         TEXT NOT NULL REFERENCES users(id),
  amount          INTEGER NOT NULL,
  lines           TEXT NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('open', 'settled', 'released', 'expired')),
  description     TEXT,
  created_at      INTEGER NOT NULL,
  expires_at      INTEGER NOT NULL,
  settled_amount  INTEGER,
  closed_at       INTEGER
);
CREATE INDEX points_holds_open ON points_holds(user_id, expires_at) WHERE status = 'open';
CREATE INDEX points_holds_closed ON points_holds(user_id, closed_at) WHERE status <> 'open';

-- The history: every movement of a user's points. A consume or settlement keeps its lines with
-- their ledger rows and what refunds have asked of them; `refunded` sums those.
ALTER TABLE points_transactions ADD COLUMN kind TEXT NOT NULL DEFAULT 'consume'
  CHECK (kind IN ('consume', 'grant', 'hold', 'settle', 'release', 'refund', 'expire'));
ALTER TABLE points_transactions ADD COLUMN related_id TEXT;
ALTER TABLE points_transactions ADD COLUMN refunded INTEGER NOT NULL DEFAULT 0;
DROP INDEX points_transactions_user;
CREATE INDEX points_transactions_user ON points_transactions(user_id, created_at, id);
-- Listing one kind: consumes, the bulk of most histories, go without (they are most of what the
-- user index walks anyway), so a consume writes no third index.
CREATE INDEX points_transactions_user_kind ON points_transactions(user_id, kind, created_at, id) WHERE kind <> 'consume';

-- The grants already made, as history rows (descriptions as points/history.ts words them).
INSERT OR IGNORE INTO points_transactions (id, realm_id, user_id, amount, description, allocations, created_at, kind)
  SELECT id, realm_id, user_id, amount,
    CASE WHEN source = 'registration' THEN 'Registration credit'
         WHEN source LIKE 'free:%' THEN 'Free periodic grant'
         WHEN source LIKE 'sub:%' THEN 'Subscription grant' END,
    json_array(json_object('creditKind', kind, 'sourceId', id, 'amount', amount)), created_at, 'grant'
  FROM points_balances WHERE amount > 0;
