import { type ChangeBy, SYSTEM_CHANGE } from '../../admin/store.ts';
import { decideCodeIssue, mayStartTransaction } from '../../auth/authorize-transaction.ts';
import { decideCodeExchange } from '../../auth/code-exchange.ts';
import { familyExpiresAt, revocationApplies } from '../../auth/family-lifetime.ts';
import { decideRotation } from '../../auth/refresh-rotation.ts';
import { type RotationDecision, rotationWrites } from '../../auth/signing-key-rotation.ts';
import type {
  AuthorizationCode,
  AuthorizeTransaction,
  AuthStore,
  CodeDraft,
  ConsumeWebAttemptResult,
  ExchangeCodeResult,
  IssueCodeResult,
  NewRefreshToken,
  RotateResult,
  SigningKeyRecord,
  SigningKeyRotation,
  SweepKind,
  TokenFamily,
  WebLoginAttempt,
} from '../../auth/store.ts';
import { SWEEP_RULES } from '../../auth/sweep-rules.ts';
import { decideAttemptUse } from '../../auth/web-attempt.ts';
import type { SecretBox } from '../../crypto/secrets.ts';
import type { Emitted } from '../../events/plan.ts';
import { accountGone } from '../../users/deletion.ts';
import {
  type AttemptRow,
  type CodeRow,
  type FamilyRow,
  type KeyRow,
  type RefreshRow,
  sealedPrivatePem,
  type TxRow,
  toAttempt,
  toCode,
  toFamily,
  toKey,
  toRefresh,
  toTx,
} from '../auth-rows.ts';
import { CacheVersion } from './cache-version.ts';
import { writeEmitted } from './records.ts';
import { inTransaction, query, RetryUseCase, type Tx, type TxContext } from './tx.ts';

const SQL = {
  totals: `SELECT (SELECT count(*) FROM token_families) AS families, (SELECT count(*) FROM refresh_tokens) AS "refreshTokens",
    (SELECT count(*) FROM authorization_codes) AS codes, (SELECT count(*) FROM authorize_transactions) AS transactions,
    (SELECT count(*) FROM apple_web_attempts) AS "webAttempts"`,
  currentKey: 'SELECT * FROM signing_keys WHERE realm_id = $1 AND retired_at IS NULL ORDER BY created_at DESC LIMIT 1',
  keyByKid: 'SELECT * FROM signing_keys WHERE kid = $1',
  keysOfRealm: 'SELECT * FROM signing_keys WHERE realm_id = $1 ORDER BY created_at',
  // One realm's key is created once: whoever holds the realm row's lock checks and creates.
  lockRealm: 'SELECT 1 FROM realms WHERE id = $1 FOR NO KEY UPDATE',
  insertKey: 'INSERT INTO signing_keys (kid, realm_id, alg, private_pem, public_jwk, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
  retireKey: 'UPDATE signing_keys SET retired_at = $2 WHERE kid = $1',
  // Its clients' access-token lifetimes and its live sessions' (family-lifetime.ts sessionIsLive); null: none.
  longestAccessTtl: `SELECT max(ttl)::int AS ttl FROM (SELECT max(access_token_ttl_seconds) AS ttl FROM clients WHERE realm_id = $1
    UNION ALL SELECT max(access_ttl_s) FROM token_families WHERE realm_id = $1 AND expires_at > $2 AND revoked_at IS NULL) t`,
  realmsWithKeysCreatedBy: 'SELECT realm_id FROM signing_keys WHERE retired_at IS NULL AND created_at <= $1 ORDER BY realm_id',
  // A new session and its first refresh token, for a live account only: the account's row is locked
  // FOR KEY SHARE, so a deletion holding it is waited for and then seen (no row: nothing written).
  insertSession: `WITH live AS (SELECT id FROM users WHERE id = $3 AND deleted_at IS NULL FOR KEY SHARE), family AS (
      INSERT INTO token_families (id, realm_id, user_id, client_id, ip, ip_binding, access_ttl_s, refresh_ttl_s, created_at, expires_at,
        provider)
      SELECT $1::text, $2::text, live.id, $4::text, $5::text, $6::text, $7::bigint, $8::bigint, $9::bigint, $10::bigint, $13::text FROM live RETURNING id
    )
    INSERT INTO refresh_tokens (token_hash, family_id, created_at, expires_at) SELECT $11::text, family.id, $9::bigint, $12::bigint FROM family`,
  setFamilyExpiry: 'UPDATE token_families SET expires_at = $2 WHERE id = $1',
  getFamily: 'SELECT * FROM token_families WHERE id = $1',
  lockFamily: 'SELECT * FROM token_families WHERE id = $1 FOR NO KEY UPDATE',
  revokeFamily: 'UPDATE token_families SET revoked_at = $2, revoked_reason = $3 WHERE id = $1',
  lockFamiliesOfUser: 'SELECT * FROM token_families WHERE user_id = $1 AND realm_id = $2 FOR NO KEY UPDATE',
  insertRefresh: 'INSERT INTO refresh_tokens (token_hash, family_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
  getRefresh: 'SELECT * FROM refresh_tokens WHERE token_hash = $1',
  lockRefresh: 'SELECT * FROM refresh_tokens WHERE token_hash = $1 FOR NO KEY UPDATE',
  // The family of a token whose row this transaction locked: read (and locked) after it.
  lockFamilyOfRefresh: `SELECT f.* FROM refresh_tokens r JOIN token_families f ON f.id = r.family_id WHERE r.token_hash = $1
    FOR NO KEY UPDATE OF f`,
  familyOfRefresh: `SELECT r.expires_at AS token_expires_at, r.rotated_at AS token_rotated_at, f.* FROM refresh_tokens r
    JOIN token_families f ON f.id = r.family_id WHERE r.token_hash = $1`,
  rotateRefresh: 'UPDATE refresh_tokens SET rotated_at = $2 WHERE token_hash = $1',
  getTx: 'SELECT * FROM authorize_transactions WHERE realm_id = $1 AND state = $2',
  lockTx: 'SELECT * FROM authorize_transactions WHERE realm_id = $1 AND state = $2 FOR UPDATE',
  insertTx: `INSERT INTO authorize_transactions (realm_id, state, client_id, redirect_uri, code_challenge, scope, created_at, expires_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
  replaceTx: `UPDATE authorize_transactions SET client_id = $3, redirect_uri = $4, code_challenge = $5, scope = $6, created_at = $7,
    expires_at = $8, consumed_at = NULL WHERE realm_id = $1 AND state = $2`,
  consumeTx: 'UPDATE authorize_transactions SET consumed_at = $3 WHERE realm_id = $1 AND state = $2',
  insertCode: `INSERT INTO authorization_codes (code_hash, realm_id, client_id, redirect_uri, code_challenge, scope, user_id, ip, provider, created_at,
    expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
  lockCode: 'SELECT * FROM authorization_codes WHERE code_hash = $1 FOR UPDATE',
  lockFamilyOfCode: `SELECT f.* FROM authorization_codes c JOIN token_families f ON f.id = c.family_id WHERE c.code_hash = $1
    FOR NO KEY UPDATE OF f`,
  useCode: 'UPDATE authorization_codes SET used_at = $2, family_id = $3 WHERE code_hash = $1',
  insertAttempt: `INSERT INTO apple_web_attempts (state_hash, realm_id, client_id, downstream_state, nonce, created_at, expires_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7)`,
  lockAttempt: 'SELECT * FROM apple_web_attempts WHERE state_hash = $1 AND realm_id = $2 FOR UPDATE',
  consumeAttempt: 'UPDATE apple_web_attempts SET consumed_at = $2 WHERE state_hash = $1',
};

// The sweep's statements, what sweep-rules.ts `sweepable` accepts: each deletes at most `limit`
// rows found through an index (005_auth_expiry.sql), so one holds the database briefly.
interface SweepStatement {
  text: string;
  values: (now: number, limit: number) => unknown[];
}
// `key`: the table's primary key columns.
const expired = (table: string, key: string): SweepStatement => ({
  text: `DELETE FROM ${table} WHERE (${key}) IN (SELECT ${key} FROM ${table} WHERE expires_at <= $1 LIMIT $2)`,
  values: (now, limit) => [now, limit],
});
const used = (table: string, key: string, usedColumn: string): SweepStatement => ({
  text: `DELETE FROM ${table} WHERE (${key}) IN (SELECT ${key} FROM ${table} WHERE ${usedColumn} IS NOT NULL LIMIT $1)`,
  values: (_now, limit) => [limit],
});
const expiredOrUsed = (kind: SweepKind, table: string, key: string, usedColumn: string) => [
  expired(table, key),
  ...(SWEEP_RULES[kind].goesOnceUsed ? [used(table, key, usedColumn)] : []),
];
// Families in expiry order, the first `limit` of them: first their refresh tokens go (at most
// `limit`), then those of them left without tokens. The same order in both, so a family with many
// tokens is emptied over a few calls and then deleted. (Families never go once used.)
const EXPIRED_FAMILIES = 'SELECT id FROM token_families WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2';
const SWEEPS: Record<SweepKind, SweepStatement[]> = {
  transactions: expiredOrUsed('transactions', 'authorize_transactions', 'realm_id, state', 'consumed_at'),
  codes: expiredOrUsed('codes', 'authorization_codes', 'code_hash', 'used_at'),
  webAttempts: expiredOrUsed('webAttempts', 'apple_web_attempts', 'state_hash', 'consumed_at'),
  appleNotifications: expiredOrUsed('appleNotifications', 'apple_notifications', 'realm_id, jti', 'received_at'),
  families: [
    {
      text: `DELETE FROM refresh_tokens WHERE token_hash IN
        (SELECT r.token_hash FROM (${EXPIRED_FAMILIES}) f JOIN refresh_tokens r ON r.family_id = f.id LIMIT $2)`,
      values: (now, limit) => [now, limit],
    },
    {
      text: `DELETE FROM token_families WHERE id IN (SELECT f.id FROM (${EXPIRED_FAMILIES}) f
        WHERE NOT EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.family_id = f.id))`,
      values: (now, limit) => [now, limit],
    },
  ],
};

export class PostgresAuthStore implements AuthStore {
  constructor(
    private readonly ctx: TxContext,
    private readonly secrets: SecretBox,
    private readonly version: CacheVersion = new CacheVersion(ctx.pool),
  ) {}

  private read<R>(text: string, values: unknown[]): Promise<R[]> {
    return query<R>(this.ctx.pool, text, values);
  }

  async sweep(kind: SweepKind, now: number, limit: number): Promise<number> {
    return inTransaction(this.ctx, 'sweep', async (tx) => {
      const counts = await Promise.all(SWEEPS[kind].map((st) => tx.run(st.text, st.values(now, limit))));
      return counts.reduce((a, b) => a + b, 0);
    });
  }

  async currentSigningKey(realmId: string, create: () => SigningKeyRecord): Promise<SigningKeyRecord> {
    const [found] = await this.read<KeyRow>(SQL.currentKey, [realmId]);
    if (found) return toKey(found, this.secrets);
    return inTransaction(this.ctx, 'currentSigningKey', async (tx) => {
      tx.run(SQL.lockRealm, [realmId]);
      const again = await tx.row<KeyRow>(SQL.currentKey, [realmId]);
      if (again) return toKey(again, this.secrets);
      const k = create();
      this.insertKey(tx, k);
      return k;
    });
  }

  private insertKey(tx: Tx, k: SigningKeyRecord): void {
    tx.run(SQL.insertKey, [k.kid, k.realmId, k.alg, sealedPrivatePem(k, this.secrets), JSON.stringify(k.publicJwk), k.createdAt]);
  }

  async rotateSigningKey(
    realmId: string,
    now: number,
    decide: (current: SigningKeyRecord | null, longestAccessTtlS: number | null) => RotationDecision,
    create: (current: SigningKeyRecord | null) => SigningKeyRecord,
    by: ChangeBy = SYSTEM_CHANGE,
  ): Promise<SigningKeyRotation> {
    return inTransaction(this.ctx, 'rotateSigningKey', async (tx): Promise<SigningKeyRotation> => {
      // Replicas rotating together queue on the realm's lock; each later one reads the key the
      // first made (READ COMMITTED: a statement after the lock sees what committed before it).
      tx.run(SQL.lockRealm, [realmId]);
      const [found, longest] = await Promise.all([
        tx.row<KeyRow>(SQL.currentKey, [realmId]),
        tx.row<{ ttl: number | null }>(SQL.longestAccessTtl, [realmId, now]),
      ]);
      const current = found ? toKey(found, this.secrets) : null;
      const { retire, insert, answer, audit } = rotationWrites(current, decide(current, longest?.ttl ?? null), create, by);
      if (retire) tx.run(SQL.retireKey, [retire.kid, retire.at]);
      if (insert) this.insertKey(tx, insert);
      writeEmitted(tx, { events: [], audit, jobs: [] }, this.secrets);
      return answer;
    });
  }

  async realmsWithKeysCreatedBy(createdAt: number): Promise<string[]> {
    return (await this.read<{ realm_id: string }>(SQL.realmsWithKeysCreatedBy, [createdAt])).map((r) => r.realm_id);
  }

  /** cache_version (001_core.sql), which a trigger moves on any change of signing_keys (009). */
  signingKeysVersion(): Promise<number> {
    return this.version.current();
  }

  async signingKey(kid: string): Promise<SigningKeyRecord | null> {
    const [r] = await this.read<KeyRow>(SQL.keyByKid, [kid]);
    return r ? toKey(r, this.secrets) : null;
  }

  async signingKeys(realmId: string): Promise<SigningKeyRecord[]> {
    return (await this.read<KeyRow>(SQL.keysOfRealm, [realmId])).map((r) => toKey(r, this.secrets));
  }

  async createFamily(family: TokenFamily, refresh: NewRefreshToken): Promise<void> {
    // BEGIN, the insert and COMMIT go out together: one round trip. A deleted account's insert
    // wrote nothing, and is told after the commit.
    const sent = await inTransaction(this.ctx, 'createFamily', async (tx) => ({
      inserted: insertFamily(tx, family, refresh, familyExpiresAt(family, refresh, family.createdAt)),
    }));
    if ((await sent.inserted) !== 1) throw accountGone(family.userId);
  }

  async totals() {
    const [r] = await this.read<{ families: number; refreshTokens: number; codes: number; transactions: number; webAttempts: number }>(SQL.totals, []);
    return r!;
  }

  async getFamily(id: string): Promise<TokenFamily | null> {
    const [r] = await this.read<FamilyRow>(SQL.getFamily, [id]);
    return r ? toFamily(r) : null;
  }

  async rotateRefreshToken(
    hash: string,
    now: number,
    check: (f: TokenFamily) => string | null,
    next: (f: TokenFamily) => NewRefreshToken,
  ): Promise<RotateResult> {
    return inTransaction(this.ctx, 'rotateRefreshToken', async (tx): Promise<RotateResult> => {
      const rtRow = tx.row<RefreshRow>(SQL.lockRefresh, [hash]);
      const frRow = tx.row<FamilyRow>(SQL.lockFamilyOfRefresh, [hash]);
      const rt = await rtRow;
      const fr = await frRow;
      const d = decideRotation(rt ? toRefresh(rt) : null, fr ? toFamily(fr) : null, fr ? fr.expires_at : null, now, check, next);
      if (d.kind === 'reused') {
        tx.run(SQL.revokeFamily, [d.family.id, now, d.reason]);
        writeEmitted(tx, { events: d.events, audit: [], jobs: [] }, this.secrets);
        return { kind: 'reused', family: d.family };
      }
      if (d.kind === 'ok') {
        tx.run(SQL.rotateRefresh, [hash, now]);
        tx.run(SQL.insertRefresh, [d.next.hash, d.family.id, now, d.next.expiresAt]);
        tx.run(SQL.setFamilyExpiry, [d.family.id, d.familyExpiresAt]);
        return { kind: 'ok', family: d.family };
      }
      return d;
    });
  }

  async familyOfRefreshToken(hash: string) {
    const [r] = await this.read<FamilyRow & { token_expires_at: number; token_rotated_at: number | null }>(SQL.familyOfRefresh, [hash]);
    if (!r) return null;
    return { family: toFamily(r), expiresAt: r.token_expires_at, rotatedAt: r.token_rotated_at };
  }

  async revokeFamiliesOfUser(realmId: string, userId: string, now: number, reason: string, emitted?: (revokedIds: string[]) => Emitted): Promise<number> {
    return inTransaction(this.ctx, 'revokeFamiliesOfUser', async (tx) => {
      const live = (await tx.rows<FamilyRow>(SQL.lockFamiliesOfUser, [userId, realmId])).map(toFamily).filter(revocationApplies);
      for (const f of live) tx.run(SQL.revokeFamily, [f.id, now, reason]);
      if (emitted) writeEmitted(tx, emitted(live.map((f) => f.id)), this.secrets);
      return live.length;
    });
  }

  async revokeFamily(id: string, now: number, reason: string, emitted?: (family: TokenFamily) => Emitted): Promise<void> {
    await inTransaction(this.ctx, 'revokeFamily', async (tx) => {
      const r = await tx.row<FamilyRow>(SQL.lockFamily, [id]);
      if (!r || !revocationApplies(toFamily(r))) return;
      tx.run(SQL.revokeFamily, [id, now, reason]);
      if (emitted) writeEmitted(tx, emitted(toFamily(r)), this.secrets);
    });
  }

  async createAuthorizeTransaction(t: AuthorizeTransaction): Promise<boolean> {
    return inTransaction(this.ctx, 'createAuthorizeTransaction', async (tx) => {
      const old = await tx.row<TxRow>(SQL.lockTx, [t.realmId, t.state]);
      const may = mayStartTransaction(old ? toTx(old) : null, t.createdAt);
      if (!may) return false;
      const values = [t.realmId, t.state, t.clientId, t.redirectUri, t.codeChallenge, t.scope, t.createdAt, t.expiresAt];
      if (old) tx.run(SQL.replaceTx, values);
      // None was there to lock: a concurrent /authorize with the same state may insert first; the
      // use case then runs again and decides against the winner's row.
      else if ((await tx.run(SQL.insertTx, values)) === 0) throw new RetryUseCase('authorize transaction created concurrently');
      return true;
    });
  }

  async getAuthorizeTransaction(realmId: string, state: string): Promise<AuthorizeTransaction | null> {
    const [r] = await this.read<TxRow>(SQL.getTx, [realmId, state]);
    return r ? toTx(r) : null;
  }

  async issueCode(realmId: string, state: string, now: number, check: (tx: AuthorizeTransaction) => string | null, code: CodeDraft): Promise<IssueCodeResult> {
    return inTransaction(this.ctx, 'issueCode', async (tx): Promise<IssueCodeResult> => {
      const r = await tx.row<TxRow>(SQL.lockTx, [realmId, state]);
      const d = decideCodeIssue(r ? toTx(r) : null, check, code);
      if (d.kind === 'ok') {
        const c = d.code;
        tx.run(SQL.consumeTx, [realmId, state, now]);
        tx.run(SQL.insertCode, [c.hash, c.realmId, c.clientId, c.redirectUri, c.codeChallenge, c.scope, c.userId, c.ip, c.provider, c.createdAt, c.expiresAt]);
        return { kind: 'ok', tx: d.tx };
      }
      return d;
    });
  }

  async createWebAttempt(a: WebLoginAttempt): Promise<void> {
    await inTransaction(this.ctx, 'createWebAttempt', async (tx) => {
      tx.run(SQL.insertAttempt, [a.stateHash, a.realmId, a.clientId, a.downstreamState, a.nonce, a.createdAt, a.expiresAt]);
    });
  }

  async consumeWebAttempt(realmId: string, stateHash: string, now: number): Promise<ConsumeWebAttemptResult> {
    return inTransaction(this.ctx, 'consumeWebAttempt', async (tx): Promise<ConsumeWebAttemptResult> => {
      const r = await tx.row<AttemptRow>(SQL.lockAttempt, [stateHash, realmId]);
      const d = decideAttemptUse(r ? toAttempt(r) : null, now);
      if (d.kind === 'ok') tx.run(SQL.consumeAttempt, [stateHash, d.attempt.consumedAt]);
      return d;
    });
  }

  async exchangeCode(
    hash: string,
    now: number,
    check: (c: AuthorizationCode) => string | null,
    make: (c: AuthorizationCode) => { family: TokenFamily; refresh: NewRefreshToken },
  ): Promise<ExchangeCodeResult> {
    return inTransaction(this.ctx, 'exchangeCode', async (tx): Promise<ExchangeCodeResult> => {
      // A used code names the family issued from it: read (after the code's lock) for the
      // replay's revocation.
      const codeRow = tx.row<CodeRow>(SQL.lockCode, [hash]);
      const famRow = tx.row<FamilyRow>(SQL.lockFamilyOfCode, [hash]);
      const r = await codeRow;
      const fr = await famRow;
      const d = decideCodeExchange(r ? toCode(r) : null, fr ? toFamily(fr) : null, check, make);
      if (d.kind === 'replayed') {
        if (d.revoke !== null) tx.run(SQL.revokeFamily, [d.revoke, now, d.reason]);
        return { kind: 'replayed' };
      }
      if (d.kind === 'ok') {
        if ((await insertFamily(tx, d.family, d.refresh, d.familyExpiresAt)) !== 1) throw accountGone(d.family.userId);
        tx.run(SQL.useCode, [hash, now, d.family.id]);
        return { kind: 'ok', code: d.code };
      }
      return d;
    });
  }
}

/** The family and its first refresh token; 1, or 0 (nothing written) for a deleted account. */
function insertFamily(tx: Tx, f: TokenFamily, refresh: NewRefreshToken, expiresAt: number): Promise<number> {
  const values = [f.id, f.realmId, f.userId, f.clientId, f.ip, f.ipBinding, f.accessTtlS, f.refreshTtlS, f.createdAt, expiresAt];
  return tx.run(SQL.insertSession, [...values, refresh.hash, refresh.expiresAt, f.provider]);
}
