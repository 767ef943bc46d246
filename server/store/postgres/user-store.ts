// PostgreSQL implementation of UserStore. A login that writes takes transaction-scoped advisory
// locks on its (provider, subject) and on its email first, so two first logins of one person on
// two replicas are one after the other, as on one SQLite file: the second finds the account and
// link the first made. The plan is provider-login.ts's.
import { type Identity, type ProviderLogin, type User, withDisabled } from '../../users/model.ts';
import { type LoginPlan, loginEmailTaken, mayAnswerByRead, planProviderLogin, writesNothing } from '../../users/provider-login.ts';
import type { UserStore } from '../../users/store.ts';
import { type IdentityRow, toIdentity, toUser, type UserRow } from '../user-rows.ts';
import { inTransaction, query, type Tx, type TxContext } from './tx.ts';

const SQL = {
  totals: 'SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM user_identities) AS identities',
  get: 'SELECT * FROM users WHERE realm_id = $1 AND id = $2',
  byEmail: 'SELECT * FROM users WHERE realm_id = $1 AND email = $2',
  list: 'SELECT * FROM users WHERE realm_id = $1 ORDER BY created_at, id COLLATE "C" LIMIT $2',
  identities: 'SELECT * FROM user_identities WHERE user_id = $1 ORDER BY created_at, provider COLLATE "C"',
  insert: `INSERT INTO users (id, realm_id, email, email_verified, given_name, family_name, created_at, updated_at, disabled_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING`,
  userOfIdentity: `SELECT u.* FROM user_identities i JOIN users u ON u.realm_id = i.realm_id AND u.id = i.user_id
    WHERE i.realm_id = $1 AND i.provider = $2 AND i.subject = $3`,
  // hashtextextended: a 64-bit key per text; two texts sharing one only wait for each other.
  lock: 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))',
  link: 'INSERT INTO user_identities (realm_id, provider, subject, user_id, email, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
  setName: 'UPDATE users SET given_name = $2, family_name = $3, updated_at = $4 WHERE id = $1',
  lockUser: 'SELECT * FROM users WHERE realm_id = $1 AND id = $2 FOR UPDATE',
  setDisabled: 'UPDATE users SET disabled_at = $2 WHERE id = $1',
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
      tx.run(SQL.insert, [u.id, u.realmId, u.email, u.emailVerified, u.givenName, u.familyName, u.createdAt, u.updatedAt, u.disabledAt]),
    );
    return n === 1;
  }

  async setUserDisabled(realmId: string, userId: string, at: number | null): Promise<User | null> {
    return inTransaction(this.ctx, 'setUserDisabled', async (tx) => {
      const row = await tx.row<UserRow>(SQL.lockUser, [realmId, userId]);
      if (!row) return null;
      const before = toUser(row);
      const after = withDisabled(before, at);
      if (after.disabledAt !== before.disabledAt) tx.run(SQL.setDisabled, [after.id, after.disabledAt]);
      return after;
    });
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
      return resultOf(plan);
    });
  }
}

async function write(tx: Tx, plan: LoginPlan): Promise<void> {
  const u = plan.user;
  if (plan.create) {
    // No row: the realm's unique email refused it (ON CONFLICT DO NOTHING) — translated to ours.
    const inserted = tx.run(SQL.insert, [u.id, u.realmId, u.email, u.emailVerified, u.givenName, u.familyName, u.createdAt, u.updatedAt, u.disabledAt]);
    if ((await inserted) !== 1) throw loginEmailTaken();
  }
  if (plan.setName) tx.run(SQL.setName, [u.id, u.givenName, u.familyName, u.updatedAt]);
  const l = plan.link;
  if (l) tx.run(SQL.link, [l.realmId, l.provider, l.subject, l.userId, l.email, l.createdAt]);
}

const resultOf = (plan: LoginPlan) => ({ user: plan.user, created: plan.create });
