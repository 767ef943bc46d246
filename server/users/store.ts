// Storage of accounts. The login paths extend their use of it through these methods only.
import type { Identity, ProviderLogin, User } from './model.ts';

export interface UserStore {
  getUser(realmId: string, userId: string): Promise<User | null>;
  findUserByEmail(realmId: string, email: string): Promise<User | null>;
  listUsers(realmId: string, opts: { email?: string; limit: number }): Promise<User[]>;
  identitiesOf(userId: string): Promise<Identity[]>;
  /** How many accounts and linked provider identities the store holds, every realm together (what
   *  an operator checks after a flood, and what a test checks a refusal left unwritten). */
  totals(): Promise<{ users: number; identities: number }>;
  /** false when the email is taken in the realm. */
  createUser(user: User): Promise<boolean>;
  /** One transaction: the account with its disabled state set as model.ts withDisabled decides
   *  (disabled at `at`, enabled for null), or null when the realm has no such account. */
  setUserDisabled(realmId: string, userId: string, at: number | null): Promise<User | null>;
  /** One transaction: match by (provider, subject), then by email, then create the account and
   *  link it; fills in a missing name — the writes provider-login.ts planProviderLogin plans. A
   *  login it allows (mayAnswerByRead) that writes nothing may be answered by a plain read (links
   *  are never removed). A new account whose email is taken is a conflict (loginEmailTaken).
   *  `created` is true for a new account, whose caller must run the UserCreatedHook. */
  resolveProviderLogin(login: ProviderLogin, newUser: { id: string; now: number }): Promise<{ user: User; created: boolean }>;
}

/** Called once for each new account, whatever path created it (registration grants hang here). */
export type UserCreatedHook = (user: User) => Promise<void>;
