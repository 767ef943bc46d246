// Storage of accounts. The login paths extend their use of it through these methods only.

import type { Emitted } from '../events/plan.ts';
import type { AppleNotificationWrite, NotificationPlan } from './apple-notification.ts';
import type { AccountSnapshot, DeletionPlan } from './deletion.ts';
import type { LinkPlan, LinkRequest, UnlinkPlan, UnlinkRequest } from './linking.ts';
import type { Identity, ProviderLogin, User } from './model.ts';
import type { NewUser } from './provider-login.ts';

export interface UserStore {
  /** A live account (a deleted one is not found by any lookup). */
  getUser(realmId: string, userId: string): Promise<User | null>;
  findUserByEmail(realmId: string, email: string): Promise<User | null>;
  listUsers(realmId: string, opts: { email?: string; limit: number }): Promise<User[]>;
  identitiesOf(userId: string): Promise<Identity[]>;
  /** The account's stable UUID for StoreKit's appAccountToken, given by the database when the
   *  account is stored (migration 014); null for an unknown account. */
  appAccountTokenOf(userId: string): Promise<string | null>;
  /** How many accounts and linked provider identities the store holds, every realm together (what
   *  an operator checks after a flood, and what a test checks a refusal left unwritten). */
  totals(): Promise<{ users: number; identities: number }>;
  /** false (nothing written) when the email is taken in the realm; else the account with
   *  `emitted` (account-events.ts adminUserCreated), in one transaction. */
  createUser(user: User, emitted?: Emitted): Promise<boolean>;
  /** One transaction: the account with its disabled state set as model.ts withDisabled decides
   *  (disabled at `at`, enabled for null), or null when the realm has no such account. */
  setUserDisabled(realmId: string, userId: string, at: number | null, emitted?: (before: User, after: User) => Emitted): Promise<User | null>;
  /** One transaction: match by (provider, subject), then by email, then create the account and
   *  link it; fills in a missing name — the writes provider-login.ts planProviderLogin plans. A
   *  login it allows (mayAnswerByRead) that writes nothing may be answered by a plain read (links
   *  are never moved). A new account whose email is taken is a conflict (loginEmailTaken).
   *  `created` is true for a new account, whose caller must run the UserCreatedHook. */
  resolveProviderLogin(login: ProviderLogin, newUser: NewUser): Promise<{ user: User; created: boolean }>;
  /** One transaction: reads the account, the link of (provider, subject), the account's identities
   *  and the holder of the token's email, asks linking.ts planLink and writes the link (and the
   *  account's new email) it plans, with its event and audit record. */
  linkIdentity(req: LinkRequest): Promise<LinkPlan>;
  /** One transaction: removes the account's identity of `req.provider` as linking.ts planUnlink
   *  allows, with its event and audit record. */
  unlinkIdentity(req: UnlinkRequest): Promise<UnlinkPlan>;
  /** One transaction for a verified Apple notification: a `jti` seen before in the realm answers
   *  `replayed` and does nothing; else it reads the Apple identity of the event's `sub`, that
   *  account's identities and live Apple-opened families, asks apple-notification.ts
   *  planAppleNotification, claims the jti and writes the plan: the identity's email forwarding,
   *  the revocation of those families, or the unlink, with the events and audit records. A
   *  `delete_account` plan writes nothing and leaves the jti unclaimed: the caller deletes the
   *  account (the deletion use case) and applies the notification again, which then finds no
   *  identity and claims the jti. */
  applyAppleNotification(n: AppleNotificationWrite): Promise<AppleNotificationResult>;
  /** Keeps the refresh token Apple's token endpoint gave the web flow for this Apple identity
   *  (revoked when the account is deleted; never returned, never logged). */
  keepAppleRefreshToken(realmId: string, subject: string, token: string): Promise<void>;
  /** One transaction: reads the live account under lock with its identities, live token families,
   *  open holds and active subscriptions, asks `plan` (deletion.ts planAccountDeletion), and writes
   *  it: the row erased and marked deleted, the tombstone and hashed subjects, identities and
   *  unused authorization codes removed, families revoked (user_deleted), open holds released,
   *  subscriptions cancelled, the plan's events, audit record and jobs (its `user.purge` job among
   *  them). The account's other points rows and stored idempotency answers are left to that job
   *  (purgeAccountBatch). null (nothing written) when there is no such live account. */
  deleteAccount(realmId: string, userId: string, plan: (snapshot: AccountSnapshot) => DeletionPlan): Promise<DeletionPlan | null>;
  /** One batch of a deleted account's purge, in one transaction: renews the lease of the job that
   *  runs it, then runs the deletes purge.ts nextPurgeDelete plans one after the other, each told
   *  what the ones before it deleted. null (nothing written) when `lease` is no longer held. */
  purgeAccountBatch(userId: string, lease: PurgeLease): Promise<PurgeBatch | null>;
}

/** The purge job as its runner holds it, and the lease each batch extends it to. */
export interface PurgeLease {
  jobId: string;
  owner: string;
  until: number;
  now: number;
}

/** What a batch came to (purge.ts purgeOutcome). */
export interface PurgeBatch {
  deleted: number;
  finished: boolean;
}

/** `replayed`: the jti was processed before; nothing was written. */
export type AppleNotificationResult = { kind: 'replayed' } | { kind: 'applied'; plan: NotificationPlan };

/** Called once for each new account, whatever path created it (registration grants hang here). */
export type UserCreatedHook = (user: User) => Promise<void>;
