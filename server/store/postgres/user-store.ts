// PostgreSQL implementation of UserStore. A login that writes takes transaction-scoped advisory
// locks on its (provider, subject) and on its email first, so two first logins of one person on
// two replicas are one after the other, as on one SQLite file: the second finds the account and
// link the first made. The plan is provider-login.ts's.
import { type AccountSnapshot, type DeletionPlan, deletedSubjectHash, grantsGivenAtCreation } from '../../users/deletion.ts';
import type { Identity, ProviderLogin, User } from '../../users/model.ts';
import { type LoginPlan, loginEmailTaken, mayAnswerByRead, planProviderLogin, writesNothing } from '../../users/provider-login.ts';
import type { UserStore } from '../../users/store.ts';
import { DROP_USER_POINTS, type IdentityRow, type IdentityWithTokenRow, toIdentity, toIdentityWithToken, toUser, type UserRow } from '../user-rows.ts';
import { writeEmitted } from './records.ts';
import { inTransaction, query, type Tx, type TxContext } from './tx.ts';

const SQL = {
  totals: 'SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM user_identities) AS identities',
  get: 'SELECT * FROM users WHERE realm_id = $1 AND id = $2 AND deleted_at IS NULL',
  byEmail: 'SELECT * FROM users WHERE realm_id = $1 AND email = $2 AND deleted_at IS NULL',
  list: 'SELECT * FROM users WHERE realm_id = $1 AND deleted_at IS NULL ORDER BY created_at, id COLLATE "C" LIMIT $2',
  identities: 'SELECT * FROM user_identities WHERE user_id = $1 ORDER BY created_at, provider COLLATE "C"',
  insert: `INSERT INTO users (id, realm_id, email, email_verified, given_name, family_name, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
  userOfIdentity: `SELECT u.* FROM user_identities i JOIN users u ON u.realm_id = i.realm_id AND u.id = i.user_id
    WHERE i.realm_id = $1 AND i.provider = $2 AND i.subject = $3 AND u.deleted_at IS NULL`,
  // hashtextextended: a 64-bit key per text; two texts sharing one only wait for each other.
  lock: 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))',
  link: 'INSERT INTO user_identities (realm_id, provider, subject, user_id, email, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
  setName: 'UPDATE users SET given_name = $2, family_name = $3 WHERE id = $1',
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
  constructor(private readonly ctx: TxContext) {}

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

  async createUser(u: User): Promise<boolean> {
    const n = await inTransaction(this.ctx, 'createUser', (tx) =>
      tx.run(SQL.insert, [u.id, u.realmId, u.email, u.emailVerified, u.givenName, u.familyName, u.createdAt]),
    );
    return n === 1;
  }

  async resolveProviderLogin(login: ProviderLogin, newUser: { id: string; now: number }): Promise<{ user: User; created: boolean }> {
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
      await write(tx, plan);
      if (plan.create) {
        const deletedBefore = await tx.row(SQL.subjectDeleted, [login.realmId, deletedSubjectHash(login.provider, login.subject)]);
        for (const source of grantsGivenAtCreation(deletedBefore !== undefined)) tx.run(SQL.given, [plan.user.id, source]);
      }
      return resultOf(plan);
    });
  }

  async keepAppleRefreshToken(realmId: string, subject: string, token: string): Promise<void> {
    await inTransaction(this.ctx, 'keepAppleRefreshToken', (tx) => tx.run(SQL.keepAppleToken, [realmId, subject, token]));
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
        identities: (await identities).map(toIdentityWithToken),
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
      for (const sql of DROP_USER_POINTS) tx.run(sql, [userId]);
      writeEmitted(tx, p.emitted);
      return p;
    });
  }
}

async function write(tx: Tx, plan: LoginPlan): Promise<void> {
  const u = plan.user;
  if (plan.create) {
    // No row: the realm's unique email refused it (ON CONFLICT DO NOTHING) — translated to ours.
    const inserted = tx.run(SQL.insert, [u.id, u.realmId, u.email, u.emailVerified, u.givenName, u.familyName, u.createdAt]);
    if ((await inserted) !== 1) throw loginEmailTaken();
  }
  if (plan.setName) tx.run(SQL.setName, [u.id, u.givenName, u.familyName]);
  const l = plan.link;
  if (l) tx.run(SQL.link, [l.realmId, l.provider, l.subject, l.userId, l.email, l.createdAt]);
}

const resultOf = (plan: LoginPlan) => ({ user: plan.user, created: plan.create });
