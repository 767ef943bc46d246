// SQLite implementation of UserStore.
import { type Identity, type ProviderLogin, type User, withDisabled } from '../users/model.ts';
import { type LoginPlan, loginEmailTaken, mayAnswerByRead, planProviderLogin, writesNothing } from '../users/provider-login.ts';
import type { UserStore } from '../users/store.ts';
import { type Db, immediate } from './open.ts';
import { type IdentityRow, toIdentity, toUser, type UserRow } from './user-rows.ts';

export class SqliteUserStore implements UserStore {
  private readonly s;

  constructor(private readonly db: Db) {
    this.s = {
      totals: db.prepare('SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM user_identities) AS identities'),
      get: db.prepare('SELECT * FROM users WHERE realm_id = ? AND id = ?'),
      byEmail: db.prepare('SELECT * FROM users WHERE realm_id = ? AND email = ?'),
      list: db.prepare('SELECT * FROM users WHERE realm_id = ? ORDER BY created_at, id LIMIT ?'),
      identities: db.prepare('SELECT * FROM user_identities WHERE user_id = ? ORDER BY created_at, provider'),
      insert: db.prepare(`INSERT OR IGNORE INTO users (id, realm_id, email, email_verified, given_name, family_name, created_at, updated_at, disabled_at)
        VALUES (@id, @realmId, @email, @emailVerified, @givenName, @familyName, @createdAt, @updatedAt, @disabledAt)`),
      identity: db.prepare('SELECT * FROM user_identities WHERE realm_id = ? AND provider = ? AND subject = ?'),
      link: db.prepare('INSERT INTO user_identities (realm_id, provider, subject, user_id, email, created_at) VALUES (?, ?, ?, ?, ?, ?)'),
      setName: db.prepare('UPDATE users SET given_name = ?, family_name = ?, updated_at = ? WHERE id = ?'),
      setDisabled: db.prepare('UPDATE users SET disabled_at = ? WHERE id = ?'),
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
    return (this.s.identities.all(userId) as IdentityRow[]).map(toIdentity);
  }

  async createUser(u: User): Promise<boolean> {
    // INSERT OR IGNORE: no row when the realm's unique email refused it — translated to false.
    return this.s.insert.run({ ...u, emailVerified: u.emailVerified ? 1 : 0 }).changes === 1;
  }

  async setUserDisabled(realmId: string, userId: string, at: number | null): Promise<User | null> {
    return immediate(this.db, () => {
      const row = this.s.get.get(realmId, userId) as UserRow | undefined;
      if (!row) return null;
      const before = toUser(row);
      const after = withDisabled(before, at);
      if (after.disabledAt !== before.disabledAt) this.s.setDisabled.run(after.disabledAt, after.id);
      return after;
    });
  }

  async resolveProviderLogin(login: ProviderLogin, newUser: { id: string; now: number }): Promise<{ user: User; created: boolean }> {
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
      }
      if (plan.setName) this.s.setName.run(u.givenName, u.familyName, u.updatedAt, u.id);
      const l = plan.link;
      if (l) this.s.link.run(l.realmId, l.provider, l.subject, l.userId, l.email, l.createdAt);
      return resultOf(plan);
    });
  }

  /** The account the login's (provider, subject) is linked to, or null. */
  private userOfIdentity(login: ProviderLogin): User | null {
    const ident = this.s.identity.get(login.realmId, login.provider, login.subject) as IdentityRow | undefined;
    const row = ident ? (this.s.get.get(login.realmId, ident.user_id) as UserRow | undefined) : undefined;
    return row ? toUser(row) : null;
  }
}

const resultOf = (plan: LoginPlan) => ({ user: plan.user, created: plan.create });
