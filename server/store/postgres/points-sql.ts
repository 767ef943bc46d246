// The reads and writes the PostgreSQL points and billing stores share inside their transactions
// (the twin of sqlite/points-sql.ts). A use case on a user's points first locks the user's row (FOR
// NO KEY UPDATE: consumes, holds, settlements, refunds, grants, summaries and subscription changes
// of one user run one after the other on every replica, while logins and inserts that only
// reference the user go on), then reads in one round trip everything the rules need: the
// idempotency key, the realm's configuration, the active subscriptions, which of the due grants
// were given, the holds due to expire, and the user's state (live window entitlements, ledger
// heads, live balances, the ledger seeks of the windows with what was returned inside them). What
// to write is decided by the points domain (materialise.ts, state.ts, ledger.ts, apply-plan.ts,
// holds.ts, refund.ts).
//
// Two hints per user make that one round trip enough in the usual case: the grant sources that
// were due last time (whether they were given is read from the database, never assumed) and the
// windows the user's quota had (their seeks go with the state read). When the rules need more — a
// new period's grant to make, a hold to expire, a window not seeked — the use case reads it in one
// more round trip. A third hint, the user of a hold or transaction this process has seen, lets a
// settlement, release or refund lock that user with its first statements.

import type pg from 'pg';
import type { GatehouseEvent } from '../../events/model.ts';
import { type Emitted, NOTHING_EMITTED } from '../../events/plan.ts';
import { newId } from '../../lib/ids.ts';
import type { ConsumeWrites } from '../../points/apply-plan.ts';
import { type LineReturn, returnTargets } from '../../points/charges.ts';
import { dueGrantEmitted, holdExpiredEmitted } from '../../points/events.ts';
import { grantDescription, historyCutoff, historyRetention, type Movement, prunesHistory, storedLines } from '../../points/history.ts';
import { releaseAll, type StoredHold } from '../../points/holds.ts';
import {
  type LedgerHead,
  type LedgerRow,
  ledgerIsEmpty,
  RETURN_FANOUT,
  RETURN_LEVELS,
  returnBlocks,
  type WindowReads,
  windowFacts,
} from '../../points/ledger.ts';
import { type ActiveSubscription, type DueGrant, dueGrants } from '../../points/materialise.ts';
import type { Balance, DefaultPointsConfig, QuotaKind, QuotaWindow, WindowEntitlement } from '../../points/model.ts';
import type { SubscriptionTerms } from '../../points/periods.ts';
import { type QuotaBinding, quotaBindings, type UserPointsState, userState } from '../../points/state.ts';
import { materialisedGrant } from '../../points/total-cap.ts';
import { type WindowUsageFacts, windowStart } from '../../points/windows.ts';
import { type AlertRow, type ConfigRow, type HoldRow, OWNER_DELETED, POINTS_IDEM_SQL, toConfig, toHold } from '../points-rows.ts';
import { outboxInsertOf, writeEmitted } from './records.ts';
import { query, quiet, RetryUseCase, type Tx } from './tx.ts';

/** 16^level as an SQL bigint (levels 0 to RETURN_LEVELS + 1). */
const blockSize = (level: string) => `power(${RETURN_FANOUT}, ${level})::bigint`;

/** The block ranges, per level, of everything returned to the rows after the seq `s` (an SQL
 *  expression): ledger.ts returnRanges(s, head) with the head left open, since a block past the
 *  newest row holds nothing. At each level the blocks up to the next whole parent, at the top
 *  level every block from there on. Columns: level, lo, hi. */
export function returnRangesSql(s: string): string {
  const lo = (level: string) => `(${s} + ${blockSize(level)}) / ${blockSize(level)}`;
  return `SELECT g.level, ${lo('g.level')} AS lo,
      CASE WHEN g.level = ${RETURN_LEVELS} THEN 9223372036854775807 ELSE ${lo('g.level + 1')} * ${RETURN_FANOUT} - 1 END AS hi
    FROM generate_series(0, ${RETURN_LEVELS}) AS g(level)`;
}

/** Per level, the first block still needed once every row before the seq `first` (an SQL
 *  expression) is gone: ledger.ts prunableReturnBlocks. Columns: level, keep. */
export function keptReturnBlocksSql(first: string): string {
  return `SELECT g.level, ${first} / ${blockSize('g.level')} AS keep FROM generate_series(0, ${RETURN_LEVELS}) AS g(level)`;
}

/** Per window (kinds and window starts, SQL arrays), the ledger seek windowUsage needs: the first
 *  row after the start (`first`); once quota has gone back to the kind (its head's `returned`),
 *  what was returned to the rows after the window's start (the coalesce is ledger.ts
 *  seqBeforeWindow), and, with the times, when the newest row left was written. What returns are
 *  read from is left out of the text for a user who had none (`returns` false: `returned` reads
 *  0): every node of a prepared plan is started on each call, run or not. */
function seeksSql(user: string, kinds: string, froms: string, o: SeekOptions): string {
  const returns = o.returns
    ? `
    LEFT JOIN points_usage_heads h ON h.user_id = ${user} AND h.kind = s.kind
    LEFT JOIN LATERAL (SELECT coalesce(sum(x.amount), 0)::bigint AS amount
      FROM (${returnRangesSql('coalesce(f.seq - 1, h.seq)')}) AS k
      JOIN points_usage_returns x ON x.user_id = ${user} AND x.kind = s.kind AND x.level = k.level AND x.idx BETWEEN k.lo AND k.hi
      WHERE h.returned > 0) r ON true`
    : '';
  const times =
    o.returns && o.withTimes
      ? `
    LEFT JOIN LATERAL (SELECT at FROM points_usage_ledger l WHERE h.returned > 0 AND l.user_id = ${user} AND l.kind = s.kind
      ORDER BY l.at DESC, l.seq DESC LIMIT 1) n ON true`
      : '';
  return `SELECT ${jsonArray(`SELECT json_build_object('kind', s.kind, 'from', s.from,
      'first', CASE WHEN f.seq IS NOT NULL THEN json_build_object('at', f.at, 'seq', f.seq, 'cum', f.cum, 'amount', f.amount) END,
      'returned', ${o.returns ? 'r.amount' : '0'}, 'lastAt', ${times ? 'n.at' : 'NULL'})
    FROM unnest(${kinds}, ${froms}) AS s(kind, "from")
    LEFT JOIN LATERAL (SELECT at, seq, cum, amount FROM points_usage_ledger l WHERE l.user_id = ${user} AND l.kind = s.kind AND l.at > s.from
      ORDER BY l.at, l.seq LIMIT 1) f ON true${returns}${times}`)}`;
}

/** `rows` ordered by `at`, then id (as COLLATE "C" orders ids: theirs are ASCII). The reads gather
 *  a user's few rows of a kind unsorted: a Sort node in a prepared plan costs its start and end on
 *  every call, however few rows it sorts. */
function inOrder<R extends { id: string }>(rows: R[], at: (r: R) => number): R[] {
  return rows.length < 2 ? rows : rows.sort((x, y) => at(x) - at(y) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
}

/** The rows of `select` (one JSON value each) as one JSON array, '[]' when none: an ARRAY sublink
 *  rather than json_agg, whose aggregate node cost more to start on each call than the rows it
 *  gathers (perf: a tenth of PostgreSQL's CPU per consume). */
function jsonArray(select: string): string {
  return `array_to_json(ARRAY(${select}))`;
}

/** What seeksSql reads besides the rows about a window's start. */
interface SeekOptions {
  withTimes: boolean;
  returns: boolean;
}

/** Drops movements older than the history keeps, about a batch at a time, and closed holds with
 *  them: CTEs for a statement that writes a movement, in the text only of the movements that
 *  prune (history.ts prunesHistory). */
function historyPruneSql(user: string, cutoff: string): string {
  const batch = historyRetention.batch;
  return `pruned AS (
      DELETE FROM points_transactions WHERE ctid = ANY(ARRAY(SELECT ctid FROM points_transactions
        WHERE user_id = ${user} AND created_at < ${cutoff}::bigint AND event_pending IS NULL ORDER BY created_at, id COLLATE "C" LIMIT ${batch}))
    ), pruned_holds AS (
      DELETE FROM points_holds WHERE ctid = ANY(ARRAY(SELECT ctid FROM points_holds
        WHERE user_id = ${user} AND status <> 'open' AND closed_at < ${cutoff}::bigint ORDER BY closed_at LIMIT ${batch}))
    )`;
}

const HISTORY_COLUMNS = 'id, realm_id, user_id, kind, amount, description, allocations, related_id, created_at';

/** A page of the history, newest first, strictly after its cursor ($2 time, $3 id): one index
 *  range from the cursor, of every kind or of the kind $6 (points_transactions_user_kind). */
function pageSql(byKind: boolean): string {
  return `SELECT id, kind, amount, description, allocations, related_id AS "relatedId", created_at AS "createdAt" FROM points_transactions
    WHERE user_id = $1${byKind ? ' AND kind = $6' : ''} AND (created_at, id COLLATE "C") < ($2::bigint, $3::text) AND created_at >= $4
    ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT $5`;
}

/** A statement assembled from the parts one call needs, its parameters numbered as they are
 *  added. A part a call does not need is left out of the text rather than skipped by a condition
 *  in it: the executor starts every node of a prepared plan on each call, run or not, and that
 *  start cost PostgreSQL as much CPU per consume as the reads and writes themselves. Each text is
 *  prepared once per connection (tx.ts), and a call has few variants. */
class Statement {
  readonly values: unknown[] = [];
  text = '';

  /** `value` as a parameter of SQL type `type`. */
  param(value: unknown, type: string): string {
    this.values.push(value);
    return `$${this.values.length}::${type}`;
  }
}

type WindowList = Array<[QuotaKind, number]>;

/** The user's state (`user`, at `now`, the parameter of `nowMs`): active entitlements (windows.ts
 *  isActive), ledger heads, live balances (balance-life.ts balanceIsLive) and the seeks of
 *  `windows` (none: no column). */
function stateColumns(q: Statement, user: string, now: string, nowMs: number, windows: WindowList, o: SeekOptions): string[] {
  const columns = [
    `${jsonArray(`SELECT json_build_object('id', id, 'kind', kind, 'windows', windows, 'startsAt', starts_at, 'endsAt', ends_at)
        FROM points_window_entitlements WHERE user_id = ${user} AND starts_at <= ${now} AND (ends_at IS NULL OR ends_at > ${now})`)} AS entitlements`,
    `${jsonArray(`SELECT json_build_object('kind', kind, 'seq', seq, 'cum', cum, 'lastAt', last_at, 'returned', returned)
        FROM points_usage_heads WHERE user_id = ${user}`)} AS heads`,
    `${jsonArray(`SELECT json_build_object('id', id, 'kind', kind, 'amount', amount, 'remaining', remaining, 'expiresAt', expires_at,
          'createdAt', created_at)
        FROM points_balances WHERE user_id = ${user} AND remaining > 0 AND ended_at IS NULL AND (expires_at IS NULL OR expires_at > ${now})`)} AS balances`,
  ];
  if (windows.length > 0) columns.push(`(${seeksOf(q, user, nowMs, windows, o)}) AS seeks`);
  return columns;
}

/** The seeks of `windows` at `now` (from their starts: windows.ts windowStart). */
function seeksOf(q: Statement, user: string, now: number, windows: WindowList, o: SeekOptions): string {
  const kinds = q.param(
    windows.map(([kind]) => kind),
    'text[]',
  );
  return seeksSql(
    user,
    kinds,
    q.param(
      windows.map(([, seconds]) => windowStart(now, seconds)),
      'bigint[]',
    ),
    o,
  );
}

/** The seeks of `windows` alone, returns included. */
function seeksStatement(userId: string, now: number, windows: WindowList, withTimes: boolean): Statement {
  const q = new Statement();
  q.text = `SELECT (${seeksOf(q, q.param(userId, 'text'), now, windows, { withTimes, returns: true })}) AS seeks`;
  return q;
}

/** What a use case on a user reads once the user's row is locked, in one statement: the context
 *  (the answer kept under its idempotency key when it has one, the realm's configuration, the
 *  active subscriptions, which of the grant sources looked for were given, the holds due by now,
 *  the alerts) and, unless `state` is null, the user's state. A subscription's terms never change
 *  once written: those of `knownTerms` (subscriptions whose terms the caller has) read as null. */
function openStatement(
  realmId: string,
  userId: string,
  now: number,
  idem: { scope: string; key: string } | null,
  sources: readonly string[],
  state: ({ windows: WindowList } & SeekOptions) | null,
  emits: string | null = null,
  knownTerms: readonly string[] = [],
): Statement {
  const q = new Statement();
  const realm = q.param(realmId, 'text');
  const user = q.param(userId, 'text');
  const at = q.param(now, 'bigint');
  // Terms are JSON text a few hundred bytes long, escaped into the row's JSON on every read.
  const terms = `CASE WHEN id = ANY(${q.param(knownTerms, 'text[]')}) THEN NULL ELSE terms END`;
  const columns = [
    `(SELECT row_to_json(c) FROM points_default_config c WHERE c.realm_id = ${realm}) AS config`,
    `${jsonArray(`SELECT json_build_object('id', id, 'terms', ${terms}, 'startedAt', started_at)
        FROM subscriptions WHERE user_id = ${user} AND status = 'active'`)} AS subs`,
    `${jsonArray(`SELECT row_to_json(h) FROM points_holds h
        WHERE h.user_id = ${user} AND h.status = 'open' AND h.expires_at <= ${at}`)} AS "dueHolds"`,
    // The alerts' configuration and state (points-rows.ts AlertRow's columns): a lookup each, not
    // ALERT_SQL.read's join of both to a row of its own (three nodes more to start on each call).
    `(SELECT row_to_json(a) FROM points_alert_config a WHERE a.realm_id = ${realm}) AS "alertConfig"`,
    `(SELECT row_to_json(s) FROM points_alert_state s WHERE s.user_id = ${user}) AS "alertState"`,
  ];
  if (idem)
    columns.push(`(SELECT json_build_object('requestHash', request_hash, 'response', response, 'ownerDeleted', ${OWNER_DELETED}) FROM points_idempotency
        WHERE realm_id = ${realm} AND scope = ${q.param(idem.scope, 'text')} AND key = ${q.param(idem.key, 'text')}) AS idem`);
  if (sources.length > 0)
    columns.push(`${jsonArray(`SELECT source FROM points_grants_given WHERE user_id = ${user} AND source = ANY(${q.param(sources, 'text[]')})`)} AS given`);
  // Whether an enabled webhook of the realm takes the event the use case's charge would write, as
  // the outbox insert asks again when it writes (records.ts outboxInsert): when none does, the
  // charge leaves the insert out, whose table and four indexes were opened on each call to write
  // nothing. A webhook created between this read and the charge is missed as one created between
  // the charge and COMMIT always was.
  if (emits !== null)
    columns.push(`EXISTS (SELECT 1 FROM webhooks w WHERE w.realm_id = ${realm} AND w.enabled
        AND w.event_types::jsonb ?| ARRAY[${q.param(emits, 'text')}, '*']) AS "eventWanted"`);
  if (state) columns.push(...stateColumns(q, user, at, now, state.windows, state));
  q.text = `SELECT ${columns.join(',\n      ')}`;
  return q;
}

/** The user's state alone (stateColumns), returns included, read again after writes. */
function stateStatement(userId: string, now: number, windows: WindowList, withTimes: boolean): Statement {
  const q = new Statement();
  const user = q.param(userId, 'text');
  q.text = `SELECT ${stateColumns(q, user, q.param(now, 'bigint'), now, windows, { withTimes, returns: true }).join(',\n      ')}`;
  return q;
}

/** What a consume, hold or settlement draws, in one statement: the ledger rows and the heads they
 *  move, the balances drawn (CHECK remaining >= 0 refuses an overdraw whatever happened), its
 *  movement in the history (and the history's prune when due), its events in the outbox, and the
 *  answer kept under its idempotency key (the key's primary key refuses a second writer of it);
 *  each part only when it writes something. */
function chargeStatement(
  userId: string,
  realmId: string,
  w: ConsumeWrites | null,
  m: Movement,
  now: number,
  answer: { scope: string; key: string | null; requestHash: string; response: unknown },
  events: readonly GatehouseEvent[],
  eventPending = false,
): Statement {
  const q = new Statement();
  const user = q.param(userId, 'text');
  const parts: string[] = events.map((e, i) => `outbox${i} AS (${outboxInsertOf(e, (v, t) => q.param(v, t))})`);
  const ledger = w?.ledger ?? [];
  const one = ledger.length === 1 && !ledger[0]!.createsHead ? ledger[0]! : null;
  if (one) {
    // The usual draw: one kind, whose head was read under the lock. Its row and its head as
    // values, without the arrays' unnest nor the upsert's conflict check.
    const [kind, at, seq, cum] = [q.param(one.kind, 'text'), q.param(one.at, 'bigint'), q.param(one.seq, 'bigint'), q.param(one.cum, 'bigint')];
    parts.push(
      `ledger AS (
      INSERT INTO points_usage_ledger (user_id, kind, at, seq, amount, cum) VALUES (${user}, ${kind}, ${at}, ${seq}, ${q.param(one.amount, 'bigint')}, ${cum})
    )`,
      `heads AS (
      UPDATE points_usage_heads SET seq = ${seq}, cum = ${cum}, last_at = ${at} WHERE user_id = ${user} AND kind = ${kind}
    )`,
    );
  } else if (ledger.length > 0) {
    const column = (f: (a: (typeof ledger)[number]) => unknown, type: string, of = ledger) => q.param(of.map(f), type);
    // A kind drawn twice appends two rows; its head ends at the last of them.
    const heads = [...new Map(ledger.map((a) => [a.kind, a])).values()];
    parts.push(
      `ledger AS (
      INSERT INTO points_usage_ledger (user_id, kind, at, seq, amount, cum)
      SELECT ${user}, l.kind, l.at, l.seq, l.amount, l.cum
      FROM unnest(${column((a) => a.kind, 'text[]')}, ${column((a) => a.at, 'bigint[]')}, ${column((a) => a.seq, 'bigint[]')},
        ${column((a) => a.amount, 'bigint[]')}, ${column((a) => a.cum, 'bigint[]')}) AS l(kind, at, seq, amount, cum)
    )`,
      `heads AS (
      INSERT INTO points_usage_heads (user_id, kind, seq, cum, last_at)
      SELECT ${user}, h.kind, h.seq, h.cum, h.last_at
      FROM unnest(${column((a) => a.kind, 'text[]', heads)}, ${column((a) => a.seq, 'bigint[]', heads)}, ${column((a) => a.cum, 'bigint[]', heads)},
        ${column((a) => a.at, 'bigint[]', heads)}) AS h(kind, seq, cum, last_at)
      ON CONFLICT (user_id, kind) DO UPDATE SET seq = excluded.seq, cum = excluded.cum, last_at = excluded.last_at
    )`,
    );
  }
  const spends = w?.spends ?? [];
  if (spends.length > 0)
    parts.push(`spends AS (
      UPDATE points_balances b SET remaining = b.remaining - x.amount
      FROM unnest(${q.param(
        spends.map((s) => s.sourceId),
        'text[]',
      )}, ${q.param(
        spends.map((s) => s.amount),
        'bigint[]',
      )}) AS x(id, amount) WHERE b.id = x.id
    )`);
  if (prunesHistory(m.id)) parts.push(historyPruneSql(user, q.param(historyCutoff(now), 'bigint')));
  const realm = q.param(realmId, 'text');
  const at = q.param(now, 'bigint');
  let last = `INSERT INTO points_transactions (${HISTORY_COLUMNS}, event_pending)
    VALUES (${q.param(m.id, 'text')}, ${realm}, ${user}, ${q.param(m.kind, 'text')}, ${q.param(m.amount, 'bigint')}, ${q.param(m.description, 'text')},
      ${q.param(JSON.stringify(storedLines(m)), 'text')}, ${q.param(m.relatedId, 'text')}, ${at}, ${eventPending ? 'true' : 'NULL'})`;
  if (answer.key !== null) {
    parts.push(`recorded AS (${last})`);
    last = `INSERT INTO points_idempotency (realm_id, scope, key, request_hash, response, created_at, user_id)
    VALUES (${realm}, ${q.param(answer.scope, 'text')}, ${q.param(answer.key, 'text')}, ${q.param(answer.requestHash, 'text')},
      ${q.param(JSON.stringify(answer.response), 'text')}, ${at}, ${user})`;
  }
  q.text = parts.length > 0 ? `WITH ${parts.join(', ')}\n    ${last}` : last;
  return q;
}

/** The statements a call assembles (exported for the test asking PostgreSQL for their plans). */
export const POINTS_STATEMENTS = { open: openStatement, charge: chargeStatement };

export const POINTS_SQL = {
  realm: 'SELECT 1 FROM realms WHERE id = $1',
  user: 'SELECT 1 FROM users WHERE realm_id = $1 AND id = $2 AND deleted_at IS NULL',
  lockUser: 'SELECT 1 FROM users WHERE realm_id = $1 AND id = $2 AND deleted_at IS NULL FOR NO KEY UPDATE',
  // The user of a hold or of a movement of the history, locked (their user never changes).
  lockHoldUser: 'SELECT id FROM users WHERE id = (SELECT user_id FROM points_holds WHERE realm_id = $1 AND id = $2) AND deleted_at IS NULL FOR NO KEY UPDATE',
  lockTransactionUser:
    'SELECT id FROM users WHERE id = (SELECT user_id FROM points_transactions WHERE realm_id = $1 AND id = $2) AND deleted_at IS NULL FOR NO KEY UPDATE',
  // The same, read without a lock (before the use case's transaction).
  holdUser: 'SELECT user_id AS "userId" FROM points_holds WHERE realm_id = $1 AND id = $2',
  transactionUser: 'SELECT user_id AS "userId" FROM points_transactions WHERE realm_id = $1 AND id = $2',
  config: 'SELECT * FROM points_default_config WHERE realm_id = $1',
  activeSubs: `SELECT id, terms, started_at FROM subscriptions WHERE user_id = $1 AND status = 'active' ORDER BY started_at, id COLLATE "C"`,
  idem: POINTS_IDEM_SQL,
  // The user's open holds at $2 (points_holds_open): all counted and added up, the $3 soonest to
  // expire listed; and counted up to a bound ($3) alone.
  openHolds: `SELECT count(*)::int AS count, coalesce(sum(amount), 0)::bigint AS held,
      (SELECT coalesce(json_agg(json_build_object('holdId', s.id, 'amount', s.amount, 'expiresAt', s.expires_at) ORDER BY s.expires_at, s.id COLLATE "C"), '[]')
        FROM (SELECT id, amount, expires_at FROM points_holds WHERE user_id = $1 AND status = 'open' AND expires_at > $2
          ORDER BY expires_at, id COLLATE "C" LIMIT $3) s) AS soonest
    FROM points_holds WHERE user_id = $1 AND status = 'open' AND expires_at > $2`,
  openHoldCount: `SELECT count(*)::int AS count FROM (SELECT 1 FROM points_holds WHERE user_id = $1 AND status = 'open' AND expires_at > $2 LIMIT $3) h`,
  hold: 'SELECT * FROM points_holds WHERE realm_id = $1 AND id = $2',
  insertHold: `INSERT INTO points_holds (id, realm_id, user_id, amount, lines, status, description, created_at, expires_at)
    VALUES ($1, $2, $3, $4, $5, 'open', $6, $7, $8)`,
  // Every writer of a hold holds its user's lock, so the hold read under it is still open here.
  closeHold: `UPDATE points_holds SET status = $2, settled_amount = $3, closed_at = $4 WHERE id = $1 AND status = 'open'`,
  // A consume or settlement as a refund reads it, with the life of the balances its lines name.
  refundable: `SELECT t.id, t.user_id AS "userId", t.amount, t.refunded, t.allocations,
      (SELECT coalesce(json_agg(json_build_object('id', b.id, 'expiresAt', b.expires_at, 'endedAt', b.ended_at)), '[]') FROM points_balances b
        WHERE b.id IN (SELECT l->>'sourceId' FROM json_array_elements(t.allocations::json) AS l)) AS balances
    FROM points_transactions t WHERE t.realm_id = $1 AND t.id = $2 AND t.kind IN ('consume', 'settle') AND t.created_at >= $3`,
  markRefunded: 'UPDATE points_transactions SET refunded = $2, allocations = $3 WHERE id = $1',
  page: pageSql(false),
  pageOfKind: pageSql(true),
  // A grant the service makes by itself, once per source (points_grants_given), in each of its
  // forms: nothing, a window entitlement, a balance (with the user's other live balances, for
  // materialisedGrant; live: balanceIsLive). $1 user, $2 source.
  given: 'INSERT INTO points_grants_given (user_id, source) VALUES ($1, $2) ON CONFLICT DO NOTHING',
  dueEntitlement: `WITH given AS (INSERT INTO points_grants_given (user_id, source) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1)
    INSERT INTO points_window_entitlements (id, realm_id, user_id, kind, windows, starts_at, ends_at, source, created_at)
    SELECT $3, $4, $1, $5, $6, $7, $8, $2, $9 WHERE EXISTS (SELECT 1 FROM given) ON CONFLICT DO NOTHING`,
  dueBalance: `WITH given AS (INSERT INTO points_grants_given (user_id, source) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1),
      inserted AS (INSERT INTO points_balances (id, realm_id, user_id, kind, amount, remaining, expires_at, source, created_at)
        SELECT $3, $4, $1, $5, $6, $6, $7, $2, $8 WHERE EXISTS (SELECT 1 FROM given) ON CONFLICT DO NOTHING RETURNING 1)
    SELECT (SELECT count(*) FROM inserted) AS inserted,
      (SELECT coalesce(sum(remaining), 0)::bigint FROM points_balances
        WHERE user_id = $1 AND id <> $3 AND remaining > 0 AND ended_at IS NULL AND (expires_at IS NULL OR expires_at > $8)) AS others`,
  insertBalance: `INSERT INTO points_balances (id, realm_id, user_id, kind, amount, remaining, expires_at, source, created_at)
    VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
  trimBalance: 'UPDATE points_balances SET amount = $2, remaining = $2 WHERE id = $1',
  // One movement of the history ($1–$9, HISTORY_COLUMNS); and with the history's prune ($10 its
  // cutoff).
  history: `INSERT INTO points_transactions (${HISTORY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
  historyPruned: `WITH ${historyPruneSql('$3', '$10')}
    INSERT INTO points_transactions (${HISTORY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
  // Points going back, in one statement: quota to the ledger rows it was drawn at ($2–$5; a row
  // given back whole is deleted, a pruned one takes nothing) and to the block sums holding them
  // ($6–$10, ledger.ts returnBlocks of each row, counted for the rows that took it) and the
  // heads; balances' points to their balances ($11, $12).
  giveBack: `WITH r AS (
      SELECT * FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::bigint[]) AS r(kind, at, seq, amount)
    ), part AS (
      UPDATE points_usage_ledger l SET returned = l.returned + r.amount FROM r
      WHERE l.user_id = $1 AND l.kind = r.kind AND l.at = r.at AND l.seq = r.seq AND l.returned + r.amount < l.amount
      RETURNING r.kind, r.seq, r.amount
    ), whole AS (
      DELETE FROM points_usage_ledger l USING r
      WHERE l.user_id = $1 AND l.kind = r.kind AND l.at = r.at AND l.seq = r.seq AND l.returned + r.amount = l.amount
      RETURNING r.kind, r.seq, r.amount
    ), back AS (
      SELECT * FROM part UNION ALL SELECT * FROM whole
    ), blocks AS (
      INSERT INTO points_usage_returns (user_id, kind, level, idx, amount)
      SELECT $1, k.kind, k.level, k.idx, sum(k.amount)::bigint
      FROM unnest($6::text[], $7::bigint[], $8::int[], $9::bigint[], $10::bigint[]) AS k(kind, seq, level, idx, amount)
      WHERE EXISTS (SELECT 1 FROM back WHERE back.kind = k.kind AND back.seq = k.seq)
      GROUP BY k.kind, k.level, k.idx
      ON CONFLICT (user_id, kind, level, idx) DO UPDATE SET amount = points_usage_returns.amount + excluded.amount
    ), heads AS (
      UPDATE points_usage_heads h SET returned = h.returned + t.amount FROM (SELECT kind, sum(amount)::bigint AS amount FROM back GROUP BY kind) AS t
      WHERE h.user_id = $1 AND h.kind = t.kind
    )
    UPDATE points_balances b SET remaining = b.remaining + x.amount
    FROM (SELECT id, sum(amount)::bigint AS amount FROM unnest($11::text[], $12::bigint[]) AS x(id, amount) GROUP BY id) AS x
    WHERE b.id = x.id AND b.remaining + x.amount <= b.amount`,
  // The oldest rows up to the cutoff, about `batch` of them: up to the time of the row `batch`
  // places in among those up to the cutoff (all of them when there are fewer: the same bound as the
  // batch-th row of all, but the seek for it stops at the cutoff, where a ledger younger than the
  // history kept read a batch of rows at every prune to delete none). Rows sharing that millisecond
  // go together, up to twice the batch. The rows are picked through the primary key with a LIMIT
  // (by ctid): a plain DELETE of a user holding most of the table is planned as a scan of all of it.
  // Then the block sums wholly before the rows kept (every row kept comes after the last one deleted).
  prune: `WITH gone AS (
      DELETE FROM points_usage_ledger WHERE ctid = ANY(ARRAY(SELECT ctid FROM points_usage_ledger
        WHERE user_id = $1 AND kind = $2 AND at <= coalesce(
          (SELECT at FROM points_usage_ledger WHERE user_id = $1 AND kind = $2 AND at <= $3::bigint ORDER BY at, seq LIMIT 1 OFFSET $4::bigint - 1),
          $3::bigint)
        ORDER BY at, seq LIMIT 2 * $4::bigint))
      RETURNING seq
    ), kept AS (${keptReturnBlocksSql('(SELECT max(seq) + 1 FROM gone)')})
    DELETE FROM points_usage_returns x USING kept
    WHERE kept.keep IS NOT NULL AND x.user_id = $1 AND x.kind = $2 AND x.level = kept.level AND x.idx < kept.keep`,
  saveAnswer: 'INSERT INTO points_idempotency (realm_id, scope, key, request_hash, response, created_at, user_id) VALUES ($1, $2, $3, $4, $5, $6, $7)',
};

/** An idempotency key's stored answer. */
export interface StoredAnswer {
  requestHash: string;
  response: string;
  ownerDeleted?: boolean | number;
}

/** What a points use case reads before its rules run (besides the state). */
export interface PointsContext {
  idem: StoredAnswer | undefined;
  config: DefaultPointsConfig;
  subs: ActiveSubscription[];
  /** Of the sources looked for, those given already (each source is given once, whatever its form). */
  given: Set<string>;
  /** Open holds whose expiresAt has come: released by themselves (holds.ts). */
  dueHolds: StoredHold[];
  /** The realm's alert configuration and the user's alert state (points-rows.ts AlertRow). */
  alerts: AlertRow;
  /** Whether a webhook takes the event open() was told of (true when it was told of none). */
  eventWanted: boolean;
}

interface Seek {
  kind: QuotaKind;
  from: number;
  first: LedgerRow | null;
  /** Returned to the rows after the one before `first` (0 unless the head has returns). */
  returned: number;
  /** Time of the newest row left (read with the times, once the head has returns). */
  lastAt: number | null;
}

export interface StateRead {
  entitlements: WindowEntitlement[];
  heads: Map<QuotaKind, LedgerHead>;
  balances: Balance[];
  seeks: Map<string, Seek>;
}

const seekKey = (kind: string, from: number) => `${kind}\u0000${from}`;

/** The state's columns as read (stateColumns). */
interface StateRow {
  entitlements: Array<{ id: string; kind: QuotaKind; windows: string; startsAt: number; endsAt: number | null }>;
  heads: Array<LedgerHead & { kind: QuotaKind }>;
  balances: Balance[];
  /** Absent when no window was seeked. */
  seeks?: Seek[];
}

/** open()'s row: the context and, unless left out, the state. */
interface OpenRow extends StateRow {
  idem?: StoredAnswer | null;
  config: ConfigRow | null;
  /** terms: null when the read was told the caller has them. */
  subs: Array<{ id: string; terms: string | null; startedAt: number }>;
  given?: string[];
  dueHolds: HoldRow[];
  alertConfig: Pick<AlertRow, 'low_balance_thresholds' | 'quota_exhausted' | 'quota_recovered' | 'updated_at'> | null;
  alertState: Pick<AlertRow, 'fired_thresholds' | 'exhaustions'> | null;
  eventWanted?: boolean;
}

/** An alerts row where neither the configuration nor the state has one (as ALERT_SQL.read's). */
const NO_ALERT_ROW: AlertRow = {
  low_balance_thresholds: null,
  quota_exhausted: null,
  quota_recovered: null,
  updated_at: null,
  fired_thresholds: null,
  exhaustions: null,
};

/** The state read; without `returns`, the seeks of a kind that had returns since are dropped (the
 *  use case seeks them again, returns included: assemble). */
function toStateRead(r: StateRow, returns: boolean): StateRead {
  const returned = new Set(returns ? [] : r.heads.filter((h) => h.returned > 0).map((h) => h.kind));
  return {
    entitlements: inOrder(r.entitlements, (e) => e.startsAt).map((e) => ({
      id: e.id,
      kind: e.kind,
      windows: parsedJson<QuotaWindow[]>(e.windows),
      startsAt: e.startsAt,
      endsAt: e.endsAt,
    })),
    heads: new Map(r.heads.map(({ kind, ...head }) => [kind, head])),
    balances: r.balances,
    seeks: new Map((r.seeks ?? []).filter((s) => !returned.has(s.kind)).map((s) => [seekKey(s.kind, s.from), s])),
  };
}

/** What a use case gets back from open(): each part resolves as its statement answers. */
export interface Opened {
  /** Whether the user exists in the realm (its row is now locked). */
  found: Promise<boolean>;
  context: Promise<PointsContext>;
  state: Promise<StateRead>;
}

/** A subscription's terms a call has, so its read leaves them out. */
interface KnownTerms {
  id: string;
  terms: SubscriptionTerms;
}

interface Hints {
  sources: string[];
  /** The user's active subscriptions last read. */
  subs: string[];
  windows: WindowList;
  /** Whether quota had gone back to a kind of the user's (seeksSql reads returns). */
  returns: boolean;
}

/** Most users (and holds or transactions) whose hints a store keeps; past it the map starts again. */
const HINTS_MAX = 50_000;

/** The windows of a state's rows, to seek again after its writes. */
const windowsOf = (st: UserPointsState): WindowList => st.windows.map((w): [QuotaKind, number] => [w.creditKind, w.windowSeconds]);

export class PointsSql {
  private readonly hints = new Map<string, Hints>();
  /** The user of a hold or transaction (never changes). */
  private readonly owners = new Map<string, string>();
  /** The terms of a subscription (never change), by its id. */
  private readonly terms = new Map<string, SubscriptionTerms>();

  /** The subscriptions read, oldest first, with the terms the read left out (`known`) filled in;
   *  remembered for the user's next read. */
  private subscriptions(userId: string, rows: OpenRow['subs'], known: readonly KnownTerms[]): ActiveSubscription[] {
    const subs = inOrder(rows, (s) => s.startedAt).map((s): ActiveSubscription => {
      if (s.terms !== null) {
        const terms = parsedJson<SubscriptionTerms>(s.terms);
        if (this.terms.size >= HINTS_MAX) this.terms.clear();
        this.terms.set(s.id, terms);
        return { id: s.id, terms, startedAt: s.startedAt };
      }
      const k = known.find((x) => x.id === s.id);
      if (k === undefined) throw new Error(`subscription ${s.id} was read without its terms`);
      return { id: s.id, terms: k.terms, startedAt: s.startedAt };
    });
    this.remember(userId, { subs: subs.map((s) => s.id) });
    return subs;
  }

  /** Sends the lock and the reads of a use case on `userId`, pipelined behind whatever `tx` sent:
   *  the context and the state in one statement behind the lock (which must be held before they
   *  read: a statement reads as of when it starts, at READ COMMITTED). */
  open(
    tx: Tx,
    realmId: string,
    userId: string,
    now: number,
    idem: { scope: string; key: string | null } | null,
    withTimes: boolean,
    emits: string | null = null,
  ): Opened {
    const returns = this.hints.get(userId)?.returns ?? false;
    const { found, context, row } = this.sendOpen(tx, realmId, userId, now, idem, { withTimes, returns }, emits);
    return { found, context, state: quiet(row.then((r) => toStateRead(r, returns))) };
  }

  /** open() without the state (a use case that materialises but reads no points). */
  openContext(tx: Tx, realmId: string, userId: string, now: number, idem: { scope: string; key: string | null } | null): Omit<Opened, 'state'> {
    const { found, context } = this.sendOpen(tx, realmId, userId, now, idem, null);
    return { found, context };
  }

  private sendOpen(
    tx: Tx,
    realmId: string,
    userId: string,
    now: number,
    idem: { scope: string; key: string | null } | null,
    seeks: SeekOptions | null,
    emits: string | null = null,
  ): Omit<Opened, 'state'> & { row: Promise<OpenRow> } {
    const h = this.hints.get(userId);
    // The terms this call already has, kept with it (the map may be cleared before the answer).
    const known: KnownTerms[] = [];
    for (const id of h?.subs ?? []) {
      const terms = this.terms.get(id);
      if (terms !== undefined) known.push({ id, terms });
    }
    const found = quiet(tx.rows(POINTS_SQL.lockUser, [realmId, userId]).then((r) => r.length === 1));
    const q = openStatement(
      realmId,
      userId,
      now,
      idem?.key == null ? null : { scope: idem.scope, key: idem.key },
      h?.sources ?? [],
      seeks === null ? null : { windows: h?.windows ?? [], ...seeks },
      emits,
      known.map((k) => k.id),
    );
    const row = quiet(tx.row<OpenRow>(q.text, q.values).then((r) => r!));
    const context = quiet(
      row.then((r) => ({
        idem: r.idem ?? undefined,
        config: toConfig(r.config, realmId),
        subs: this.subscriptions(userId, r.subs, known),
        given: new Set(r.given ?? []),
        dueHolds: inOrder(r.dueHolds, (h) => h.expires_at).map(toHold),
        alerts: { ...NO_ALERT_ROW, ...r.alertConfig, ...r.alertState },
        eventWanted: r.eventWanted ?? true,
      })),
    );
    return { found, context, row };
  }

  /** The user of a hold or history movement, its row locked; null when there is none in the realm.
   *  A user this process has seen is locked by id, in the same round trip as what follows. */
  async lockOwner(tx: Tx, of: 'hold' | 'transaction', realmId: string, id: string): Promise<string | null> {
    const known = this.owners.get(id);
    if (known !== undefined) return known;
    const r = await tx.row<{ id: string }>(of === 'hold' ? POINTS_SQL.lockHoldUser : POINTS_SQL.lockTransactionUser, [realmId, id]);
    if (r) this.rememberOwner(id, r.id);
    return r?.id ?? null;
  }

  /** The user of a hold or history movement, as this process has seen it or read (no lock); null
   *  when there is none in the realm. */
  async owner(pool: pg.Pool, of: 'hold' | 'transaction', realmId: string, id: string): Promise<string | null> {
    const known = this.owners.get(id);
    if (known !== undefined) return known;
    const [r] = await query<{ userId: string }>(pool, of === 'hold' ? POINTS_SQL.holdUser : POINTS_SQL.transactionUser, [realmId, id]);
    if (r) this.rememberOwner(id, r.userId);
    return r?.userId ?? null;
  }

  /** Remembers the user of a hold or transaction. */
  rememberOwner(id: string, userId: string): void {
    if (this.owners.size >= HINTS_MAX) this.owners.clear();
    this.owners.set(id, userId);
  }

  /** A remembered user that turned out wrong (cannot happen while ids are unique): forgotten, and
   *  the use case runs again. */
  wrongOwner(id: string): never {
    this.owners.delete(id);
    throw new RetryUseCase();
  }

  private readState(tx: Tx, userId: string, now: number, windows: WindowList, withTimes: boolean): Promise<StateRead> {
    const q = stateStatement(userId, now, windows, withTimes);
    return quiet(tx.row<StateRow>(q.text, q.values).then((r) => toStateRead(r!, true)));
  }

  /** Everything due to the user by `now`: the grants (materialise.ts), each source at most once,
   *  and the release of every hold whose expiresAt has come (holds.ts), recorded at that time.
   *  True when the user's state changed (a read made before is stale). */
  async materialise(tx: Tx, realmId: string, userId: string, now: number, c: PointsContext): Promise<boolean> {
    const due = dueGrants(c.config, c.subs, now);
    // A due grant not known to be given is given unless it was (ON CONFLICT DO NOTHING).
    let changed = false;
    for (const g of due) if (!c.given.has(g.source) && (await insertDue(tx, realmId, userId, g, now))) changed = true;
    for (const h of c.dueHolds) {
      giveBack(tx, userId, releaseAll(h));
      tx.run(POINTS_SQL.closeHold, [h.holdId, 'expired', null, h.expiresAt]);
      recordMovement(
        tx,
        realmId,
        userId,
        { id: newId('ptx'), kind: 'expire', amount: h.amount, description: null, lines: h.lines, relatedId: h.holdId },
        h.expiresAt,
      );
      writeEmitted(tx, holdExpiredEmitted(realmId, h, now));
      changed = true;
    }
    this.remember(userId, { sources: due.map((g) => g.source) });
    return changed;
  }

  /** Materialises what is due (materialise) and assembles the user's state (state.ts) from `read`,
   *  read again when something was due: `withTimes: false` (consume, grant, hold…) leaves out what
   *  only the windows' recovery times need. */
  async materialisedState(
    tx: Tx,
    realmId: string,
    userId: string,
    now: number,
    c: PointsContext,
    read: Promise<StateRead>,
    withTimes: boolean,
  ): Promise<UserPointsState> {
    const changed = await this.materialise(tx, realmId, userId, now, c);
    let st = await read;
    if (changed) st = await this.readState(tx, userId, now, this.hints.get(userId)?.windows ?? [], withTimes);
    const { state, bindings } = await this.assemble(tx, userId, now, st, withTimes);
    this.remember(userId, {
      windows: bindings.flatMap((b) => b.windows.map((w): [QuotaKind, number] => [b.kind, w.windowSeconds])),
      returns: [...st.heads.values()].some((h) => h.returned > 0),
    });
    return state;
  }

  /** The user's state once the writes sent so far are done, read behind them (no waiting): the
   *  windows of `before` (the state the writes were decided on) are the ones seeked, and nothing
   *  the writes do changes which windows there are. Resolves with the state, without its times unless
   *  `withTimes`. */
  stateAfter(tx: Tx, userId: string, now: number, before: UserPointsState, withTimes = false): Promise<UserPointsState> {
    return quiet(this.readState(tx, userId, now, windowsOf(before), withTimes).then((st) => assembled(userId, now, st, withTimes).state));
  }

  /** The state from a read, seeking the windows the read did not (one more round trip). */
  private async assemble(
    tx: Tx,
    userId: string,
    now: number,
    st: StateRead,
    withTimes: boolean,
  ): Promise<{ state: UserPointsState; bindings: QuotaBinding[] }> {
    const unseeked = missingSeeks(st, now);
    if (unseeked.length > 0) {
      const q = seeksStatement(userId, now, unseeked, withTimes);
      const r = await tx.row<{ seeks: Seek[] }>(q.text, q.values);
      for (const s of r!.seeks) st.seeks.set(seekKey(s.kind, s.from), s);
    }
    return assembled(userId, now, st, withTimes);
  }

  private remember(userId: string, h: Partial<Hints>): void {
    const prev = this.hints.get(userId);
    if (!prev && this.hints.size >= HINTS_MAX) this.hints.clear();
    this.hints.set(userId, {
      sources: h.sources ?? prev?.sources ?? [],
      subs: h.subs ?? prev?.subs ?? [],
      windows: h.windows ?? prev?.windows ?? [],
      returns: h.returns ?? prev?.returns ?? false,
    });
  }

  /** Runs a draw's writes (apply-plan.ts; none for a release or refund) with its movement (marked
   *  when `eventPending`: its points.consumed event owed, kept so until the relay hands it out,
   *  migration 021), its answer and the events of `emitted`: one statement, plus a prune of the
   *  ledger when one is due (and its audit records and jobs, if any). */
  charge(
    tx: Tx,
    realmId: string,
    userId: string,
    w: ConsumeWrites | null,
    m: Movement,
    now: number,
    answer: { scope: string; key: string | null; requestHash: string; response: unknown },
    emitted: Emitted = NOTHING_EMITTED,
    eventPending = false,
  ): void {
    const q = chargeStatement(userId, realmId, w, m, now, answer, emitted.events, eventPending);
    tx.run(q.text, q.values);
    writeEmitted(tx, { ...emitted, events: [] });
    for (const a of w?.ledger ?? []) if (a.prune) tx.run(POINTS_SQL.prune, [userId, a.kind, a.prune.cutoff, a.prune.batch]);
  }
}

/** Windows of the state's bindings whose seeks the read lacks. */
function missingSeeks(st: StateRead, now: number): WindowList {
  const out: WindowList = [];
  for (const b of quotaBindings(st.entitlements, now)) {
    if (ledgerIsEmpty(st.heads.get(b.kind))) continue;
    for (const w of b.windows) if (!st.seeks.has(seekKey(b.kind, windowStart(now, w.windowSeconds)))) out.push([b.kind, w.windowSeconds]);
  }
  return out;
}

interface SeekQuery {
  st: StateRead;
  key: string;
  userId: string;
}

/** A window's facts from the seeks of a state read (a window without one was never asked for:
 *  seeksSql seeks every window whose kind has a ledger). */
const seekOf = (q: SeekQuery): Seek => {
  const s = q.st.seeks.get(q.key);
  if (s === undefined) throw new Error(`window ${q.key} of ${q.userId} was not seeked`);
  return s;
};
const SEEK_READS: WindowReads<SeekQuery> = {
  first: (q) => seekOf(q).first ?? undefined,
  returnedAfter: (q) => seekOf(q).returned,
  newestAt: (q) => seekOf(q).lastAt,
};

/** The state (state.ts) from a read holding every seek its windows need. */
function assembled(userId: string, now: number, st: StateRead, withTimes: boolean): { state: UserPointsState; bindings: QuotaBinding[] } {
  const bindings = quotaBindings(st.entitlements, now);
  const heads = bindings.map((b) => st.heads.get(b.kind));
  const usage = bindings.map((b, i) =>
    // The read holds every fact; windowFacts takes those its rules need (returned: after the seq
    // seeksSql computed as seqBeforeWindow does).
    b.windows.map(
      (w): WindowUsageFacts => windowFacts(heads[i], withTimes, SEEK_READS, { st, key: seekKey(b.kind, windowStart(now, w.windowSeconds)), userId }),
    ),
  );
  return { state: userState(bindings, heads, usage, st.balances), bindings };
}

/** Writes one movement to the history (and prunes it when due, as SQLite does). */
export function recordMovement(tx: Tx, realmId: string, userId: string, m: Movement, now: number): void {
  const prune = prunesHistory(m.id);
  tx.run(prune ? POINTS_SQL.historyPruned : POINTS_SQL.history, [
    m.id,
    realmId,
    userId,
    m.kind,
    m.amount,
    m.description,
    JSON.stringify(storedLines(m)),
    m.relatedId,
    now,
    ...(prune ? [historyCutoff(now)] : []),
  ]);
}

/** Points going back to their sources (one statement, nothing to wait for): quota to the ledger row
 *  it was drawn at and the block sums holding it, a balance's to the balance. */
export function giveBack(tx: Tx, userId: string, returns: readonly LineReturn[]): void {
  const { rows, balances } = returnTargets(returns);
  if (rows.length === 0 && balances.length === 0) return;
  const blocks = rows.flatMap((r) => returnBlocks(r.line.seq).map((b) => ({ kind: r.line.creditKind, seq: r.line.seq, ...b, amount: r.amount })));
  tx.run(POINTS_SQL.giveBack, [
    userId,
    rows.map((r) => r.line.creditKind),
    rows.map((r) => r.line.at),
    rows.map((r) => r.line.seq),
    rows.map((r) => r.amount),
    blocks.map((b) => b.kind),
    blocks.map((b) => b.seq),
    blocks.map((b) => b.level),
    blocks.map((b) => b.idx),
    blocks.map((b) => b.amount),
    balances.map((r) => r.line.sourceId),
    balances.map((r) => r.amount),
  ]);
}

/** A grant the service makes by itself, once per source whatever its form (materialise.ts): a
 *  balance is then cut to what keeps the user's live balances within MAX_POINTS (materialisedGrant)
 *  and written in the history. True when the user's state changed (an entitlement or a balance was
 *  given). */
export async function insertDue(tx: Tx, realmId: string, userId: string, g: DueGrant, now: number): Promise<boolean> {
  if (g.form === 'nothing') {
    tx.run(POINTS_SQL.given, [userId, g.source]);
    return false;
  }
  if (g.form === 'window') {
    const id = newId('ent');
    const values = [userId, g.source, id, realmId, g.kind, JSON.stringify(g.windows), g.startsAt, g.endsAt, now];
    if ((await tx.run(POINTS_SQL.dueEntitlement, values)) !== 1) return false;
    const grant = { userId, grantId: id, creditKind: g.kind, source: g.source, amount: null, expiresAt: g.endsAt, windows: g.windows };
    writeEmitted(tx, dueGrantEmitted(realmId, grant, now));
    return true;
  }
  const id = newId('bal');
  const r = await tx.row<{ inserted: number; others: number }>(POINTS_SQL.dueBalance, [userId, g.source, id, realmId, g.kind, g.amount, g.expiresAt, now]);
  if (r!.inserted !== 1) return false;
  const { cutTo, given: amount } = materialisedGrant(r!.others, g.amount);
  if (cutTo !== null) tx.run(POINTS_SQL.trimBalance, [id, cutTo]);
  if (amount !== null) {
    const lines = [{ creditKind: g.kind, sourceId: id, amount }];
    recordMovement(tx, realmId, userId, { id, kind: 'grant', amount, description: grantDescription(g.source), lines, relatedId: null }, now);
    const grant = { userId, grantId: id, creditKind: g.kind, source: g.source, amount, expiresAt: g.expiresAt, windows: null };
    writeEmitted(tx, dueGrantEmitted(realmId, grant, now));
  }
  return true;
}

// Entitlement window snapshots and subscription terms are immutable JSON read on every consume; the
// same few texts recur, so each is parsed once. Keyed by the text itself (never stale); bounded.
const parsed = new Map<string, unknown>();
const PARSED_MAX = 1024;
export function parsedJson<T>(text: string): T {
  let v = parsed.get(text);
  if (v === undefined) {
    v = deepFreeze(JSON.parse(text));
    if (parsed.size >= PARSED_MAX) parsed.clear();
    parsed.set(text, v);
  }
  return v as T;
}
function deepFreeze(v: unknown): unknown {
  if (v && typeof v === 'object') {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}
