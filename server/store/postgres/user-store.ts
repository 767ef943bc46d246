// PostgreSQL implementation of UserStore. A login that writes takes transaction-scoped advisory

// locks on its (provider, subject) and on its email first, so two first logins of one person on
// two replicas are one after the other, as on one SQLite file: the second finds the account and
// link the first made. The plan is provider-login.ts's.
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
import { DELETION_SQL, type IdentityRow, type IdentityWithTokenRow, toIdentity, toIdentityWithToken, toUser, type UserRow } from '../user-rows.ts';
import { writeEmitted } from './records.ts';
import { inTransaction, query, type Tx, type TxContext } from './tx.ts';

const SQL = {
  totals: 'SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM user_identities) AS identities',
  appAccountToken: 'SELECT app_account_token FROM users WHERE id = $1',
  get: 'SELECT * FROM users WHERE realm_id = $1 AND id = $2 AND deleted_at IS NULL',
  byEmail: 'SELECT * FROM users WHERE realm_id = $1 AND email = $2 AND deleted_at IS NULL',
  list: 'SELECT * FROM users WHERE realm_id = $1 AND deleted_at IS NULL ORDER BY created_at, id COLLATE "C" LIMIT $2',
  identities: 'SELECT * FROM user_identities WHERE user_id = $1 ORDER BY created_at, provider COLLATE "C"',
  insert: `INSERT INTO users (id, realm_id, email, email_verified, given_name, family_name, created_at, updated_at, disabled_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING`,
  userOfIdentity: `SELECT u.* FROM user_identities i JOIN users u ON u.realm_id = i.realm_id AND u.id = i.user_id
    WHERE i.realm_id = $1 AND i.provider = $2 AND i.subject = $3 AND u.deleted_at IS NULL`,
  // hashtextextended: a 64-bit key per text; two texts sharing one only wait for each other.
  lock: 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))',
  link: 'INSERT INTO user_identities (realm_id, provider, subject, user_id, email, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
  setName: 'UPDATE users SET given_name = $2, family_name = $3, updated_at = $4 WHERE id = $1',
  setDisabled: 'UPDATE users SET disabled_at = $2 WHERE id = $1',
  // The account's row, locked: links and unlinks of one account are one after the other.
  lockUser: 'SELECT * FROM users WHERE realm_id = $1 AND id = $2 AND deleted_at IS NULL FOR NO KEY UPDATE',
  identity: 'SELECT * FROM user_identities WHERE realm_id = $1 AND provider = $2 AND subject = $3',
  setEmail: 'UPDATE users SET email = $2, email_verified = true WHERE id = $1',
  // Unless an account holds that placeholder already (one registered by hand): then it stays.
  setPlaceholder: `UPDATE users SET email = $2 WHERE id = $1
    AND NOT EXISTS (SELECT 1 FROM users o WHERE o.realm_id = users.realm_id AND o.email = $2)`,
  unlinkOne: 'DELETE FROM user_identities WHERE realm_id = $1 AND provider = $2 AND subject = $3',
  setForwarding: 'UPDATE user_identities SET email_forwarding = $4 WHERE realm_id = $1 AND provider = $2 AND subject = $3',
  seenJti: 'SELECT 1 AS seen FROM apple_notifications WHERE realm_id = $1 AND jti = $2',
  claimJti: 'INSERT INTO apple_notifications (realm_id, jti, received_at, expires_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
  // Only families an Apple sign-in opened; NULL (opened before 011) is not Apple's. Locked: a
  // refresh racing the revocation waits for it and then finds the family revoked.
  liveAppleFamilies: `SELECT id FROM token_families WHERE realm_id = $1 AND user_id = $2 AND provider = 'apple' AND revoked_at IS NULL
    ORDER BY created_at, id COLLATE "C" FOR NO KEY UPDATE`,
  revokeAppleFamilies: `UPDATE token_families SET revoked_at = $1, revoked_reason = 'apple_consent_revoked' WHERE id = ANY($2::text[]) AND revoked_at IS NULL`,
  keepAppleToken: "UPDATE user_identities SET apple_refresh_token = $3 WHERE realm_id = $1 AND provider = 'apple' AND subject = $2",
  subjectDeleted: 'SELECT 1 FROM deleted_subjects WHERE realm_id = $1 AND subject_hash = $2',
  given: 'INSERT INTO points_grants_given (user_id, source) VALUES ($1, $2) ON CONFLICT DO NOTHING',
  // FOR UPDATE: waits for, and then shuts out, every use case holding the row (a points use case
  // locks it FOR NO KEY UPDATE, a new session's foreign key FOR KEY SHARE); one that comes after
  // finds it deleted.
  lockLive: 'SELECT * FROM users WHERE realm_id = $1 AND id = $2 AND deleted_at IS NULL FOR UPDATE',
  identitiesWithToken: 'SELECT * FROM user_identities WHERE user_id = $1 ORDER BY created_at, provider COLLATE "C"',
  liveFamilies: 'SELECT id FROM token_families WHERE user_id = $1 AND revoked_at IS NULL ORDER BY created_at, id COLLATE "C"',
  openHolds: "SELECT count(*)::int AS n FROM points_holds WHERE user_id = $1 AND status = 'open'",
  activeSubscriptions: 'SELECT id FROM subscriptions WHERE user_id = $1 AND status = \'active\' ORDER BY id COLLATE "C"',
  erase: 'UPDATE users SET email = $2, email_verified = false, given_name = NULL, family_name = NULL, deleted_at = $3 WHERE id = $1',
  tombstone: 'INSERT INTO user_tombstones (user_id, realm_id, deleted_at) VALUES ($1, $2, $3)',
  deletedSubjects: `INSERT INTO deleted_subjects (realm_id, subject_hash, user_id, deleted_at)
    SELECT $1, h, $3, $4 FROM unnest($2::text[]) AS h ON CONFLICT DO NOTHING`,
  unlink: 'DELETE FROM user_identities WHERE user_id = $1',
  revokeFamilies: "UPDATE token_families SET revoked_at = $2, revoked_reason = 'user_deleted' WHERE id = ANY($1::text[])",
  dropCodes: 'DELETE FROM authorization_codes WHERE user_id = $1 AND used_at IS NULL',
  cancelSubscriptions: "UPDATE subscriptions SET status = 'canceled', canceled_at = $2 WHERE id = ANY($1::text[])",
};

export class PostgresUserStore implements UserStore {
  constructor(
    private readonly ctx: TxContext,
    private readonly secrets: SecretBox,
  ) {}

  private read<R>(text: string, values: unknown[]): Promise<R[]> {
    return query<R>(this.ctx.pool, text, values);
  }

  async getUser(realmId: string, userId: string): Promise<User | null> {
    const [r] = await this.read<UserRow>(SQL.get, [realmId, userId]);
    return r ? toUser(r) : null;
  }

  async findUserByEmail(realmId: string, email: string): Promise<User | null> {
    const [r] = await this.read<UserRow>(SQL.byEmail, [realmId, email]);
    return r ? toUser(r) : null;
  }

  async listUsers(realmId: string, opts: { email?: string; limit: number }): Promise<User[]> {
    if (opts.email) {
      const u = await this.findUserByEmail(realmId, opts.email);
      return u ? [u] : [];
    }
    return (await this.read<UserRow>(SQL.list, [realmId, opts.limit])).map(toUser);
  }

  async totals(): Promise<{ users: number; identities: number }> {
    const [r] = await this.read<{ users: number; identities: number }>(SQL.totals, []);
    return { users: r!.users, identities: r!.identities };
  }

  async identitiesOf(userId: string): Promise<Identity[]> {
    return (await this.read<IdentityRow>(SQL.identities, [userId])).map(toIdentity);
  }

  async appAccountTokenOf(userId: string): Promise<string | null> {
    const [r] = await this.read<{ app_account_token: string }>(SQL.appAccountToken, [userId]);
    return r?.app_account_token ?? null;
  }

  async createUser(u: User, emitted: Emitted = NOTHING_EMITTED): Promise<boolean> {
    return inTransaction(this.ctx, 'createUser', async (tx) => {
      const n = await tx.run(SQL.insert, [u.id, u.realmId, u.email, u.emailVerified, u.givenName, u.familyName, u.createdAt, u.updatedAt, u.disabledAt]);
      if (n !== 1) return false;
      writeEmitted(tx, emitted, this.secrets);
      return true;
    });
  }

  async setUserDisabled(realmId: string, userId: string, at: number | null, emitted?: (before: User, after: User) => Emitted): Promise<User | null> {
    return inTransaction(this.ctx, 'setUserDisabled', async (tx) => {
      const row = await tx.row<UserRow>(SQL.lockUser, [realmId, userId]);
      if (!row) return null;
      const before = toUser(row);
      const after = withDisabled(before, at);
      if (after.disabledAt !== before.disabledAt) tx.run(SQL.setDisabled, [after.id, after.disabledAt]);
      if (emitted) writeEmitted(tx, emitted(before, after), this.secrets);
      return after;
    });
  }

  async resolveProviderLogin(login: ProviderLogin, newUser: NewUser): Promise<{ user: User; created: boolean }> {
    // Most logins are a returning user with nothing to write: a plain read, no transaction.
    if (mayAnswerByRead(login)) {
      const [seen] = await this.read<UserRow>(SQL.userOfIdentity, [login.realmId, login.provider, login.subject]);
      if (seen) {
        const plan = planProviderLogin(login, toUser(seen), null, newUser);
        if (writesNothing(plan)) return resultOf(plan);
      }
    }
    return inTransaction(this.ctx, 'resolveProviderLogin', async (tx) => {
      // Subject first, then email: every login takes its locks in this order (no deadlock).
      tx.run(SQL.lock, [JSON.stringify(['login', login.realmId, login.provider, login.subject])]);
      if (login.email !== null) tx.run(SQL.lock, [JSON.stringify(['email', login.realmId, login.email])]);
      const identity = tx.row<UserRow>(SQL.userOfIdentity, [login.realmId, login.provider, login.subject]);
      const email = login.email !== null ? tx.row<UserRow>(SQL.byEmail, [login.realmId, login.email]) : undefined;
      const byIdentity = await identity;
      const byEmail = !byIdentity && email ? await email : undefined;
      const plan = planProviderLogin(login, byIdentity ? toUser(byIdentity) : null, byEmail ? toUser(byEmail) : null, newUser);
      await write(tx, plan, this.secrets);
      if (plan.create) {
        const deletedBefore = await tx.row(SQL.subjectDeleted, [login.realmId, deletedSubjectHash(login.provider, login.subject)]);
        for (const source of grantsGivenAtCreation(deletedBefore !== undefined)) tx.run(SQL.given, [plan.user.id, source]);
      }
      return resultOf(plan);
    });
  }

  async linkIdentity(req: LinkRequest): Promise<LinkPlan> {
    return inTransaction(this.ctx, 'linkIdentity', async (tx) => {
      lockLink(tx, req.realmId, req.provider, req.subject, req.email);
      const user = tx.row<UserRow>(SQL.lockUser, [req.realmId, req.userId]);
      const owner = tx.row<IdentityRow>(SQL.identity, [req.realmId, req.provider, req.subject]);
      const identities = tx.rows<IdentityRow>(SQL.identities, [req.userId]);
      const holder = req.email !== null ? tx.row<UserRow>(SQL.byEmail, [req.realmId, req.email]) : undefined;
      const [u, o, ids, h] = await Promise.all([user, owner, identities, holder]);
      const plan = planLink(req, u ? toUser(u) : null, o ? toIdentity(o) : null, u ? ids.map(toIdentity) : [], h ? toUser(h) : null);
      if (plan.kind === 'link') {
        const l = plan.identity;
        tx.run(SQL.link, [l.realmId, l.provider, l.subject, l.userId, l.email, l.createdAt]);
        if (plan.email !== null) tx.run(SQL.setEmail, [l.userId, plan.email]);
        writeEmitted(tx, plan.emitted, this.secrets);
      }
      return plan;
    });
  }

  async unlinkIdentity(req: UnlinkRequest): Promise<UnlinkPlan> {
    return inTransaction(this.ctx, 'unlinkIdentity', async (tx) => {
      const user = tx.row<UserRow>(SQL.lockUser, [req.realmId, req.userId]);
      const identities = tx.rows<IdentityRow>(SQL.identities, [req.userId]);
      const [u, ids] = await Promise.all([user, identities]);
      const plan = planUnlink(u ? toUser(u) : null, u ? ids.map(toIdentity) : [], req);
      if (plan.kind === 'unlink') {
        tx.run(SQL.unlinkOne, [req.realmId, plan.identity.provider, plan.identity.subject]);
        if (plan.email !== null) tx.run(SQL.setPlaceholder, [plan.identity.userId, plan.email]);
        writeEmitted(tx, plan.emitted, this.secrets);
      }
      return plan;
    });
  }

  async applyAppleNotification(n: AppleNotificationWrite): Promise<AppleNotificationResult> {
    return inTransaction(this.ctx, 'applyAppleNotification', async (tx): Promise<AppleNotificationResult> => {
      lockLink(tx, n.realmId, 'apple', n.event.sub, null);
      // Checked first: a replayed account-delete must not delete an account made since by a new
      // sign-in with the same Apple subject.
      const seen = tx.row(SQL.seenJti, [n.realmId, n.jti]);
      const row = tx.row<IdentityRow>(SQL.identity, [n.realmId, 'apple', n.event.sub]);
      if (await seen) return { kind: 'replayed' };
      const found = await row;
      const identity = found ? toIdentity(found) : null;
      let user: User | null = null;
      let identities: Identity[] = [];
      let appleFamilyIds: string[] = [];
      if (identity) {
        const locked = tx.row<UserRow>(SQL.lockUser, [n.realmId, identity.userId]);
        const ids = tx.rows<IdentityRow>(SQL.identities, [identity.userId]);
        const families = tx.rows<{ id: string }>(SQL.liveAppleFamilies, [n.realmId, identity.userId]);
        const u = await locked;
        user = u ? toUser(u) : null;
        identities = (await ids).map(toIdentity);
        appleFamilyIds = (await families).map((r) => r.id);
      }
      const plan = planAppleNotification(n, { identity, user, identities, appleFamilyIds });
      // The account's deletion is the deletion use case's own transaction; this one claims nothing.
      if (plan.kind === 'delete_account') return { kind: 'applied', plan };
      // Another replica claimed it since the check: its transaction did the work.
      if ((await tx.run(SQL.claimJti, [n.realmId, n.jti, n.now, n.expiresAt])) !== 1) return { kind: 'replayed' };
      if (plan.kind === 'email_forwarding') tx.run(SQL.setForwarding, [n.realmId, plan.identity.provider, plan.identity.subject, plan.forwarding]);
      if (plan.kind === 'unlink') {
        tx.run(SQL.unlinkOne, [n.realmId, plan.identity.provider, plan.identity.subject]);
        if (plan.email !== null) tx.run(SQL.setPlaceholder, [plan.identity.userId, plan.email]);
      }
      if (plan.kind === 'revoke_apple_sessions') tx.run(SQL.revokeAppleFamilies, [n.now, plan.familyIds]);
      writeEmitted(tx, plan.emitted, this.secrets);
      return { kind: 'applied', plan };
    });
  }

  async keepAppleRefreshToken(realmId: string, subject: string, token: string): Promise<void> {
    await inTransaction(this.ctx, 'keepAppleRefreshToken', (tx) =>
      tx.run(SQL.keepAppleToken, [realmId, subject, this.secrets.seal(ENCRYPTED.appleRefreshToken, token)]),
    );
  }

  deleteAccount(realmId: string, userId: string, plan: (snapshot: AccountSnapshot) => DeletionPlan): Promise<DeletionPlan | null> {
    return inTransaction(this.ctx, 'deleteAccount', async (tx) => {
      const row = await tx.row<UserRow>(SQL.lockLive, [realmId, userId]);
      if (!row) return null;
      // Read under the user's lock: no session, hold or subscription of theirs starts meanwhile.
      const identities = tx.rows<IdentityWithTokenRow>(SQL.identitiesWithToken, [userId]);
      const families = tx.rows<{ id: string }>(SQL.liveFamilies, [userId]);
      const holds = tx.row<{ n: number }>(SQL.openHolds, [userId]);
      const subscriptions = tx.rows<{ id: string }>(SQL.activeSubscriptions, [userId]);
      const p = plan({
        user: toUser(row),
        identities: (await identities).map((r) => toIdentityWithToken(r, this.secrets)),
        liveFamilyIds: (await families).map((f) => f.id),
        openHolds: (await holds)?.n ?? 0,
        activeSubscriptionIds: (await subscriptions).map((x) => x.id),
      });
      tx.run(SQL.erase, [userId, p.erasedEmail, p.deletedAt]);
      tx.run(SQL.tombstone, [userId, realmId, p.deletedAt]);
      tx.run(SQL.deletedSubjects, [realmId, p.deletedSubjects, userId, p.deletedAt]);
      tx.run(SQL.unlink, [userId]);
      tx.run(SQL.revokeFamilies, [p.revokeFamilyIds, p.deletedAt]);
      tx.run(SQL.dropCodes, [userId]);
      tx.run(SQL.cancelSubscriptions, [p.cancelSubscriptionIds, p.deletedAt]);
      tx.run(DELETION_SQL.releaseOpenHolds, [userId]);
      const owed = (await tx.rows<MarkedMovementRow>(DELETION_SQL.markedMovements, [userId])).map((r) => toEvent(markedEventRow(r)));
      if (owed.length > 0) tx.run(DELETION_SQL.unmarkMovements, [userId]);
      writeEmitted(tx, { ...p.emitted, events: [...owed, ...p.emitted.events] }, this.secrets);
      return p;
    });
  }

  purgeAccountBatch(userId: string, lease: PurgeLease): Promise<PurgeBatch | null> {
    return inTransaction(this.ctx, 'purgeAccountBatch', async (tx) => {
      const [renewed, row] = await Promise.all([
        tx.run(DELETION_SQL.renewLease, [lease.until, lease.now, lease.jobId, lease.owner]),
        tx.row<{ deleted_at: number | null }>(DELETION_SQL.deletedAt, [userId]),
      ]);
      if (renewed !== 1) return null;
      const accountDeleted = purgeApplies(row?.deleted_at);
      const done: PurgeDone[] = [];
      for (let d = nextPurgeDelete(accountDeleted, done); d !== null; d = nextPurgeDelete(accountDeleted, done)) {
        done.push({ ...d, deleted: await tx.run(PURGE_DELETES.get(d.table)!, [userId, d.limit]) });
      }
      return purgeOutcome(accountDeleted, done);
    });
  }
}

const PURGE_DELETES = new Map(PURGE_TABLES.map((t) => [t, DELETION_SQL.purge(t, 'postgres')]));

/** The locks a change of (provider, subject)'s link takes, in the order every login takes them
 *  (subject, then email): such changes and first logins of that subject are one after the other. */
function lockLink(tx: Tx, realmId: string, provider: string, subject: string, email: string | null): void {
  tx.run(SQL.lock, [JSON.stringify(['login', realmId, provider, subject])]);
  if (email !== null) tx.run(SQL.lock, [JSON.stringify(['email', realmId, email])]);
}

async function write(tx: Tx, plan: LoginPlan, secrets: SecretBox): Promise<void> {
  const u = plan.user;
  if (plan.create) {
    // No row: the realm's unique email refused it (ON CONFLICT DO NOTHING) — translated to ours.
    const inserted = tx.run(SQL.insert, [u.id, u.realmId, u.email, u.emailVerified, u.givenName, u.familyName, u.createdAt, u.updatedAt, u.disabledAt]);
    if ((await inserted) !== 1) throw loginEmailTaken();
  }
  if (plan.setName) tx.run(SQL.setName, [u.id, u.givenName, u.familyName, u.updatedAt]);
  const l = plan.link;
  if (l) tx.run(SQL.link, [l.realmId, l.provider, l.subject, l.userId, l.email, l.createdAt]);
  writeEmitted(tx, { events: plan.events, audit: [], jobs: [] }, secrets);
}

const resultOf = (plan: LoginPlan) => ({ user: plan.user, created: plan.create });
