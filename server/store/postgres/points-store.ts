// PostgreSQL implementation of PointsStore. Each use case on a user's points is one transaction
// holding the user's row lock (points-sql.ts), so the consumes and grants of one user are serial
// on every replica: no double spend. A consume costs two round trips once the user's grants of the
// period are materialised: BEGIN, the lock and the reads together; the writes (one statement) and
// COMMIT together. Replays, refusals and conflicts follow the points domain as in the SQLite store.
import { consumeWrites } from '../../points/apply-plan.ts';
import { planConsume } from '../../points/consume.ts';
import { mergeDefaultConfig } from '../../points/default-config.ts';
import { grantWrites } from '../../points/grant.ts';
import { replayOf } from '../../points/idempotency.ts';
import { registrationGrants } from '../../points/materialise.ts';
import type { ConsumeResult, DefaultPointsConfig, GrantResult, PointsSummary } from '../../points/model.ts';
import { assertUser } from '../../points/not-found.ts';
import type { ConsumeCommand, DefaultConfigPatch, GrantCommand, PointsStore, PointsTransaction, StoredBalance } from '../../points/store.ts';
import { summarise } from '../../points/summary.ts';
import { insertDue, POINTS_SQL, PointsAccess, type StoredAnswer, toConfig } from './points-sql.ts';
import { inTransaction, query, type TxContext } from './tx.ts';

const SQL = {
  lockRealm: 'SELECT 1 FROM realms WHERE id = $1 FOR NO KEY UPDATE',
  upsertConfig: `INSERT INTO points_default_config (realm_id, registration_bonus_points, free_periodic_points_amount,
      free_periodic_grant_period_type, free_periodic_validity_days, free_periodic_quota_windows, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7)
    ON CONFLICT (realm_id) DO UPDATE SET registration_bonus_points = excluded.registration_bonus_points,
      free_periodic_points_amount = excluded.free_periodic_points_amount, free_periodic_grant_period_type = excluded.free_periodic_grant_period_type,
      free_periodic_validity_days = excluded.free_periodic_validity_days, free_periodic_quota_windows = excluded.free_periodic_quota_windows,
      updated_at = excluded.updated_at`,
  insertGrant: `INSERT INTO points_balances (id, realm_id, user_id, kind, amount, remaining, expires_at, source, created_at)
    VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
  balances: `SELECT id, kind, amount, remaining, expires_at, ended_at, created_at FROM points_balances
    WHERE realm_id = $1 AND user_id = $2 ORDER BY created_at, id COLLATE "C"`,
  transactions: `SELECT id, user_id, amount, description, allocations, created_at FROM points_transactions
    WHERE realm_id = $1 AND user_id = $2 ORDER BY created_at, id COLLATE "C"`,
};

export class PostgresPointsStore implements PointsStore {
  constructor(
    private readonly ctx: TxContext,
    private readonly p: PointsAccess = new PointsAccess(),
  ) {}

  async realmExists(realmId: string): Promise<boolean> {
    return (await query(this.ctx.pool, POINTS_SQL.realm, [realmId])).length === 1;
  }

  async getDefaultConfig(realmId: string): Promise<DefaultPointsConfig> {
    const [r] = await query<Parameters<typeof toConfig>[0]>(this.ctx.pool, POINTS_SQL.config, [realmId]);
    return toConfig(r, realmId);
  }

  async putDefaultConfig(realmId: string, patch: DefaultConfigPatch, now: number): Promise<DefaultPointsConfig> {
    return inTransaction(this.ctx, 'putDefaultConfig', async (tx) => {
      // Puts of one realm's configuration are serial: each merges onto the last.
      tx.run(SQL.lockRealm, [realmId]);
      const next = mergeDefaultConfig(toConfig(await tx.row(POINTS_SQL.config, [realmId]), realmId), patch, now);
      const windows = next.freePeriodicQuotaWindows === null ? null : JSON.stringify(next.freePeriodicQuotaWindows);
      tx.run(SQL.upsertConfig, [
        realmId,
        next.registrationBonusPoints,
        next.freePeriodicPointsAmount,
        next.freePeriodicGrantPeriodType,
        next.freePeriodicValidityDays,
        windows,
        next.updatedAt,
      ]);
      return next;
    });
  }

  async grantRegistration(realmId: string, userId: string, now: number): Promise<void> {
    await inTransaction(this.ctx, 'grantRegistration', async (tx) => {
      tx.run(POINTS_SQL.lockUser, [realmId, userId]);
      const cfg = toConfig(await tx.row(POINTS_SQL.config, [realmId]), realmId);
      for (const g of registrationGrants(cfg, now)) await insertDue(tx, realmId, userId, g, now);
    });
  }

  async consume(cmd: ConsumeCommand, now: number): Promise<ConsumeResult> {
    return inTransaction(this.ctx, 'consume', async (tx) => {
      const o = this.p.open(tx, cmd.realmId, cmd.userId, now, { scope: 'consume', key: cmd.idempotencyKey });
      const found = await o.found;
      const c = await o.context;
      const prior = replay<ConsumeResult>(cmd.idempotencyKey, c.idem, cmd.requestHash);
      if (prior) return prior;
      assertUser(found, cmd.realmId, cmd.userId);
      const st = await this.p.materialisedState(tx, cmd.realmId, cmd.userId, now, c, o.state, false);
      const w = consumeWrites(cmd, st, planConsume(cmd.amount, st.quota, st.balances, now), now);
      this.p.applyConsume(tx, cmd.realmId, cmd.userId, w, cmd.description, { key: cmd.idempotencyKey, requestHash: cmd.requestHash });
      return w.result;
    });
  }

  async grant(cmd: GrantCommand, now: number): Promise<GrantResult> {
    return inTransaction(this.ctx, 'grant', async (tx) => {
      const o = this.p.open(tx, cmd.realmId, cmd.userId, now, { scope: 'grant', key: cmd.idempotencyKey });
      const found = await o.found;
      const c = await o.context;
      const prior = replay<GrantResult>(cmd.idempotencyKey, c.idem, cmd.requestHash);
      if (prior) return prior;
      assertUser(found, cmd.realmId, cmd.userId);
      // Read and written under the user's lock: two concurrent grants cannot both fit.
      const st = await this.p.materialisedState(tx, cmd.realmId, cmd.userId, now, c, o.state, false);
      const w = grantWrites(cmd, st, now);
      const b = w.balance;
      tx.run(SQL.insertGrant, [cmd.grantId, cmd.realmId, cmd.userId, b.kind, b.amount, b.expiresAt, b.source, now]);
      if (cmd.idempotencyKey !== null)
        tx.run(POINTS_SQL.saveAnswer, [cmd.realmId, 'grant', cmd.idempotencyKey, cmd.requestHash, JSON.stringify(w.result), now]);
      return w.result;
    });
  }

  async summary(realmId: string, userId: string, now: number): Promise<PointsSummary> {
    return inTransaction(this.ctx, 'summary', async (tx) => {
      const o = this.p.open(tx, realmId, userId, now, null);
      assertUser(await o.found, realmId, userId);
      const st = await this.p.materialisedState(tx, realmId, userId, now, await o.context, o.state, true);
      return summarise(userId, st);
    });
  }

  async listBalances(realmId: string, userId: string): Promise<StoredBalance[]> {
    type Row = {
      id: string;
      kind: StoredBalance['kind'];
      amount: number;
      remaining: number;
      expires_at: number | null;
      ended_at: number | null;
      created_at: number;
    };
    return (await query<Row>(this.ctx.pool, SQL.balances, [realmId, userId])).map((r) => ({
      id: r.id,
      kind: r.kind,
      amount: r.amount,
      remaining: r.remaining,
      expiresAt: r.expires_at,
      createdAt: r.created_at,
      endedAt: r.ended_at,
    }));
  }

  async listTransactions(realmId: string, userId: string): Promise<PointsTransaction[]> {
    type Row = { id: string; user_id: string; amount: number; description: string | null; allocations: string; created_at: number };
    return (await query<Row>(this.ctx.pool, SQL.transactions, [realmId, userId])).map((r) => ({
      transactionId: r.id,
      userId: r.user_id,
      amount: r.amount,
      description: r.description,
      allocations: JSON.parse(r.allocations) as PointsTransaction['allocations'],
      createdAt: r.created_at,
    }));
  }
}

/** The first answer stored under the key, or null (idempotency.ts decides; throws on conflict). */
function replay<T>(key: string | null, stored: StoredAnswer | undefined, requestHash: string): T | null {
  const prior = replayOf(key, stored, requestHash);
  return prior && (JSON.parse(prior.response) as T);
}
