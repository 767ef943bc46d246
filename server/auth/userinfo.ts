// GET /api/oauth/{realmId}/userinfo: the account behind the caller's own access token (checked by
// the access layer before this runs: signature, issuer, expiry, a live family, its IP binding),
// as OpenID Connect Core §5.3.2 answers it: the standard claims of §5.1 by their names, a claim
// with no value left out (/me keeps the API's own camelCase shape).
import { notFound } from '../errors.ts';
import type { CallContext, UserPrincipal } from '../rpc/context.ts';
import type { RequestOut } from '../rpc/types.ts';
import type { User } from '../users/model.ts';
import type { UserStore } from '../users/store.ts';

/** The standard claims of `u` (OpenID Connect Core §5.1); `updated_at` in seconds. */
export function standardClaims(u: User) {
  const name = [u.givenName, u.familyName].filter((part) => part).join(' ');
  return {
    sub: u.id,
    email: u.email,
    emailVerified: u.emailVerified,
    givenName: u.givenName ?? undefined,
    familyName: u.familyName ?? undefined,
    name: name || undefined,
    updatedAt: Math.floor(u.updatedAt / 1000),
  };
}

export function createUserInfo(deps: { users: UserStore }) {
  return async function userInfo(req: RequestOut<'gatehouse.v1.AuthService', 'UserInfo'>, ctx: CallContext) {
    const p = ctx.principal as UserPrincipal;
    const u = await deps.users.getUser(req.realmId, p.userId);
    if (!u) throw notFound('User not found');
    return { ...standardClaims(u), clientId: p.clientId, sid: p.sid };
  };
}
