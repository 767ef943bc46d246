// The identities of an account as the APIs show them, and their unlinking: shared by the user's own
// `/me/identities` (auth/identity-linking.ts) and the admin's user routes (users/service.ts).
import { conflict, GatehouseError, notFound } from '../errors.ts';
import { toTimestamp } from '../lib/timestamp.ts';
import type { UnlinkRequest } from './linking.ts';
import type { Identity } from './model.ts';
import type { UserStore } from './store.ts';

/** One identity as both APIs show it (`linkedAt` / `createdAt` name the same time). */
export function identityFields(i: Identity) {
  return {
    provider: i.provider,
    subject: i.subject,
    email: i.email ?? '',
    ...(i.emailForwarding !== null ? { emailForwarding: i.emailForwarding } : {}),
  };
}

export const identityView = (i: Identity) => ({ ...identityFields(i), linkedAt: toTimestamp(i.createdAt) });

/** Removes the account's identity of `req.provider` (one transaction); the refusals as errors. */
export async function unlinkIdentity(users: UserStore, req: UnlinkRequest): Promise<Identity> {
  const { provider, userId } = req;
  const plan = await users.unlinkIdentity(req);
  switch (plan.kind) {
    case 'unlink':
      return plan.identity;
    case 'not_linked':
      throw notFound(`No ${provider} identity is linked to user ${userId}`);
    case 'last_identity':
      // Without any identity the account could never sign in again (delete it instead).
      throw new GatehouseError('last_identity', `The ${provider} identity is the account's last; it cannot be unlinked`);
  }
}

/** 409 for a provider the account has an identity of already (unlink it first). */
export const providerLinked = (provider: string) => conflict(`The account has a ${provider} identity already; unlink it first`);
