// Storage of accounts. The login paths extend their use of it through these methods only.
import type { AccountSnapshot, DeletionPlan } from './deletion.ts';
import type { Identity, ProviderLogin, User } from './model.ts';

export interface UserStore {
  /** A live account (a deleted one is not found by any lookup). */
  getUser(realmId: string, userId: string): Promise<User | null>;
  findUserByEmail(realmId: string, email: string): Promise<User | null>;
  listUsers(realmId: string, opts: { email?: string; limit: number }): Promise<User[]>;
  identitiesOf(userId: string): Promise<Identity[]>;
  /** How many accounts and linked provider identities the store holds, every realm together (what
   *  an operator checks after a flood, and what a test checks a refusal left unwritten). */
  totals(): Promise<{ users: number; identities: number }>;
  /** false when the email is taken in the realm. */
  createUser(user: User): Promise<boolean>;
  /** One transaction: match by (provider, subject), then by email, then create the account and
   *  link it; fills in a missing name — the writes provider-login.ts planProviderLogin plans. A
   *  login it allows (mayAnswerByRead) that writes nothing may be answered by a plain read (links
   *  are never removed). A new account whose email is taken is a conflict (loginEmailTaken).
   *  `created` is true for a new account, whose caller must run the UserCreatedHook. */
  resolveProviderLogin(login: ProviderLogin, newUser: { id: string; now: number }): Promise<{ user: User; created: boolean }>;
  /** Keeps the refresh token Apple's token endpoint gave the web flow for this Apple identity
   *  (revoked when the account is deleted; never returned, never logged). */
  keepAppleRefreshToken(realmId: string, subject: string, token: string): Promise<void>;
  /** One transaction: reads the live account under lock with its identities, live token families,
   *  open holds and active subscriptions, asks `plan` (deletion.ts planAccountDeletion), and writes
   *  it: the row erased and marked deleted, the tombstone and hashed subjects, identities and
   *  unused authorization codes removed, families revoked (user_deleted), subscriptions cancelled,
   *  every points row of the user and their stored idempotency answers deleted, the plan's events,
   *  audit record and jobs. null (nothing written) when there is no such live account. */
  deleteAccount(realmId: string, userId: string, plan: (snapshot: AccountSnapshot) => DeletionPlan): Promise<DeletionPlan | null>;
}

/** Called once for each new account, whatever path created it (registration grants hang here). */
export type UserCreatedHook = (user: User) => Promise<void>;
