// GET /api/oauth/{realmId}/authorize (RFC 6749 §4.1.1 with RFC 7636 PKCE): stores a downstream
// authorization transaction that native login later completes (docs/login.md, "Downstream
// code"). Only S256; the redirect URI must be registered exactly (RFC 6749 §3.1.2.3).
import { redirectUriProblem } from '../admin/model.ts';
import type { AdminStore } from '../admin/store.ts';
import type { Clock } from '../lib/clock.ts';
import type { CallContext } from '../rpc/context.ts';
import type { RequestOut } from '../rpc/types.ts';
import { oauthError } from './oauth-errors.ts';
import { CHALLENGE_RE } from './pkce.ts';
import { type FixedWindowLimiter, rateLimited } from './rate-limit.ts';
import type { AuthorizeTransaction, AuthStore } from './store.ts';

export const TRANSACTION_TTL_S = 300;

/** RFC 6749 Appendix A.5: `state` is VSCHAR (printable ASCII); we also bound its length. */
const STATE_RE = /^[\x20-\x7e]{8,512}$/;

// The request is checked here rather than by auth.proto's limits: the login rate limit comes
// before any check of the request, as at every login endpoint.
export function createAuthorize(deps: { admin: AdminStore; store: AuthStore; clock: Clock; limiter: FixedWindowLimiter }) {
  return async function authorize(req: RequestOut<'gatehouse.v1.AuthService', 'Authorize'>, ctx: CallContext) {
    // Each call stores a transaction without any credential: the login endpoints' per-IP budget.
    const limited = deps.limiter.hit(ctx.clientIp, deps.clock.now());
    if (!limited.allowed) throw rateLimited(limited.retryAfterS);
    if (!req.clientId) throw oauthError('invalid_request', 'client_id: required');
    const client = await deps.admin.getClient(req.realmId, req.clientId);
    if (!client) throw oauthError('invalid_request', 'client_id: unknown client');
    if (!client.enabled) throw oauthError('unauthorized_client', 'client_id: the client is disabled');
    // A URI registered before the registration rules were tightened never matches (admin/model.ts).
    if (!req.redirectUri || !client.redirectUris.includes(req.redirectUri) || redirectUriProblem(req.redirectUri) !== null) {
      throw oauthError('invalid_request', "redirect_uri: must equal one of the client's registered redirect URIs");
    }
    if (!req.responseType) throw oauthError('invalid_request', 'response_type: required');
    if (req.responseType !== 'code') throw oauthError('unsupported_response_type', 'response_type: only "code" is supported');
    if (req.codeChallengeMethod !== 'S256') throw oauthError('invalid_request', 'code_challenge_method: only S256 is supported');
    if (!CHALLENGE_RE.test(req.codeChallenge)) throw oauthError('invalid_request', 'code_challenge: expected 43 base64url characters (S256)');
    if (!STATE_RE.test(req.state)) throw oauthError('invalid_request', 'state: 8–512 printable ASCII characters');
    if (req.scope.length > 1000) throw oauthError('invalid_request', 'scope: too long');
    const now = deps.clock.now();
    const tx: AuthorizeTransaction = {
      realmId: req.realmId,
      state: req.state,
      clientId: client.clientId,
      redirectUri: req.redirectUri,
      codeChallenge: req.codeChallenge,
      scope: req.scope,
      createdAt: now,
      expiresAt: now + TRANSACTION_TTL_S * 1000,
      consumedAt: null,
    };
    if (!(await deps.store.createAuthorizeTransaction(tx))) throw oauthError('invalid_request', 'state: a transaction with this state is already pending');
    ctx.log.info('authorize', { realmId: req.realmId, clientId: client.clientId });
    return { state: tx.state, clientId: tx.clientId, redirectUri: tx.redirectUri, expiresIn: TRANSACTION_TTL_S };
  };
}

/** Why a downstream transaction cannot be completed by this native login, or null. Pure. */
export function transactionRefusal(tx: AuthorizeTransaction | null, want: { realmId: string; clientId: string; now: number }): string | null {
  if (!tx || tx.realmId !== want.realmId) return 'unknown';
  if (tx.consumedAt !== null) return 'consumed';
  if (tx.expiresAt <= want.now) return 'expired';
  if (tx.clientId !== want.clientId) return 'client';
  return null;
}

/** The client's redirect URI with `code` and `state` added; a registered query is kept as is. */
export function redirectWithCode(redirectUri: string, code: string, state: string): string {
  const sep = redirectUri.includes('?') ? (redirectUri.endsWith('?') || redirectUri.endsWith('&') ? '' : '&') : '?';
  return `${redirectUri}${sep}code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`;
}
