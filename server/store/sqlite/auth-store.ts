// SQLite implementation of AuthStore. Every method is one BEGIN IMMEDIATE transaction where it
import type { Emitted } from '../../events/plan.ts';
import { recordWriter } from './records.ts';
// reads then writes, so two exchanges of the same refresh token or code can never both succeed.
// The decisions are the auth concern's pure functions: a method reads the rows, maps them to
// records, asks, and writes what it was told.

import type { Statement } from 'better-sqlite3';
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
import { type Db, immediate } from './open.ts';
import { otherCommitsSignal } from './other-commits.ts';
import { objectRows } from './rows.ts';

export class SqliteAuthStore implements AuthStore {
  private readonly s;

  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
  ) {
    this.othersCommitted = otherCommitsSignal(db);
    this.s = {
      totals: db.prepare(`SELECT (SELECT count(*) FROM token_families) AS families, (SELECT count(*) FROM refresh_tokens) AS refreshTokens,
        (SELECT count(*) FROM authorization_codes) AS codes, (SELECT count(*) FROM authorize_transactions) AS transactions,
        (SELECT count(*) FROM apple_web_attempts) AS webAttempts`),
      currentKey: objectRows(db.prepare('SELECT * FROM signing_keys WHERE realm_id = ? AND retired_at IS NULL ORDER BY created_at DESC LIMIT 1')),
      keyByKid: objectRows(db.prepare('SELECT * FROM signing_keys WHERE kid = ?')),
      keysOfRealm: objectRows(db.prepare('SELECT * FROM signing_keys WHERE realm_id = ? ORDER BY created_at')),
      insertKey: db.prepare(`INSERT INTO signing_keys (kid, realm_id, alg, private_pem, public_jwk, created_at)
        VALUES (?, ?, ?, ?, ?, ?)`),
      retireKey: db.prepare('UPDATE signing_keys SET retired_at = ? WHERE kid = ?'),
      // Its clients' access-token lifetimes and its live sessions' (family-lifetime.ts sessionIsLive); null: none.
      longestAccessTtl: db
        .prepare(`SELECT max(ttl) FROM (SELECT max(access_token_ttl_seconds) AS ttl FROM clients WHERE realm_id = @realmId
        UNION ALL SELECT max(access_ttl_s) FROM token_families WHERE realm_id = @realmId AND expires_at > @now AND revoked_at IS NULL)`)
        .pluck(),
      realmsWithKeysCreatedBy: db.prepare('SELECT realm_id FROM signing_keys WHERE retired_at IS NULL AND created_at <= ? ORDER BY realm_id').pluck(),
      // Only for a live account (one statement, not a read and then the insert): no row otherwise.
      insertFamily: db.prepare(`INSERT INTO token_families (id, realm_id, user_id, client_id, ip, ip_binding, access_ttl_s, refresh_ttl_s, created_at,
        expires_at, provider) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM users WHERE id = ? AND deleted_at IS NULL)`),
      setFamilyExpiry: db.prepare('UPDATE token_families SET expires_at = ? WHERE id = ?'),
      getFamily: objectRows(db.prepare('SELECT * FROM token_families WHERE id = ?')),
      revokeFamily: db.prepare('UPDATE token_families SET revoked_at = ?, revoked_reason = ? WHERE id = ?'),
      familiesOfUser: objectRows(db.prepare('SELECT * FROM token_families WHERE user_id = ? AND realm_id = ?')),
      insertRefresh: db.prepare('INSERT INTO refresh_tokens (token_hash, family_id, created_at, expires_at) VALUES (?, ?, ?, ?)'),
      getRefresh: objectRows(db.prepare('SELECT * FROM refresh_tokens WHERE token_hash = ?')),
      rotateRefresh: db.prepare('UPDATE refresh_tokens SET rotated_at = ? WHERE token_hash = ?'),
      getTx: objectRows(db.prepare('SELECT * FROM authorize_transactions WHERE realm_id = ? AND state = ?')),
      upsertTx: db.prepare(`INSERT INTO authorize_transactions (realm_id, state, client_id, redirect_uri, code_challenge, scope, created_at, expires_at)
        VALUES (@realmId, @state, @clientId, @redirectUri, @codeChallenge, @scope, @createdAt, @expiresAt)
        ON CONFLICT (realm_id, state) DO UPDATE SET client_id = excluded.client_id, redirect_uri = excluded.redirect_uri,
          code_challenge = excluded.code_challenge, scope = excluded.scope, created_at = excluded.created_at,
          expires_at = excluded.expires_at, consumed_at = NULL`),
      consumeTx: db.prepare('UPDATE authorize_transactions SET consumed_at = ? WHERE realm_id = ? AND state = ?'),
      insertCode: db.prepare(`INSERT INTO authorization_codes (code_hash, realm_id, client_id, redirect_uri, code_challenge, scope, user_id, ip, provider,
        created_at, expires_at) VALUES (@hash, @realmId, @clientId, @redirectUri, @codeChallenge, @scope, @userId, @ip, @provider, @createdAt, @expiresAt)`),
      getCode: objectRows(db.prepare('SELECT * FROM authorization_codes WHERE code_hash = ?')),
      insertAttempt: db.prepare(`INSERT INTO apple_web_attempts (state_hash, realm_id, client_id, downstream_state, nonce, created_at, expires_at)
        VALUES (@stateHash, @realmId, @clientId, @downstreamState, @nonce, @createdAt, @expiresAt)`),
      getAttempt: objectRows(db.prepare('SELECT * FROM apple_web_attempts WHERE state_hash = ? AND realm_id = ?')),
      consumeAttempt: db.prepare('UPDATE apple_web_attempts SET consumed_at = ? WHERE state_hash = ?'),
      useCode: db.prepare('UPDATE authorization_codes SET used_at = ?, family_id = ? WHERE code_hash = ?'),
    };
    // The sweep's statements, what sweep-rules.ts `sweepable` accepts: each deletes at most `limit`
    // rows found through an index (005_auth_expiry.sql), so one runs in a few milliseconds however
    // much has piled up. (SQLite has DELETE … LIMIT only as a compile-time option: rowid IN (… LIMIT)
    // instead.)
    const limited = (table: string, where: string) =>
      db.prepare(`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE ${where} LIMIT @limit)`);
    const expiredOrUsed = (kind: SweepKind, table: string, usedColumn: string) => [
      limited(table, 'expires_at <= @now'),
      ...(SWEEP_RULES[kind].goesOnceUsed ? [limited(table, `${usedColumn} IS NOT NULL`)] : []),
    ];
    // Families in expiry order, the first `limit` of them: first their refresh tokens go (at most
    // `limit`), then those of them left without tokens. The same order in both, so a family with
    // many tokens is emptied over a few calls and then deleted. (Families never go once used.)
    const expiredFamilies = 'SELECT id FROM token_families WHERE expires_at <= @now ORDER BY expires_at LIMIT @limit';
    this.sweeps = {
      transactions: expiredOrUsed('transactions', 'authorize_transactions', 'consumed_at'),
      codes: expiredOrUsed('codes', 'authorization_codes', 'used_at'),
      webAttempts: expiredOrUsed('webAttempts', 'apple_web_attempts', 'consumed_at'),
      appleNotifications: expiredOrUsed('appleNotifications', 'apple_notifications', 'received_at'),
      families: [
        db.prepare(
          `DELETE FROM refresh_tokens WHERE rowid IN (SELECT r.rowid FROM (${expiredFamilies}) f JOIN refresh_tokens r ON r.family_id = f.id LIMIT @limit)`,
        ),
        db.prepare(`DELETE FROM token_families WHERE id IN (SELECT f.id FROM (${expiredFamilies}) f
          WHERE NOT EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.family_id = f.id))`),
      ],
    };
  }

  private readonly sweeps: Record<SweepKind, Statement[]>;

  async sweep(kind: SweepKind, now: number, limit: number): Promise<number> {
    const statements = this.sweeps[kind];
    const params = { now, limit };
    return immediate(this.db, () => {
      let n = 0;
      for (const st of statements) n += st.run(params).changes;
      return n;
    });
  }

  async currentSigningKey(realmId: string, create: () => SigningKeyRecord): Promise<SigningKeyRecord> {
    const found = this.s.currentKey.get(realmId) as KeyRow | undefined;
    if (found) return toKey(found, this.secrets);
    return immediate(this.db, () => {
      const again = this.s.currentKey.get(realmId) as KeyRow | undefined;
      if (again) return toKey(again, this.secrets);
      const k = create();
      this.insertKey(k);
      return k;
    });
  }

  private insertKey(k: SigningKeyRecord): void {
    this.s.insertKey.run(k.kid, k.realmId, k.alg, sealedPrivatePem(k, this.secrets), JSON.stringify(k.publicJwk), k.createdAt);
  }

  async rotateSigningKey(
    realmId: string,
    now: number,
    decide: (current: SigningKeyRecord | null, longestAccessTtlS: number | null) => RotationDecision,
    create: (current: SigningKeyRecord | null) => SigningKeyRecord,
    by: ChangeBy = SYSTEM_CHANGE,
  ): Promise<SigningKeyRotation> {
    const rotation = await immediate(this.db, (): SigningKeyRotation => {
      const found = this.s.currentKey.get(realmId) as KeyRow | undefined;
      const current = found ? toKey(found, this.secrets) : null;
      const decision = decide(current, this.s.longestAccessTtl.get({ realmId, now }) as number | null);
      const { retire, insert, answer, audit } = rotationWrites(current, decision, create, by);
      if (retire) this.s.retireKey.run(retire.at, retire.kid);
      if (insert) this.insertKey(insert);
      recordWriter(this.db, this.secrets)({ events: [], audit, jobs: [] });
      return answer;
    });
    if (rotation.rotated) this.keysVersion++;
    return rotation;
  }

  async realmsWithKeysCreatedBy(createdAt: number): Promise<string[]> {
    return this.s.realmsWithKeysCreatedBy.all(createdAt) as string[];
  }

  // Keys change rarely: the version moves on this store's own writes of keys and whenever another
  // connection committed (PRAGMA data_version, other-commits.ts).
  private keysVersion = 0;
  private readonly othersCommitted: () => boolean;

  async signingKeysVersion(): Promise<number> {
    if (this.othersCommitted()) this.keysVersion++;
    return this.keysVersion;
  }

  async signingKey(kid: string): Promise<SigningKeyRecord | null> {
    const r = this.s.keyByKid.get(kid) as KeyRow | undefined;
    return r ? toKey(r, this.secrets) : null;
  }

  async signingKeys(realmId: string): Promise<SigningKeyRecord[]> {
    return (this.s.keysOfRealm.all(realmId) as KeyRow[]).map((r) => toKey(r, this.secrets));
  }

  async createFamily(family: TokenFamily, refresh: NewRefreshToken): Promise<void> {
    await immediate(this.db, () => this.insertFamily(family, refresh, familyExpiresAt(family, refresh, family.createdAt)));
  }

  /** A deleted account gets no session (it may have been read live before the deletion). */
  private insertFamily(f: TokenFamily, refresh: NewRefreshToken, expiresAt: number): void {
    const inserted = this.s.insertFamily.run(
      f.id,
      f.realmId,
      f.userId,
      f.clientId,
      f.ip,
      f.ipBinding,
      f.accessTtlS,
      f.refreshTtlS,
      f.createdAt,
      expiresAt,
      f.provider,
      f.userId,
    );
    if (inserted.changes !== 1) throw accountGone(f.userId);
    this.s.insertRefresh.run(refresh.hash, f.id, f.createdAt, refresh.expiresAt);
  }

  async totals() {
    return this.s.totals.get() as { families: number; refreshTokens: number; codes: number; transactions: number; webAttempts: number };
  }

  async getFamily(id: string): Promise<TokenFamily | null> {
    const r = this.s.getFamily.get(id) as FamilyRow | undefined;
    return r ? toFamily(r) : null;
  }

  async rotateRefreshToken(
    hash: string,
    now: number,
    check: (f: TokenFamily) => string | null,
    next: (f: TokenFamily) => NewRefreshToken,
  ): Promise<RotateResult> {
    return immediate(this.db, (): RotateResult => {
      const rt = this.s.getRefresh.get(hash) as RefreshRow | undefined;
      const fr = rt ? (this.s.getFamily.get(rt.family_id) as FamilyRow | undefined) : undefined;
      const d = decideRotation(rt ? toRefresh(rt) : null, fr ? toFamily(fr) : null, fr ? fr.expires_at : null, now, check, next);
      if (d.kind === 'reused') {
        this.s.revokeFamily.run(now, d.reason, d.family.id);
        recordWriter(this.db, this.secrets)({ events: d.events, audit: [], jobs: [] });
        return { kind: 'reused', family: d.family };
      }
      if (d.kind === 'ok') {
        this.s.rotateRefresh.run(now, hash);
        this.s.insertRefresh.run(d.next.hash, d.family.id, now, d.next.expiresAt);
        this.s.setFamilyExpiry.run(d.familyExpiresAt, d.family.id);
        return { kind: 'ok', family: d.family };
      }
      return d;
    });
  }

  async familyOfRefreshToken(hash: string) {
    const rt = this.s.getRefresh.get(hash) as RefreshRow | undefined;
    if (!rt) return null;
    const f = this.s.getFamily.get(rt.family_id) as FamilyRow;
    return { family: toFamily(f), expiresAt: rt.expires_at, rotatedAt: rt.rotated_at };
  }

  async revokeFamily(id: string, now: number, reason: string, emitted?: (family: TokenFamily) => Emitted): Promise<void> {
    await immediate(this.db, () => {
      const r = this.s.getFamily.get(id) as FamilyRow | undefined;
      if (!r || !revocationApplies(toFamily(r))) return;
      this.s.revokeFamily.run(now, reason, id);
      if (emitted) recordWriter(this.db, this.secrets)(emitted(toFamily(r)));
    });
  }

  async revokeFamiliesOfUser(realmId: string, userId: string, now: number, reason: string, emitted?: (revokedIds: string[]) => Emitted): Promise<number> {
    return immediate(this.db, () => {
      const live = (this.s.familiesOfUser.all(userId, realmId) as FamilyRow[]).map(toFamily).filter(revocationApplies);
      for (const f of live) this.s.revokeFamily.run(now, reason, f.id);
      if (emitted) recordWriter(this.db, this.secrets)(emitted(live.map((f) => f.id)));
      return live.length;
    });
  }

  async createAuthorizeTransaction(tx: AuthorizeTransaction): Promise<boolean> {
    return immediate(this.db, () => {
      const old = this.s.getTx.get(tx.realmId, tx.state) as TxRow | undefined;
      const may = mayStartTransaction(old ? toTx(old) : null, tx.createdAt);
      if (may) this.s.upsertTx.run(tx);
      return may;
    });
  }

  async getAuthorizeTransaction(realmId: string, state: string): Promise<AuthorizeTransaction | null> {
    const r = this.s.getTx.get(realmId, state) as TxRow | undefined;
    return r ? toTx(r) : null;
  }

  async issueCode(realmId: string, state: string, now: number, check: (tx: AuthorizeTransaction) => string | null, code: CodeDraft): Promise<IssueCodeResult> {
    return immediate(this.db, (): IssueCodeResult => {
      const r = this.s.getTx.get(realmId, state) as TxRow | undefined;
      const d = decideCodeIssue(r ? toTx(r) : null, check, code);
      if (d.kind === 'ok') {
        this.s.consumeTx.run(now, realmId, state);
        this.s.insertCode.run(d.code);
        return { kind: 'ok', tx: d.tx };
      }
      return d;
    });
  }

  async createWebAttempt(a: WebLoginAttempt): Promise<void> {
    return immediate(this.db, () => this.insertWebAttempt(a));
  }

  private insertWebAttempt(a: WebLoginAttempt): void {
    this.s.insertAttempt.run({
      stateHash: a.stateHash,
      realmId: a.realmId,
      clientId: a.clientId,
      downstreamState: a.downstreamState,
      nonce: a.nonce,
      createdAt: a.createdAt,
      expiresAt: a.expiresAt,
    });
  }

  async consumeWebAttempt(realmId: string, stateHash: string, now: number): Promise<ConsumeWebAttemptResult> {
    return immediate(this.db, (): ConsumeWebAttemptResult => {
      const r = this.s.getAttempt.get(stateHash, realmId) as AttemptRow | undefined;
      const d = decideAttemptUse(r ? toAttempt(r) : null, now);
      if (d.kind === 'ok') this.s.consumeAttempt.run(d.attempt.consumedAt, stateHash);
      return d;
    });
  }

  async exchangeCode(
    hash: string,
    now: number,
    check: (c: AuthorizationCode) => string | null,
    make: (c: AuthorizationCode) => { family: TokenFamily; refresh: NewRefreshToken },
  ): Promise<ExchangeCodeResult> {
    return immediate(this.db, (): ExchangeCodeResult => {
      const r = this.s.getCode.get(hash) as CodeRow | undefined;
      // A used code names the family issued from it: read for the replay's revocation.
      const fr = r?.family_id ? (this.s.getFamily.get(r.family_id) as FamilyRow | undefined) : undefined;
      const d = decideCodeExchange(r ? toCode(r) : null, fr ? toFamily(fr) : null, check, make);
      if (d.kind === 'replayed') {
        if (d.revoke !== null) this.s.revokeFamily.run(now, d.reason, d.revoke);
        return { kind: 'replayed' };
      }
      if (d.kind === 'ok') {
        this.insertFamily(d.family, d.refresh, d.familyExpiresAt);
        this.s.useCode.run(now, d.family.id, hash);
        return { kind: 'ok', code: d.code };
      }
      return d;
    });
  }
}
