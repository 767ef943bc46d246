// Storage of accounts. The login paths extend their use of it through these methods only.
import type { Identity, User } from './model.ts';

export interface UserStore {
  getUser(realmId: string, userId: string): Promise<User | null>;
  findUserByEmail(realmId: string, email: string): Promise<User | null>;
  listUsers(realmId: string, opts: { email?: string; limit: number }): Promise<User[]>;
  identitiesOf(userId: string): Promise<Identity[]>;
  /** false when the email is taken in the realm. */
  createUser(user: User): Promise<boolean>;
}

/** Called once for each new account, whatever path created it (registration grants hang here). */
export type UserCreatedHook = (user: User) => Promise<void>;
