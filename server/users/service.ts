// The AdminService handlers for accounts (operators seed, look up and support users).

import { type AdminStore, requireRealm } from '../admin/store.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { toTimestamp } from '../lib/timestamp.ts';
import type { ServiceImpl } from '../rpc/types.ts';
import { createDeleteUser } from './delete-account.ts';
import type { DeleteAccount } from './deletion.ts';
import { type User, validateEmail } from './model.ts';
import type { UserCreatedHook, UserStore } from './store.ts';

export interface UserAdminDeps {
  users: UserStore;
  admin: AdminStore;
  clock: Clock;
  onUserCreated: UserCreatedHook;
  deleteAccount: DeleteAccount;
}

export async function userView(users: UserStore, u: User) {
  const identities = await users.identitiesOf(u.id);
  return {
    realmId: u.realmId,
    id: u.id,
    email: u.email,
    emailVerified: u.emailVerified,
    givenName: u.givenName ?? '',
    familyName: u.familyName ?? '',
    identities: identities.map((i) => ({ provider: i.provider, subject: i.subject, createdAt: toTimestamp(i.createdAt) })),
    createdAt: toTimestamp(u.createdAt),
  };
}

/** The AdminService RPCs about accounts; admin/service.ts implements the others. */
export type UserAdminHandlers = Pick<ServiceImpl<'gatehouse.v1.AdminService'>, 'createUser' | 'getUser' | 'listUsers' | 'deleteUser'>;

export function createUserAdminHandlers({ users, admin, clock, onUserCreated, deleteAccount }: UserAdminDeps): UserAdminHandlers {
  return {
    deleteUser: createDeleteUser(deleteAccount),

    async createUser(req) {
      await requireRealm(admin, req.realmId);
      if (!req.email) throw badRequest('email: required', { field: 'email' });
      const user: User = {
        id: newId('usr'),
        realmId: req.realmId,
        email: validateEmail(req.email),
        emailVerified: req.emailVerified,
        givenName: req.givenName.trim() || null,
        familyName: req.familyName.trim() || null,
        createdAt: clock.now(),
      };
      if (!(await users.createUser(user))) throw conflict(`A user with email ${user.email} exists already`);
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
      const limit = req.limit || 100;
      if (limit < 1 || limit > 1000) throw badRequest('limit: between 1 and 1000', { field: 'limit' });
      const list = await users.listUsers(req.realmId, { email: req.email ? req.email.trim().toLowerCase() : undefined, limit });
      return { users: await Promise.all(list.map((u) => userView(users, u))) };
    },
  };
}
