// The AdminService handlers for accounts (operators seed, look up and support users), and the
// user-level controls of docs/concepts.md: disable / enable and sign-out everywhere.

import { type AdminStore, requireRealm } from '../admin/store.ts';
import { changeBy } from '../audit/actor.ts';
import { SYSTEM_ACTOR } from '../audit/model.ts';
import type { AuthStore } from '../auth/store.ts';
import { conflict, notFound } from '../errors.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { toTimestamp } from '../lib/timestamp.ts';
import type { ServiceImpl } from '../rpc/types.ts';
import { adminUserCreated, sessionsEndedByOperator, userDisabledChanged } from './account-events.ts';
import { createDeleteUser } from './delete-account.ts';
import type { DeleteAccount } from './deletion.ts';
import { identityFields, unlinkIdentity } from './identities.ts';
import { type User, validateEmail } from './model.ts';
import type { UserCreatedHook, UserStore } from './store.ts';

export interface UserAdminDeps {
  users: UserStore;
  admin: AdminStore;
  clock: Clock;
  onUserCreated: UserCreatedHook;
  /** Where the user's sessions (token families) are revoked. */
  sessions: Pick<AuthStore, 'revokeFamiliesOfUser'>;
  deleteAccount: DeleteAccount;
}

export async function userView(users: UserStore, u: User) {
  const [identities, appAccountToken] = await Promise.all([users.identitiesOf(u.id), users.appAccountTokenOf(u.id)]);
  return {
    realmId: u.realmId,
    id: u.id,
    email: u.email,
    emailVerified: u.emailVerified,
    givenName: u.givenName ?? '',
    familyName: u.familyName ?? '',
    identities: identities.map((i) => ({ ...identityFields(i), createdAt: toTimestamp(i.createdAt) })),
    createdAt: toTimestamp(u.createdAt),
    disabled: u.disabledAt !== null,
    disabledAt: u.disabledAt === null ? undefined : toTimestamp(u.disabledAt),
    appAccountToken: appAccountToken ?? '',
  };
}

/** The AdminService RPCs about accounts; admin/service.ts implements the others. */
export type UserAdminHandlers = Pick<
  ServiceImpl<'gatehouse.v1.AdminService'>,
  'createUser' | 'getUser' | 'listUsers' | 'disableUser' | 'enableUser' | 'signOutUser' | 'deleteUser' | 'unlinkUserIdentity'
>;

export function createUserAdminHandlers({ users, admin, clock, onUserCreated, sessions, deleteAccount }: UserAdminDeps): UserAdminHandlers {
  /** The account after setting its disabled state, or a 404 naming it. */
  const setDisabled = async (realmId: string, userId: string, at: number | null, by: ReturnType<typeof changeBy>) => {
    await requireRealm(admin, realmId);
    const u = await users.setUserDisabled(realmId, userId, at, (before, after) => userDisabledChanged(before, after, by, clock.now()));
    if (!u) throw notFound(`User ${userId} not found in realm ${realmId}`);
    return u;
  };

  return {
    deleteUser: createDeleteUser(deleteAccount),

    async createUser(req, ctx) {
      await requireRealm(admin, req.realmId);
      const user: User = {
        id: newId('usr'),
        realmId: req.realmId,
        email: validateEmail(req.email),
        emailVerified: req.emailVerified,
        givenName: req.givenName.trim() || null,
        familyName: req.familyName.trim() || null,
        createdAt: clock.now(),
        updatedAt: clock.now(),
        disabledAt: null,
      };
      if (!(await users.createUser(user, adminUserCreated(user, changeBy(ctx))))) throw conflict(`A user with email ${user.email} exists already`);
      await onUserCreated(user);
      return userView(users, user);
    },

    async getUser(req) {
      const u = await users.getUser(req.realmId, req.userId);
      if (!u) throw notFound(`User ${req.userId} not found in realm ${req.realmId}`);
      return userView(users, u);
    },

    async listUsers(req) {
      await requireRealm(admin, req.realmId);
      const limit = req.limit || 100; // bounded by admin.proto's limits
      const list = await users.listUsers(req.realmId, { email: req.email ? req.email.trim().toLowerCase() : undefined, limit });
      return { users: await Promise.all(list.map((u) => userView(users, u))) };
    },

    async disableUser(req, ctx) {
      const now = clock.now();
      // Disabled first: a login from now on is refused, then every session it had is revoked.
      const by = changeBy(ctx);
      const u = await setDisabled(req.realmId, req.userId, now, by);
      const revoked = await sessions.revokeFamiliesOfUser(req.realmId, u.id, now, 'user_disabled', (sessionIds) =>
        sessionsEndedByOperator({ realmId: req.realmId, userId: u.id, sessionIds, signOut: false }, by, now),
      );
      ctx.log.info('user disabled', { realmId: req.realmId, userId: u.id, revokedSessions: revoked });
      return userView(users, u);
    },

    async enableUser(req, ctx) {
      const u = await setDisabled(req.realmId, req.userId, null, changeBy(ctx));
      ctx.log.info('user enabled', { realmId: req.realmId, userId: u.id });
      return userView(users, u);
    },

    async signOutUser(req, ctx) {
      await requireRealm(admin, req.realmId);
      const u = await users.getUser(req.realmId, req.userId);
      if (!u) throw notFound(`User ${req.userId} not found in realm ${req.realmId}`);
      const now = clock.now();
      const revoked = await sessions.revokeFamiliesOfUser(req.realmId, u.id, now, 'signed_out_everywhere', (sessionIds) =>
        sessionsEndedByOperator({ realmId: req.realmId, userId: u.id, sessionIds, signOut: true }, changeBy(ctx), now),
      );
      ctx.log.info('user signed out everywhere', { realmId: req.realmId, userId: u.id, revokedSessions: revoked });
      return { revokedSessions: revoked };
    },

    async unlinkUserIdentity(req, ctx) {
      const u = await users.getUser(req.realmId, req.userId);
      if (!u) throw notFound(`User ${req.userId} not found in realm ${req.realmId}`);
      const actor = ctx.principal?.kind === 'api_key' ? { type: 'api_key' as const, id: ctx.principal.keyId } : SYSTEM_ACTOR;
      await unlinkIdentity(users, { realmId: req.realmId, userId: u.id, provider: req.provider, actor, requestId: ctx.requestId, now: clock.now() });
      ctx.log.info('identity unlinked', { realmId: req.realmId, userId: u.id, provider: req.provider, by: 'admin' });
      return userView(users, (await users.getUser(req.realmId, u.id)) ?? u);
    },
  };
}
