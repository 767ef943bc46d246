// POST /api/oauth/{realmId}/token (RFC 6749 §3.2): form-urlencoded or JSON; the grant handlers
// live in grant-*.ts. Errors are RFC 6749 §5.2 codes in `error`.
import type { CallContext } from '../rpc/context.ts';
import type { RequestOut } from '../rpc/types.ts';
import type { Grant, GrantDeps } from './grant.ts';
import { authorizationCodeGrant } from './grant-authorization-code.ts';
import { refreshTokenGrant } from './grant-refresh-token.ts';
import { oauthError } from './oauth-errors.ts';
import { type FixedWindowLimiter, rateLimited } from './rate-limit.ts';

const GRANTS = new Map<string, Grant>([authorizationCodeGrant, refreshTokenGrant].map((g) => [g.grantType, g]));
export const GRANT_TYPES = [...GRANTS.keys()];

export function createToken(deps: GrantDeps & { limiter: FixedWindowLimiter }) {
  return async function token(req: RequestOut<'gatehouse.v1.AuthService', 'Token'>, ctx: CallContext) {
    // The login endpoints' per-IP budget: guessing codes or replaying refresh tokens costs it too.
    // The answer is the contract's error body with 429, like every other limited endpoint.
    const limited = deps.limiter.hit(ctx.clientIp, deps.clock.now());
    if (!limited.allowed) throw rateLimited(limited.retryAfterS);
    if (!req.grantType) throw oauthError('invalid_request', 'grant_type: required');
    const grant = GRANTS.get(req.grantType);
    if (!grant) throw oauthError('unsupported_grant_type', `grant_type: ${GRANT_TYPES.join(' or ')}`);
    const set = await grant.handler(req, ctx, deps);
    return {
      accessToken: set.accessToken,
      tokenType: set.tokenType,
      expiresIn: set.expiresIn,
      refreshToken: set.refreshToken,
      refreshExpiresIn: set.refreshExpiresIn,
    };
  };
}
