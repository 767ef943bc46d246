// SQLite implementation of PointsStore: each use case is one BEGIN IMMEDIATE transaction, so a
// read-plan-write never interleaves with another writer (no double spend, CONTRACT §6).
import { badRequest, GatehouseError } from '../errors.ts';
import { immediate, type Db } from './open.ts';
import { pointsSql, type PointsSql } from './points-sql.ts';
import { planConsume } from '../points/consume.ts';
import { type BalanceTotals, type ConsumeResult, type DefaultPointsConfig, type GrantResult, type PointsSummary, type QuotaKind } from '../points/model.ts';
import type { ConsumeCommand, DefaultConfigPatch, GrantCommand, PointsStore, PointsTransaction, StoredBalance } from '../points/store.ts';
import { grantOverCap } from '../points/total-cap.ts';

export class SqlitePointsStore implements PointsStore {
  private readonly p: PointsSql;
  private readonly s;

  constructor(private readonly db: Db) {
    this.p = pointsSql(db);
    this.s = {
      upsertConfig: db.prepare(`INSERT INTO points_default_config (realm_id, registration_bonus_points, free_periodic_points_amount,
          free_periodic_grant_period_type, free_periodic_validity_days, free_periodic_quota_windows, updated_at)
        VALUES (@realmId, @registrationBonusPoints, @freePeriodicPointsAmount, @freePeriodicGrantPeriodType, @freePeriodicValidityDays, @windows, @updatedAt)
        ON CONFLICT (realm_id) DO UPDATE SET registration_bonus_points = excluded.registration_bonus_points,
          free_periodic_points_amount = excluded.free_periodic_points_amount, free_periodic_grant_period_type = excluded.free_periodic_grant_period_type,
          free_periodic_validity_days = excluded.free_periodic_validity_days, free_periodic_quota_windows = excluded.free_periodic_quota_windows,
          updated_at = excluded.updated_at`),
      idem: db.prepare('SELECT request_hash, response FROM points_idempotency WHERE realm_id = ? AND scope = ? AND key = ?'),
      saveIdem: db.prepare('INSERT INTO points_idempotency (realm_id, scope, key, request_hash, response, created_at) VALUES (?, ?, ?, ?, ?, ?)'),
      insertTx: db.prepare('INSERT INTO points_transactions (id, realm_id, user_id, amount, description, allocations, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)'),
      balances: db.prepare(`SELECT id, kind, amount, remaining, expires_at, ended_at, created_at FROM points_balances
        WHERE realm_id = ? AND user_id = ? ORDER BY created_at, id`),
      transactions: db.prepare(`SELECT id, user_id, amount, description, allocations, created_at FROM points_transactions
        WHERE realm_id = ? AND user_id = ? ORDER BY created_at, id`),
    };
  }

  async realmExists(realmId: string): Promise<boolean> {
    return this.p.realmExists(realmId);
  }

  async getDefaultConfig(realmId: string): Promise<DefaultPointsConfig> {
    return this.p.config(realmId);
  }

  async putDefaultConfig(realmId: string, patch: DefaultConfigPatch, now: number): Promise<DefaultPointsConfig> {
    try {
      return await immediate(this.db, () => {
        const cur = this.p.config(realmId);
        const next: DefaultPointsConfig = {
          ...cur,
          ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
          updatedAt: now,
        };
        if (patch.freePeriodicQuotaWindows !== undefined) next.freePeriodicQuotaWindows = patch.freePeriodicQuotaWindows;
        this.s.upsertConfig.run({ ...next, windows: next.freePeriodicQuotaWindows === null ? null : JSON.stringify(next.freePeriodicQuotaWindows) });
        this.p.forgetConfigs(); // later units of this batch read the new value
        return next;
      });
    } finally {
      this.p.forgetConfigs(); // settled: a rolled-back batch must not leave its value cached
    }
  }

  async grantRegistration(realmId: string, userId: string, now: number): Promise<void> {
    await immediate(this.db, () => {
      const cfg = this.p.config(realmId);
      if (cfg.registrationBonusPoints > 0) this.p.insertMaterialisedBalance(realmId, userId, 'registration_credit', cfg.registrationBonusPoints, null, 'registration', now);
      this.p.materialiseFreePeriodic(realmId, userId, now);
    });
  }

  /** The stored first answer for a key, or null; idempotency_conflict when the body differs. */
  private replay<T>(realmId: string, scope: string, key: string | null, hash: string): T | null {
    if (key === null) return null;
    const r = this.s.idem.get(realmId, scope, key) as { request_hash: string; response: string } | undefined;
    if (!r) return null;
    if (r.request_hash !== hash) {
      throw new GatehouseError('idempotency_conflict', `Idempotency key ${key} was used with another request`, { extra: { idempotencyKey: key } });
    }
    return JSON.parse(r.response) as T;
  }

  async consume(cmd: ConsumeCommand, now: number): Promise<ConsumeResult> {
    return immediate(this.db, () => this.consumeIn(cmd, now));
  }

  private consumeIn(cmd: ConsumeCommand, now: number): ConsumeResult {
    const prior = this.replay<ConsumeResult>(cmd.realmId, 'consume', cmd.idempotencyKey, cmd.requestHash);
    if (prior) return prior;
    this.p.requireUser(cmd.realmId, cmd.userId);
    this.p.materialise(cmd.realmId, cmd.userId, now);
    const st = this.p.state(cmd.userId, now, false);
    const plan = planConsume(cmd.amount, st.quota, st.balances, now);
    if (!plan.ok) {
      // Thrown inside the transaction: everything above (materialised grants included) rolls back.
      throw new GatehouseError('insufficient_points', `Not enough points: have ${plan.have}, need ${cmd.amount}`, { extra: { have: plan.have, need: cmd.amount } });
    }
    // Window quota goes to the usage ledger; everything else (pools and fixed quota grants) is a balance.
    const windowSources = new Set(st.quota.map((q) => q.sourceId));
    for (const a of plan.allocations) {
      if (windowSources.has(a.sourceId)) {
        const kind = a.creditKind as QuotaKind;
        // The head state() read; used once (a second allocation of a kind would read it afresh).
        const known = st.heads.has(kind) ? { head: st.heads.get(kind) } : undefined;
        st.heads.delete(kind);
        this.p.recordUsage(cmd.userId, kind, a.amount, now, known);
      } else {
        this.p.spend(a.sourceId, a.amount);
      }
    }
    const quotaBefore = st.quota.reduce((s, q) => s + q.available, 0);
    const poolBefore = st.balances.reduce((s, b) => s + b.remaining, 0);
    const quota = quotaBefore - plan.fromQuota;
    const pool = poolBefore - plan.fromPool;
    const result: ConsumeResult = {
      transactionId: cmd.transactionId,
      userId: cmd.userId,
      amount: cmd.amount,
      allocations: plan.allocations,
      remaining: { quota, pool, total: quota + pool },
      createdAt: now,
    };
    this.s.insertTx.run(cmd.transactionId, cmd.realmId, cmd.userId, cmd.amount, cmd.description, JSON.stringify(plan.allocations), now);
    if (cmd.idempotencyKey !== null) this.s.saveIdem.run(cmd.realmId, 'consume', cmd.idempotencyKey, cmd.requestHash, JSON.stringify(result), now);
    return result;
  }

  async grant(cmd: GrantCommand, now: number): Promise<GrantResult> {
    return immediate(this.db, () => {
      const prior = this.replay<GrantResult>(cmd.realmId, 'grant', cmd.idempotencyKey, cmd.requestHash);
      if (prior) return prior;
      this.p.requireUser(cmd.realmId, cmd.userId);
      // Read and written in this one transaction: two concurrent grants cannot both fit.
      this.p.materialise(cmd.realmId, cmd.userId, now);
      const st = this.p.state(cmd.userId, now, false);
      const total = st.quota.reduce((s, q) => s + q.available, 0) + st.balances.reduce((s, b) => s + b.remaining, 0);
      const over = grantOverCap(total, cmd.amount);
      if (over) throw badRequest(`amount: ${over}`, { field: 'amount' });
      this.p.insertBalance(cmd.realmId, cmd.userId, cmd.kind, cmd.amount, cmd.expiresAt, `grant:${cmd.grantId}`, now, cmd.grantId);
      const result: GrantResult = { grantId: cmd.grantId, userId: cmd.userId, kind: cmd.kind, amount: cmd.amount, expiresAt: cmd.expiresAt, createdAt: now };
      if (cmd.idempotencyKey !== null) this.s.saveIdem.run(cmd.realmId, 'grant', cmd.idempotencyKey, cmd.requestHash, JSON.stringify(result), now);
      return result;
    });
  }

  async summary(realmId: string, userId: string, now: number): Promise<PointsSummary> {
    return immediate(this.db, () => {
      this.p.requireUser(realmId, userId);
      this.p.materialise(realmId, userId, now);
      const st = this.p.state(userId, now);
      const balances: BalanceTotals = { topup: 0, registration: 0, granted: 0, subscription: 0, freePeriodic: 0 };
      const field = { topup_credit: 'topup', registration_credit: 'registration', granted_credit: 'granted', subscription_credit: 'subscription', free_periodic_credit: 'freePeriodic' } as const;
      for (const b of st.balances) balances[field[b.kind]] += b.remaining;
      const spendableFromQuota = st.quota.reduce((s, q) => s + q.available, 0);
      const spendableFromPool = st.balances.reduce((s, b) => s + b.remaining, 0);
      return { userId, balances, windows: st.windows, spendableFromQuota, spendableFromPool, total: spendableFromQuota + spendableFromPool };
    });
  }

  async listBalances(realmId: string, userId: string): Promise<StoredBalance[]> {
    type Row = { id: string; kind: StoredBalance['kind']; amount: number; remaining: number; expires_at: number | null; ended_at: number | null; created_at: number };
    return (this.s.balances.all(realmId, userId) as Row[]).map((r) => ({
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
    return (this.s.transactions.all(realmId, userId) as Row[]).map((r) => ({
      transactionId: r.id,
      userId: r.user_id,
      amount: r.amount,
      description: r.description,
      allocations: JSON.parse(r.allocations) as PointsTransaction['allocations'],
      createdAt: r.created_at,
    }));
  }
}
