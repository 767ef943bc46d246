// SQLite implementation of UserStore.
import { ENCRYPTED, type SecretBox } from '../../crypto/secrets.ts';
import { type Emitted, NOTHING_EMITTED } from '../../events/plan.ts';
import { type AppleNotificationWrite, planAppleNotification } from '../../users/apple-notification.ts';
import { type AccountSnapshot, type DeletionPlan, deletedSubjectHash, grantsGivenAtCreation } from '../../users/deletion.ts';
import { type LinkPlan, type LinkRequest, planLink, planUnlink, type UnlinkPlan, type UnlinkRequest } from '../../users/linking.ts';
import { type Identity, type ProviderLogin, type User, withDisabled } from '../../users/model.ts';
import { type LoginPlan, loginEmailTaken, mayAnswerByRead, type NewUser, planProviderLogin, writesNothing } from '../../users/provider-login.ts';
import { nextPurgeDelete, PURGE_TABLES, type PurgeDone, purgeApplies, purgeOutcome } from '../../users/purge.ts';
import type { AppleNotificationResult, PurgeBatch, PurgeLease, UserStore } from '../../users/store.ts';
import { type MarkedMovementRow, markedEventRow, toEvent } from '../record-rows.ts';
import { positional } from '../row-values.ts';
import { DELETION_SQL, type IdentityRow, type IdentityWithTokenRow, toIdentity, toIdentityWithToken, toUser, type UserRow } from '../user-rows.ts';
import { type Db, immediate } from './open.ts';
import { recordWriter } from './records.ts';
import { objectRows } from './rows.ts';

export class SqliteUserStore implements UserStore {
  private readonly s;

  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
  ) {
    this.s = {
      totals: db.prepare('SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM user_identities) AS identities'),
      appAccountToken: db.prepare('SELECT app_account_token FROM users WHERE id = ?').pluck(),
      get: db.prepare('SELECT * FROM users WHERE realm_id = ? AND id = ? AND deleted_at IS NULL'),
      byEmail: db.prepare('SELECT * FROM users WHERE realm_id = ? AND email = ? AND deleted_at IS NULL'),
      list: db.prepare('SELECT * FROM users WHERE realm_id = ? AND deleted_at IS NULL ORDER BY created_at, id LIMIT ?'),
      identities: objectRows(db.prepare('SELECT * FROM user_identities WHERE user_id = ? ORDER BY created_at, provider')),
      insert: db.prepare(`INSERT OR IGNORE INTO users (id, realm_id, email, email_verified, given_name, family_name, created_at, updated_at, disabled_at)
        VALUES (@id, @realmId, @email, @emailVerified, @givenName, @familyName, @createdAt, @updatedAt, @disabledAt)`),
      identity: objectRows(db.prepare('SELECT * FROM user_identities WHERE realm_id = ? AND provider = ? AND subject = ?')),
      // One statement, not the identity and then its account: every login asks it.
      userOfIdentity: objectRows(
        db.prepare(`SELECT u.* FROM user_identities i JOIN users u ON u.id = i.user_id
        WHERE i.realm_id = ? AND i.provider = ? AND i.subject = ? AND u.realm_id = i.realm_id AND u.deleted_at IS NULL`),
      ),
      link: db.prepare('INSERT INTO user_identities (realm_id, provider, subject, user_id, email, created_at) VALUES (?, ?, ?, ?, ?, ?)'),
      setName: db.prepare('UPDATE users SET given_name = ?, family_name = ?, updated_at = ? WHERE id = ?'),
      setDisabled: db.prepare('UPDATE users SET disabled_at = ? WHERE id = ?'),
      setEmail: db.prepare('UPDATE users SET email = ?, email_verified = 1 WHERE id = ?'),
      // Unless an account holds that placeholder already (one registered by hand): then it stays.
      setPlaceholder: db.prepare(`UPDATE users SET email = @email WHERE id = @id
        AND NOT EXISTS (SELECT 1 FROM users o WHERE o.realm_id = users.realm_id AND o.email = @email)`),
      unlinkOne: db.prepare('DELETE FROM user_identities WHERE realm_id = ? AND provider = ? AND subject = ?'),
      setForwarding: db.prepare('UPDATE user_identities SET email_forwarding = ? WHERE realm_id = ? AND provider = ? AND subject = ?'),
      seenJti: db.prepare('SELECT 1 FROM apple_notifications WHERE realm_id = ? AND jti = ?'),
      claimJti: db.prepare('INSERT INTO apple_notifications (realm_id, jti, received_at, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING'),
      // Only families an Apple sign-in opened; NULL (opened before 011) is not Apple's.
      liveAppleFamilies: db.prepare(`SELECT id FROM token_families WHERE realm_id = ? AND user_id = ? AND provider = 'apple'
        AND revoked_at IS NULL ORDER BY created_at, id`),
      revokeAppleFamily: db.prepare(`UPDATE token_families SET revoked_at = ?, revoked_reason = 'apple_consent_revoked'
        WHERE id = ? AND revoked_at IS NULL`),
      keepAppleToken: db.prepare("UPDATE user_identities SET apple_refresh_token = ? WHERE realm_id = ? AND provider = 'apple' AND subject = ?"),
      subjectDeleted: db.prepare('SELECT 1 FROM deleted_subjects WHERE realm_id = ? AND subject_hash = ?').pluck(),
      given: db.prepare('INSERT OR IGNORE INTO points_grants_given (user_id, source) VALUES (?, ?)'),
      liveFamilies: db.prepare('SELECT id FROM token_families WHERE user_id = ? AND revoked_at IS NULL ORDER BY created_at, id').pluck(),
      openHolds: db.prepare("SELECT count(*) FROM points_holds WHERE user_id = ? AND status = 'open'").pluck(),
      activeSubscriptions: db.prepare("SELECT id FROM subscriptions WHERE user_id = ? AND status = 'active' ORDER BY id").pluck(),
      erase: db.prepare('UPDATE users SET email = ?, email_verified = 0, given_name = NULL, family_name = NULL, deleted_at = ? WHERE id = ?'),
      tombstone: db.prepare('INSERT INTO user_tombstones (user_id, realm_id, deleted_at) VALUES (?, ?, ?)'),
      deletedSubject: db.prepare('INSERT OR IGNORE INTO deleted_subjects (realm_id, subject_hash, user_id, deleted_at) VALUES (?, ?, ?, ?)'),
      unlink: db.prepare('DELETE FROM user_identities WHERE user_id = ?'),
      revokeFamily: db.prepare("UPDATE token_families SET revoked_at = ?, revoked_reason = 'user_deleted' WHERE id = ?"),
      dropCodes: db.prepare('DELETE FROM authorization_codes WHERE user_id = ? AND used_at IS NULL'),
      cancelSubscription: db.prepare("UPDATE subscriptions SET status = 'canceled', canceled_at = ? WHERE id = ?"),
      releaseHolds: db.prepare(positional(DELETION_SQL.releaseOpenHolds)),
      markedMovements: db.prepare(positional(DELETION_SQL.markedMovements)),
      unmarkMovements: db.prepare(positional(DELETION_SQL.unmarkMovements)),
      deletedAt: db.prepare(positional(DELETION_SQL.deletedAt)).pluck(),
      renewLease: db.prepare(positional(DELETION_SQL.renewLease)),
      purge: new Map(PURGE_TABLES.map((t) => [t, db.prepare(positional(DELETION_SQL.purge(t, 'sqlite')))])),
    };
  }

  async getUser(realmId: string, userId: string): Promise<User | null> {
    const r = this.s.get.get(realmId, userId) as UserRow | undefined;
    return r ? toUser(r) : null;
  }

  async findUserByEmail(realmId: string, email: string): Promise<User | null> {
    const r = this.s.byEmail.get(realmId, email) as UserRow | undefined;
    return r ? toUser(r) : null;
  }

  async listUsers(realmId: string, opts: { email?: string; limit: number }): Promise<User[]> {
    if (opts.email) {
      const u = await this.findUserByEmail(realmId, opts.email);
      return u ? [u] : [];
    }
    return (this.s.list.all(realmId, opts.limit) as UserRow[]).map(toUser);
  }

  async totals(): Promise<{ users: number; identities: number }> {
    return this.s.totals.get() as { users: number; identities: number };
  }

  async identitiesOf(userId: string): Promise<Identity[]> {
    return this.identitiesOfNow(userId);
  }

  async appAccountTokenOf(userId: string): Promise<string | null> {
    return (this.s.appAccountToken.get(userId) as string | undefined) ?? null;
  }

  async createUser(u: User, emitted: Emitted = NOTHING_EMITTED): Promise<boolean> {
    return immediate(this.db, () => {
      // INSERT OR IGNORE: no row when the realm's unique email refused it — translated to false.
      if (this.s.insert.run({ ...u, emailVerified: u.emailVerified ? 1 : 0 }).changes !== 1) return false;
      recordWriter(this.db, this.secrets)(emitted);
      return true;
    });
  }

  async setUserDisabled(realmId: string, userId: string, at: number | null, emitted?: (before: User, after: User) => Emitted): Promise<User | null> {
    return immediate(this.db, () => {
      const row = this.s.get.get(realmId, userId) as UserRow | undefined;
      if (!row) return null;
      const before = toUser(row);
      const after = withDisabled(before, at);
      if (after.disabledAt !== before.disabledAt) this.s.setDisabled.run(after.disabledAt, after.id);
      if (emitted) recordWriter(this.db, this.secrets)(emitted(before, after));
      return after;
    });
  }

  async resolveProviderLogin(login: ProviderLogin, newUser: NewUser): Promise<{ user: User; created: boolean }> {
    // Most logins are a returning user with nothing to write: a plain read, no write transaction.
    const seen = mayAnswerByRead(login) ? this.userOfIdentity(login) : null;
    if (seen) {
      const plan = planProviderLogin(login, seen, null, newUser);
      if (writesNothing(plan)) return resultOf(plan);
    }
    return immediate(this.db, () => {
      const byIdentity = this.userOfIdentity(login);
      const byEmail = !byIdentity && login.email !== null ? (this.s.byEmail.get(login.realmId, login.email) as UserRow | undefined) : undefined;
      const plan = planProviderLogin(login, byIdentity, byEmail ? toUser(byEmail) : null, newUser);
      const u = plan.user;
      if (plan.create) {
        const inserted = this.s.insert.run({ ...u, emailVerified: u.emailVerified ? 1 : 0 });
        // No row: the realm's unique email refused it (INSERT OR IGNORE) — translated to ours.
        if (inserted.changes !== 1) throw loginEmailTaken();
        const deletedBefore = this.s.subjectDeleted.get(login.realmId, deletedSubjectHash(login.provider, login.subject)) !== undefined;
        for (const source of grantsGivenAtCreation(deletedBefore)) this.s.given.run(u.id, source);
      }
      if (plan.setName) this.s.setName.run(u.givenName, u.familyName, u.updatedAt, u.id);
      const l = plan.link;
      if (l) this.s.link.run(l.realmId, l.provider, l.subject, l.userId, l.email, l.createdAt);
      recordWriter(this.db, this.secrets)({ events: plan.events, audit: [], jobs: [] });
      return resultOf(plan);
    });
  }

  async linkIdentity(req: LinkRequest): Promise<LinkPlan> {
    return immediate(this.db, () => {
      const user = this.s.get.get(req.realmId, req.userId) as UserRow | undefined;
      const owner = this.s.identity.get(req.realmId, req.provider, req.subject) as IdentityRow | undefined;
      const holder = req.email !== null ? (this.s.byEmail.get(req.realmId, req.email) as UserRow | undefined) : undefined;
      const plan = planLink(
        req,
        user ? toUser(user) : null,
        owner ? toIdentity(owner) : null,
        user ? this.identitiesOfNow(user.id) : [],
        holder ? toUser(holder) : null,
      );
      if (plan.kind === 'link') {
        const l = plan.identity;
        this.s.link.run(l.realmId, l.provider, l.subject, l.userId, l.email, l.createdAt);
        if (plan.email !== null) this.s.setEmail.run(plan.email, l.userId);
        recordWriter(this.db, this.secrets)(plan.emitted);
      }
      return plan;
    });
  }

  async unlinkIdentity(req: UnlinkRequest): Promise<UnlinkPlan> {
    return immediate(this.db, () => {
      const user = this.s.get.get(req.realmId, req.userId) as UserRow | undefined;
      const plan = planUnlink(user ? toUser(user) : null, user ? this.identitiesOfNow(user.id) : [], req);
      if (plan.kind === 'unlink') {
        this.s.unlinkOne.run(req.realmId, plan.identity.provider, plan.identity.subject);
        if (plan.email !== null) this.s.setPlaceholder.run({ email: plan.email, id: plan.identity.userId });
        recordWriter(this.db, this.secrets)(plan.emitted);
      }
      return plan;
    });
  }

  async applyAppleNotification(n: AppleNotificationWrite): Promise<AppleNotificationResult> {
    return immediate(this.db, (): AppleNotificationResult => {
      // Checked first: a replayed account-delete must not delete an account made since by a new
      // sign-in with the same Apple subject.
      if (this.s.seenJti.get(n.realmId, n.jti)) return { kind: 'replayed' };
      const row = this.s.identity.get(n.realmId, 'apple', n.event.sub) as IdentityRow | undefined;
      const identity = row ? toIdentity(row) : null;
      const user = identity ? (this.s.get.get(n.realmId, identity.userId) as UserRow | undefined) : undefined;
      const plan = planAppleNotification(n, {
        identity,
        user: user ? toUser(user) : null,
        identities: identity ? this.identitiesOfNow(identity.userId) : [],
        appleFamilyIds: identity ? (this.s.liveAppleFamilies.all(n.realmId, identity.userId) as Array<{ id: string }>).map((r) => r.id) : [],
      });
      // The account's deletion is the deletion use case's own transaction; this one claims nothing.
      if (plan.kind === 'delete_account') return { kind: 'applied', plan };
      this.s.claimJti.run(n.realmId, n.jti, n.now, n.expiresAt);
      if (plan.kind === 'email_forwarding') this.s.setForwarding.run(plan.forwarding, n.realmId, plan.identity.provider, plan.identity.subject);
      if (plan.kind === 'unlink') {
        this.s.unlinkOne.run(n.realmId, plan.identity.provider, plan.identity.subject);
        if (plan.email !== null) this.s.setPlaceholder.run({ email: plan.email, id: plan.identity.userId });
      }
      if (plan.kind === 'revoke_apple_sessions') for (const id of plan.familyIds) this.s.revokeAppleFamily.run(n.now, id);
      recordWriter(this.db, this.secrets)(plan.emitted);
      return { kind: 'applied', plan };
    });
  }

  private identitiesOfNow(userId: string): Identity[] {
    return (this.s.identities.all(userId) as IdentityRow[]).map(toIdentity);
  }

  async keepAppleRefreshToken(realmId: string, subject: string, token: string): Promise<void> {
    await immediate(this.db, () => this.s.keepAppleToken.run(this.secrets.seal(ENCRYPTED.appleRefreshToken, token), realmId, subject));
  }

  deleteAccount(realmId: string, userId: string, plan: (snapshot: AccountSnapshot) => DeletionPlan): Promise<DeletionPlan | null> {
    return immediate(this.db, () => {
      const row = this.s.get.get(realmId, userId) as UserRow | undefined;
      if (!row) return null;
      const p = plan({
        user: toUser(row),
        identities: (this.s.identities.all(userId) as IdentityWithTokenRow[]).map((r) => toIdentityWithToken(r, this.secrets)),
        liveFamilyIds: this.s.liveFamilies.all(userId) as string[],
        openHolds: this.s.openHolds.get(userId) as number,
        activeSubscriptionIds: this.s.activeSubscriptions.all(userId) as string[],
      });
      this.s.erase.run(p.erasedEmail, p.deletedAt, userId);
      this.s.tombstone.run(userId, realmId, p.deletedAt);
      for (const hash of p.deletedSubjects) this.s.deletedSubject.run(realmId, hash, userId, p.deletedAt);
      this.s.unlink.run(userId);
      for (const id of p.revokeFamilyIds) this.s.revokeFamily.run(p.deletedAt, id);
      this.s.dropCodes.run(userId);
      for (const id of p.cancelSubscriptionIds) this.s.cancelSubscription.run(p.deletedAt, id);
      this.s.releaseHolds.run(userId);
      const owed = (this.s.markedMovements.all(userId) as MarkedMovementRow[]).map((r) => toEvent(markedEventRow(r)));
      if (owed.length > 0) this.s.unmarkMovements.run(userId);
      recordWriter(this.db, this.secrets)({ ...p.emitted, events: [...owed, ...p.emitted.events] });
      return p;
    });
  }

  purgeAccountBatch(userId: string, lease: PurgeLease): Promise<PurgeBatch | null> {
    return immediate(this.db, () => {
      if (this.s.renewLease.run(lease.until, lease.now, lease.jobId, lease.owner).changes !== 1) return null;
      const accountDeleted = purgeApplies(this.s.deletedAt.get(userId) as number | null | undefined);
      const done: PurgeDone[] = [];
      for (let d = nextPurgeDelete(accountDeleted, done); d !== null; d = nextPurgeDelete(accountDeleted, done)) {
        done.push({ ...d, deleted: this.s.purge.get(d.table)!.run(userId, d.limit).changes });
      }
      return purgeOutcome(accountDeleted, done);
    });
  }

  /** The account the login's (provider, subject) is linked to, or null. */
  private userOfIdentity(login: ProviderLogin): User | null {
    const row = this.s.userOfIdentity.get(login.realmId, login.provider, login.subject) as UserRow | undefined;
    return row ? toUser(row) : null;
  }
}

const resultOf = (plan: LoginPlan) => ({ user: plan.user, created: plan.create });
