// grant_type=refresh_token (RFC 6749 §6): rotation on every use; a reused token revokes the family.

import type { Grant } from './grant.ts';
import { oauthError } from './oauth-errors.ts';

export const refreshTokenGrant: Grant = {
  grantType: 'refresh_token',
  async handler(req, ctx, deps) {
    if (!req.refreshToken) throw oauthError('invalid_request', 'refresh_token: required');
    const set = await deps.sessions.refresh(req.realmId, req.refreshToken, req.clientId, ctx.clientIp);
    ctx.log.info('token', { realmId: req.realmId, grant: 'refresh_token', sid: set.familyId });
    return set;
  },
};
