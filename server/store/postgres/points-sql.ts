// The reads and writes the PostgreSQL points and billing stores share inside their transactions
// (the twin of store/points-sql.ts). A use case on a user's points first locks the user's row (FOR
// NO KEY UPDATE: consumes, grants, summaries and subscription changes of one user run one after
// the other on every replica, while logins and inserts that only reference the user go on), then
// reads in one round trip everything the rules need: the idempotency key, the realm's
// configuration, the active subscriptions, which of the due grants exist, and the user's state
// (live window entitlements, ledger heads, live balances, the ledger seeks of the windows). What
// to write is decided by the points domain (materialise.ts, state.ts, ledger.ts, apply-plan.ts).
//
// Two hints per user make that one round trip enough in the usual case: the grant sources that
// were due last time (whether they exist is read from the database, never assumed) and the windows
// the user's quota had (their seeks go with the state read). When the rules need more — a new
// period's grant to insert, a window not seeked — the use case reads it in one more round trip.
import { newId } from '../../lib/ids.ts';
import type { ConsumeWrites } from '../../points/apply-plan.ts';
import { type LedgerHead, type LedgerRow, ledgerIsEmpty, windowUsage } from '../../points/ledger.ts';
import { type ActiveSubscription, type DueGrant, dueGrants } from '../../points/materialise.ts';
import {
  type Balance,
  type DefaultPointsConfig,
  defaultConfigFor,
  type PeriodType,
  type QuotaKind,
  type QuotaWindow,
  type WindowEntitlement,
} from '../../points/model.ts';
import type { SubscriptionTerms } from '../../points/periods.ts';
import { type QuotaBinding, quotaBindings, type UserPointsState, userState } from '../../points/state.ts';
import { materialisedCut } from '../../points/total-cap.ts';
import { type WindowUsageFacts, windowStart } from '../../points/windows.ts';
import { quiet, type Tx } from './tx.ts';

interface ConfigRow {
  realm_id: string;
  registration_bonus_points: number;
  free_periodic_points_amount: number;
  free_periodic_grant_period_type: string;
  free_periodic_validity_days: number;
  free_periodic_quota_windows: string | null;
  updated_at: number;
}

export function toConfig(r: ConfigRow | null | undefined, realmId: string): DefaultPointsConfig {
  if (!r) return defaultConfigFor(realmId);
  return {
    realmId: r.realm_id,
    registrationBonusPoints: r.registration_bonus_points,
    freePeriodicPointsAmount: r.free_periodic_points_amount,
    freePeriodicGrantPeriodType: r.free_periodic_grant_period_type as PeriodType,
    freePeriodicValidityDays: r.free_periodic_validity_days,
    freePeriodicQuotaWindows: r.free_periodic_quota_windows === null ? null : (JSON.parse(r.free_periodic_quota_windows) as QuotaWindow[]),
    updatedAt: r.updated_at,
  };
}

export const POINTS_SQL = {
  realm: 'SELECT 1 FROM realms WHERE id = $1',
  user: 'SELECT 1 FROM users WHERE realm_id = $1 AND id = $2',
  lockUser: 'SELECT 1 FROM users WHERE realm_id = $1 AND id = $2 FOR NO KEY UPDATE',
  config: 'SELECT * FROM points_default_config WHERE realm_id = $1',
  activeSubs: `SELECT id, terms, started_at FROM subscriptions WHERE user_id = $1 AND status = 'active' ORDER BY started_at, id COLLATE "C"`,
  // $1 realm, $2 user, $3 idempotency scope, $4 key (null: none), $5 grant sources to look for.
  context: `SELECT
      (SELECT json_build_object('requestHash', request_hash, 'response', response) FROM points_idempotency
        WHERE $4::text IS NOT NULL AND realm_id = $1 AND scope = $3 AND key = $4) AS idem,
      (SELECT row_to_json(c) FROM points_default_config c WHERE c.realm_id = $1) AS config,
      (SELECT coalesce(json_agg(json_build_object('id', id, 'terms', terms, 'startedAt', started_at) ORDER BY started_at, id COLLATE "C"), '[]')
        FROM subscriptions WHERE user_id = $2 AND status = 'active') AS subs,
      (SELECT coalesce(json_agg(source), '[]') FROM points_balances WHERE user_id = $2 AND source = ANY($5::text[])) AS "existingBalances",
      (SELECT coalesce(json_agg(source), '[]') FROM points_window_entitlements WHERE user_id = $2 AND source = ANY($5::text[])) AS "existingEntitlements"`,
  // $1 user, $2 now, $3/$4 the seeks: kinds and window starts (windowStart). `before` is the
  // running total at the last row at or before the start, `first` the first row after it.
  state: `SELECT
      (SELECT coalesce(json_agg(json_build_object('id', id, 'kind', kind, 'windows', windows, 'startsAt', starts_at, 'endsAt', ends_at)
          ORDER BY starts_at, id COLLATE "C"), '[]')
        FROM points_window_entitlements WHERE user_id = $1 AND starts_at <= $2 AND (ends_at IS NULL OR ends_at > $2)) AS entitlements,
      (SELECT coalesce(json_agg(json_build_object('kind', kind, 'seq', seq, 'cum', cum, 'lastAt', last_at, 'retentionMs', retention_ms)), '[]')
        FROM points_usage_heads WHERE user_id = $1) AS heads,
      (SELECT coalesce(json_agg(json_build_object('id', id, 'kind', kind, 'amount', amount, 'remaining', remaining, 'expiresAt', expires_at,
          'createdAt', created_at)), '[]')
        FROM points_balances WHERE user_id = $1 AND remaining > 0 AND ended_at IS NULL AND (expires_at IS NULL OR expires_at > $2)) AS balances,
      (${seeksSql('$1', '$3', '$4')}) AS seeks`,
  seeks: `SELECT (${seeksSql('$1', '$2', '$3')}) AS seeks`,
  insertBalance: `INSERT INTO points_balances (id, realm_id, user_id, kind, amount, remaining, expires_at, source, created_at)
    VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
  insertEntitlement: `INSERT INTO points_window_entitlements (id, realm_id, user_id, kind, windows, starts_at, ends_at, source, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING`,
  upsertRetention: `INSERT INTO points_usage_heads (user_id, kind, seq, cum, last_at, retention_ms) VALUES ($1, $2, 0, 0, 0, $3)
    ON CONFLICT (user_id, kind) DO UPDATE SET retention_ms = greatest(points_usage_heads.retention_ms, excluded.retention_ms)`,
  // The live balances of a user other than one (the grant just inserted).
  otherLiveTotal: `SELECT coalesce(sum(remaining), 0)::bigint AS total FROM points_balances
    WHERE user_id = $1 AND id <> $2 AND remaining > 0 AND ended_at IS NULL AND (expires_at IS NULL OR expires_at > $3)`,
  trimBalance: 'UPDATE points_balances SET amount = $2, remaining = $2 WHERE id = $1',
  // A consume's writes in one statement: the ledger rows, the heads they move, the balances drawn
  // (CHECK remaining >= 0 refuses an overdraw whatever happened), the transaction and the answer
  // kept under its idempotency key (the key's primary key refuses a second writer of it).
  consume: `WITH ledger AS (
      INSERT INTO points_usage_ledger (user_id, kind, at, seq, amount, cum)
      SELECT $1::text, l.kind, l.at, l.seq, l.amount, l.cum
      FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[]) AS l(kind, at, seq, amount, cum)
    ), heads AS (
      INSERT INTO points_usage_heads (user_id, kind, seq, cum, last_at, retention_ms)
      SELECT $1::text, h.kind, h.seq, h.cum, h.last_at, 0 FROM unnest($7::text[], $8::bigint[], $9::bigint[], $10::bigint[]) AS h(kind, seq, cum, last_at)
      ON CONFLICT (user_id, kind) DO UPDATE SET seq = excluded.seq, cum = excluded.cum, last_at = excluded.last_at
    ), spends AS (
      UPDATE points_balances b SET remaining = b.remaining - x.amount FROM unnest($11::text[], $12::bigint[]) AS x(id, amount) WHERE b.id = x.id
    ), recorded AS (
      INSERT INTO points_transactions (id, realm_id, user_id, amount, description, allocations, created_at)
      VALUES ($13::text, $14::text, $1::text, $15::bigint, $16::text, $17::text, $18::bigint)
    )
    INSERT INTO points_idempotency (realm_id, scope, key, request_hash, response, created_at)
    SELECT $14::text, 'consume', $19::text, $20::text, $21::text, $18::bigint WHERE $19::text IS NOT NULL`,
  // The oldest rows up to the cutoff, about `batch` of them: up to the time of the row `batch`
  // places in (all of them when there are fewer). Rows sharing that millisecond go together.
  prune: `DELETE FROM points_usage_ledger WHERE user_id = $1 AND kind = $2 AND at <= least($3::bigint, coalesce(
      (SELECT at FROM points_usage_ledger WHERE user_id = $1 AND kind = $2 ORDER BY at, seq LIMIT 1 OFFSET $4::bigint - 1), $3::bigint))`,
  saveAnswer: 'INSERT INTO points_idempotency (realm_id, scope, key, request_hash, response, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
};

function seeksSql(user: string, kinds: string, froms: string): string {
  return `SELECT coalesce(json_agg(json_build_object('kind', s.kind, 'from', s.from,
      'before', (SELECT cum FROM points_usage_ledger l WHERE l.user_id = ${user} AND l.kind = s.kind AND l.at <= s.from
        ORDER BY l.at DESC, l.seq DESC LIMIT 1),
      'first', (SELECT json_build_object('at', at, 'cum', cum, 'amount', amount) FROM points_usage_ledger l
        WHERE l.user_id = ${user} AND l.kind = s.kind AND l.at > s.from ORDER BY l.at, l.seq LIMIT 1))), '[]')
    FROM unnest(${kinds}::text[], ${froms}::bigint[]) AS s(kind, "from")`;
}

/** An idempotency key's stored answer. */
export interface StoredAnswer {
  requestHash: string;
  response: string;
}

/** What a points use case reads before its rules run (besides the state). */
export interface PointsContext {
  idem: StoredAnswer | undefined;
  config: DefaultPointsConfig;
  subs: ActiveSubscription[];
  /** Of the sources looked for, those granted already as a balance, and as a window entitlement
   *  (each form is inserted once per source into its own table). */
  existing: { balance: Set<string>; window: Set<string> };
}

interface Seek {
  kind: QuotaKind;
  from: number;
  before: number | null;
  first: LedgerRow | null;
}

interface StateRead {
  entitlements: WindowEntitlement[];
  heads: Map<QuotaKind, LedgerHead>;
  balances: Balance[];
  seeks: Map<string, Seek>;
}

const seekKey = (kind: string, from: number) => `${kind}\u0000${from}`;

/** What a use case gets back from open(): each part resolves as its statement answers. */
export interface Opened {
  /** Whether the user exists in the realm (its row is now locked). */
  found: Promise<boolean>;
  context: Promise<PointsContext>;
  state: Promise<StateRead>;
}

interface Hints {
  sources: string[];
  windows: Array<[QuotaKind, number]>;
}

/** Most users whose hints a store keeps; past it the map starts again. */
const HINTS_MAX = 50_000;

export class PointsAccess {
  private readonly hints = new Map<string, Hints>();

  /** Sends the lock and the reads of a use case on `userId`, pipelined behind whatever `tx` sent. */
  open(tx: Tx, realmId: string, userId: string, now: number, idem: { scope: string; key: string | null } | null): Opened {
    const h = this.hints.get(userId);
    const found = quiet(tx.rows(POINTS_SQL.lockUser, [realmId, userId]).then((r) => r.length === 1));
    const context = quiet(
      tx
        .row<{
          idem: StoredAnswer | null;
          config: ConfigRow | null;
          subs: Array<{ id: string; terms: string; startedAt: number }>;
          existingBalances: string[];
          existingEntitlements: string[];
        }>(POINTS_SQL.context, [realmId, userId, idem?.scope ?? '', idem?.key ?? null, h?.sources ?? []])
        .then((r) => ({
          idem: r!.idem ?? undefined,
          config: toConfig(r!.config, realmId),
          subs: r!.subs.map((s) => ({ id: s.id, terms: parsedJson<SubscriptionTerms>(s.terms), startedAt: s.startedAt })),
          existing: { balance: new Set(r!.existingBalances), window: new Set(r!.existingEntitlements) },
        })),
    );
    return { found, context, state: this.readState(tx, userId, now, h?.windows ?? []) };
  }

  private readState(tx: Tx, userId: string, now: number, windows: Array<[QuotaKind, number]>): Promise<StateRead> {
    const froms = windows.map(([, ws]) => windowStart(now, ws));
    type Row = {
      entitlements: Array<{ id: string; kind: QuotaKind; windows: string; startsAt: number; endsAt: number | null }>;
      heads: Array<LedgerHead & { kind: QuotaKind }>;
      balances: Balance[];
      seeks: Seek[];
    };
    return quiet(
      tx.row<Row>(POINTS_SQL.state, [userId, now, windows.map(([k]) => k), froms]).then((r) => ({
        entitlements: r!.entitlements.map((e) => ({
          id: e.id,
          kind: e.kind,
          windows: parsedJson<QuotaWindow[]>(e.windows),
          startsAt: e.startsAt,
          endsAt: e.endsAt,
        })),
        heads: new Map(r!.heads.map(({ kind, ...head }) => [kind, head])),
        balances: r!.balances,
        seeks: new Map(r!.seeks.map((s) => [seekKey(s.kind, s.from), s])),
      })),
    );
  }

  /** Materialises what is due (materialise.ts) and assembles the user's state (state.ts):
   *  `withTimes: false` (consume, grant) leaves out what only the windows' recovery times need. */
  async materialisedState(
    tx: Tx,
    realmId: string,
    userId: string,
    now: number,
    c: PointsContext,
    read: Promise<StateRead>,
    withTimes: boolean,
  ): Promise<UserPointsState> {
    const due = dueGrants(c.config, c.subs, now);
    // A due grant not known to exist is inserted unless it does (ON CONFLICT DO NOTHING); the
    // state is read again only when one was.
    let inserted = false;
    for (const g of due) if (!c.existing[g.form].has(g.source) && (await insertDue(tx, realmId, userId, g, now))) inserted = true;
    let st = await read;
    if (inserted) st = await this.readState(tx, userId, now, this.hints.get(userId)?.windows ?? []);
    const state = await this.assemble(tx, userId, now, st, withTimes);
    this.remember(userId, due, state.bindings);
    return state.state;
  }

  /** The state from a read, seeking the windows the read did not (one more round trip). */
  private async assemble(
    tx: Tx,
    userId: string,
    now: number,
    st: StateRead,
    withTimes: boolean,
  ): Promise<{ state: UserPointsState; bindings: QuotaBinding[] }> {
    const bindings = quotaBindings(st.entitlements, now);
    const heads = bindings.map((b) => st.heads.get(b.kind));
    const unseeked: Array<[QuotaKind, number]> = [];
    bindings.forEach((b, i) => {
      if (ledgerIsEmpty(heads[i])) return;
      for (const w of b.windows) if (!st.seeks.has(seekKey(b.kind, windowStart(now, w.windowSeconds)))) unseeked.push([b.kind, w.windowSeconds]);
    });
    if (unseeked.length > 0) {
      const r = await tx.row<{ seeks: Seek[] }>(POINTS_SQL.seeks, [userId, unseeked.map(([k]) => k), unseeked.map(([, ws]) => windowStart(now, ws))]);
      for (const s of r!.seeks) st.seeks.set(seekKey(s.kind, s.from), s);
    }
    const usage = bindings.map((b, i) =>
      b.windows.map((w): WindowUsageFacts => {
        if (ledgerIsEmpty(heads[i])) return windowUsage(heads[i], undefined, undefined);
        const s = st.seeks.get(seekKey(b.kind, windowStart(now, w.windowSeconds)))!;
        const before = s.before ?? undefined;
        // As the SQLite store: without the times, the row after the start is read only when no
        // row at or before it answers `used`.
        const first = withTimes || before === undefined ? (s.first ?? undefined) : undefined;
        return windowUsage(heads[i], before, first);
      }),
    );
    return { state: userState(bindings, heads, usage, st.balances), bindings };
  }

  private remember(userId: string, due: DueGrant[], bindings: QuotaBinding[]): void {
    if (this.hints.size >= HINTS_MAX) this.hints.clear();
    this.hints.set(userId, {
      sources: due.map((g) => g.source),
      windows: bindings.flatMap((b) => b.windows.map((w): [QuotaKind, number] => [b.kind, w.windowSeconds])),
    });
  }

  /** Runs a consume's writes (apply-plan.ts): one statement, plus a prune when one is due. */
  applyConsume(tx: Tx, realmId: string, userId: string, w: ConsumeWrites, description: string | null, idem: { key: string | null; requestHash: string }): void {
    const l = w.ledger;
    // A kind drawn twice appends two rows; its head ends at the last of them.
    const lastOfKind = new Map(l.map((a) => [a.kind, a]));
    const heads = [...lastOfKind.values()];
    const r = w.result;
    tx.run(POINTS_SQL.consume, [
      userId,
      l.map((a) => a.kind),
      l.map((a) => a.at),
      l.map((a) => a.seq),
      l.map((a) => a.amount),
      l.map((a) => a.cum),
      heads.map((a) => a.kind),
      heads.map((a) => a.seq),
      heads.map((a) => a.cum),
      heads.map((a) => a.at),
      w.spends.map((s) => s.sourceId),
      w.spends.map((s) => s.amount),
      r.transactionId,
      realmId,
      r.amount,
      description,
      JSON.stringify(r.allocations),
      r.createdAt,
      idem.key,
      idem.requestHash,
      JSON.stringify(r),
    ]);
    for (const a of l) if (a.prune) tx.run(POINTS_SQL.prune, [userId, a.kind, a.prune.cutoff, a.prune.batch]);
  }
}

/** A grant the service makes by itself, once per source: a balance is then cut to what keeps the
 *  user's live balances within MAX_POINTS (materialisedCut); a window entitlement widens the kind's
 *  ledger retention to what its longest window needs. True when it was inserted (not given
 *  before). */
export async function insertDue(tx: Tx, realmId: string, userId: string, g: DueGrant, now: number): Promise<boolean> {
  if (g.form === 'window') {
    const inserted = await tx.run(POINTS_SQL.insertEntitlement, [
      newId('ent'),
      realmId,
      userId,
      g.kind,
      JSON.stringify(g.windows),
      g.startsAt,
      g.endsAt,
      g.source,
      now,
    ]);
    if (inserted === 1) tx.run(POINTS_SQL.upsertRetention, [userId, g.kind, g.retentionMs]);
    return inserted === 1;
  }
  const id = newId('bal');
  if ((await tx.run(POINTS_SQL.insertBalance, [id, realmId, userId, g.kind, g.amount, g.expiresAt, g.source, now])) !== 1) return false;
  const others = await tx.row<{ total: number }>(POINTS_SQL.otherLiveTotal, [userId, id, now]);
  const cut = materialisedCut(others!.total, g.amount);
  if (cut !== null) tx.run(POINTS_SQL.trimBalance, [id, cut]);
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
