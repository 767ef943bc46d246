// GET /api/oauth/{realmId}/userinfo: the account behind the caller's own access token (checked by
// the access layer before this runs: signature, issuer, expiry, a live family, its IP binding).
import { notFound } from '../errors.ts';
import type { CallContext, UserPrincipal } from '../rpc/context.ts';
import type { RequestOut } from '../rpc/types.ts';
import type { UserStore } from '../users/store.ts';

export function createUserInfo(deps: { users: UserStore }) {
  return async function userInfo(req: RequestOut<'gatehouse.v1.AuthService', 'UserInfo'>, ctx: CallContext) {
    const p = ctx.principal as UserPrincipal;
    const u = await deps.users.getUser(req.realmId, p.userId);
    if (!u) throw notFound('User not found');
    return {
      sub: u.id,
      userId: u.id,
      email: u.email,
      emailVerified: u.emailVerified,
      givenName: u.givenName ?? '',
      familyName: u.familyName ?? '',
      clientId: p.clientId,
      sid: p.sid,
    };
  };
}
