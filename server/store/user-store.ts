// SQLite implementation of UserStore.
import { planLoginMatch, type Identity, type ProviderLogin, type User } from '../users/model.ts';
import type { UserStore } from '../users/store.ts';
import { immediate, type Db } from './open.ts';
import { conflict } from '../errors.ts';

export interface UserRow {
  id: string;
  realm_id: string;
  email: string;
  email_verified: number;
  given_name: string | null;
  family_name: string | null;
  created_at: number;
}

export interface IdentityRow {
  realm_id: string;
  provider: string;
  subject: string;
  user_id: string;
  email: string | null;
  created_at: number;
}

export const toUser = (r: UserRow): User => ({
  id: r.id,
  realmId: r.realm_id,
  email: r.email,
  emailVerified: r.email_verified === 1,
  givenName: r.given_name,
  familyName: r.family_name,
  createdAt: r.created_at,
});

export const toIdentity = (r: IdentityRow): Identity => ({
  realmId: r.realm_id,
  provider: r.provider,
  subject: r.subject,
  userId: r.user_id,
  email: r.email,
  createdAt: r.created_at,
});

export class SqliteUserStore implements UserStore {
  private readonly s;

  constructor(private readonly db: Db) {
    this.s = {
      get: db.prepare('SELECT * FROM users WHERE realm_id = ? AND id = ?'),
      byEmail: db.prepare('SELECT * FROM users WHERE realm_id = ? AND email = ?'),
      list: db.prepare('SELECT * FROM users WHERE realm_id = ? ORDER BY created_at, id LIMIT ?'),
      identities: db.prepare('SELECT * FROM user_identities WHERE user_id = ? ORDER BY created_at, provider'),
      insert: db.prepare(`INSERT OR IGNORE INTO users (id, realm_id, email, email_verified, given_name, family_name, created_at)
        VALUES (@id, @realmId, @email, @emailVerified, @givenName, @familyName, @createdAt)`),
      identity: db.prepare('SELECT * FROM user_identities WHERE realm_id = ? AND provider = ? AND subject = ?'),
      link: db.prepare('INSERT INTO user_identities (realm_id, provider, subject, user_id, email, created_at) VALUES (?, ?, ?, ?, ?, ?)'),
      setName: db.prepare('UPDATE users SET given_name = ?, family_name = ? WHERE id = ? AND given_name IS NULL AND family_name IS NULL'),
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

  async identitiesOf(userId: string): Promise<Identity[]> {
    return (this.s.identities.all(userId) as IdentityRow[]).map(toIdentity);
  }

  async createUser(u: User): Promise<boolean> {
    return this.s.insert.run({ ...u, emailVerified: u.emailVerified ? 1 : 0 }).changes === 1;
  }

  async resolveProviderLogin(login: ProviderLogin, newUser: { id: string; now: number }): Promise<{ user: User; created: boolean }> {
    // A returning user with nothing to write (no name to fill in) is a read: links and accounts
    // are never removed or moved, so what the identity names now it names for good. Most logins
    // are this one and skip the write transaction.
    if (!hasName(login.fullName)) {
      const ident = this.s.identity.get(login.realmId, login.provider, login.subject) as IdentityRow | undefined;
      const row = ident ? (this.s.get.get(login.realmId, ident.user_id) as UserRow | undefined) : undefined;
      if (row) return { user: toUser(row), created: false };
    }
    return immediate(this.db, () => {
      const ident = this.s.identity.get(login.realmId, login.provider, login.subject) as IdentityRow | undefined;
      const byEmail = !ident && login.email !== null ? (this.s.byEmail.get(login.realmId, login.email) as UserRow | undefined) : undefined;
      const plan = planLoginMatch(login, ident ? { userId: ident.user_id } : null, byEmail ? { userId: byEmail.id, email: byEmail.email, emailVerified: byEmail.email_verified === 1 } : null);
      let userId: string;
      let created = false;
      if (plan.kind === 'create') {
        userId = newUser.id;
        const name = login.fullName;
        const inserted = this.s.insert.run({
          id: userId,
          realmId: login.realmId,
          email: plan.email,
          emailVerified: plan.emailVerified ? 1 : 0,
          givenName: name?.givenName || null,
          familyName: name?.familyName || null,
          createdAt: newUser.now,
        });
        // Only a placeholder can collide here (the write lock excludes races): an address someone
        // registered by hand as `{sub}@{provider}.placeholder`. Refuse rather than merge.
        if (inserted.changes !== 1) throw conflict('The account email for this sign-in is taken by another account');
        created = true;
      } else {
        userId = plan.userId;
        if (hasName(login.fullName)) {
          this.s.setName.run(login.fullName.givenName || null, login.fullName.familyName || null, userId);
        }
      }
      if (plan.kind !== 'identity') {
        this.s.link.run(login.realmId, login.provider, login.subject, userId, login.email, newUser.now);
      }
      const user = toUser(this.s.get.get(login.realmId, userId) as UserRow);
      return { user, created };
    });
  }
}

const hasName = (n: ProviderLogin['fullName']): n is NonNullable<ProviderLogin['fullName']> => !!n && (n.givenName !== '' || n.familyName !== '');
