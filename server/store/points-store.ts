// SQLite implementation of PointsStore: each use case is one BEGIN IMMEDIATE transaction, so a
// read-plan-write never interleaves with another writer (no double spend, docs/points.md). Each reads
// what the points domain needs, asks it, and writes what it decided; a throw rolls the use case
// back, materialised grants included.

import { consumeWrites } from '../points/apply-plan.ts';
import { planConsume } from '../points/consume.ts';
import { mergeDefaultConfig } from '../points/default-config.ts';
import { grantWrites } from '../points/grant.ts';
import { replayOf } from '../points/idempotency.ts';
import { registrationGrants } from '../points/materialise.ts';
import type { ConsumeResult, DefaultPointsConfig, GrantResult, PointsSummary } from '../points/model.ts';
import { assertUser } from '../points/not-found.ts';
import type { ConsumeCommand, DefaultConfigPatch, GrantCommand, PointsStore, PointsTransaction, StoredBalance } from '../points/store.ts';
import { summarise } from '../points/summary.ts';
import { type Db, immediate } from './open.ts';
import { type PointsSql, pointsSql } from './points-sql.ts';

interface StoredAnswer {
  requestHash: string;
  response: string;
}

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
      idem: db.prepare('SELECT request_hash AS requestHash, response FROM points_idempotency WHERE realm_id = ? AND scope = ? AND key = ?'),
      saveIdem: db.prepare('INSERT INTO points_idempotency (realm_id, scope, key, request_hash, response, created_at) VALUES (?, ?, ?, ?, ?, ?)'),
      insertTx: db.prepare(
        'INSERT INTO points_transactions (id, realm_id, user_id, amount, description, allocations, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
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
        const next = mergeDefaultConfig(this.p.config(realmId), patch, now);
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
      for (const g of registrationGrants(this.p.config(realmId), now)) this.p.insertDue(realmId, userId, g, now);
    });
  }

  /** The first answer stored under the key, or null (idempotency.ts decides; throws on conflict). */
  private replay<T>(realmId: string, scope: string, key: string | null, requestHash: string): T | null {
    const stored = key === null ? undefined : (this.s.idem.get(realmId, scope, key) as StoredAnswer | undefined);
    const prior = replayOf(key, stored, requestHash);
    return prior && (JSON.parse(prior.response) as T);
  }

  private saveAnswer(realmId: string, scope: string, key: string | null, requestHash: string, answer: unknown, now: number): void {
    if (key !== null) this.s.saveIdem.run(realmId, scope, key, requestHash, JSON.stringify(answer), now);
  }

  async consume(cmd: ConsumeCommand, now: number): Promise<ConsumeResult> {
    return immediate(this.db, () => this.consumeIn(cmd, now));
  }

  private consumeIn(cmd: ConsumeCommand, now: number): ConsumeResult {
    const prior = this.replay<ConsumeResult>(cmd.realmId, 'consume', cmd.idempotencyKey, cmd.requestHash);
    if (prior) return prior;
    assertUser(this.p.userExists(cmd.realmId, cmd.userId), cmd.realmId, cmd.userId);
    this.p.materialise(cmd.realmId, cmd.userId, now);
    const st = this.p.state(cmd.userId, now, false);
    const w = consumeWrites(cmd, st, planConsume(cmd.amount, st.quota, st.balances, now), now);
    this.p.applyConsume(cmd.userId, w);
    const r = w.result;
    this.s.insertTx.run(r.transactionId, cmd.realmId, r.userId, r.amount, cmd.description, JSON.stringify(r.allocations), r.createdAt);
    this.saveAnswer(cmd.realmId, 'consume', cmd.idempotencyKey, cmd.requestHash, r, now);
    return r;
  }

  async grant(cmd: GrantCommand, now: number): Promise<GrantResult> {
    return immediate(this.db, () => {
      const prior = this.replay<GrantResult>(cmd.realmId, 'grant', cmd.idempotencyKey, cmd.requestHash);
      if (prior) return prior;
      assertUser(this.p.userExists(cmd.realmId, cmd.userId), cmd.realmId, cmd.userId);
      // Read and written in this one transaction: two concurrent grants cannot both fit.
      this.p.materialise(cmd.realmId, cmd.userId, now);
      const w = grantWrites(cmd, this.p.state(cmd.userId, now, false), now);
      this.p.insertBalance(cmd.realmId, cmd.userId, w.balance, now, cmd.grantId);
      this.saveAnswer(cmd.realmId, 'grant', cmd.idempotencyKey, cmd.requestHash, w.result, now);
      return w.result;
    });
  }

  async summary(realmId: string, userId: string, now: number): Promise<PointsSummary> {
    return immediate(this.db, () => {
      assertUser(this.p.userExists(realmId, userId), realmId, userId);
      this.p.materialise(realmId, userId, now);
      return summarise(userId, this.p.state(userId, now));
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
