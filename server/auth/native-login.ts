// POST /api/oauth/{realmId}/{provider}/native-login (docs/login.md).
// Processing order (spec, Endpoints): validate the body (400) → an enabled provider (404) → verify
// the token (401, or 503 when the keys cannot be fetched) → match or create the user → the branch.
// Branch preconditions (client, downstream state) are checked before any account is written.
// Logged: realm, provider, user id and a failure category — never a token.

import type { AdminStore } from '../admin/store.ts';
import type { SignatureService } from '../crypto/offload.ts';
import { badRequest, GatehouseError, notFound } from '../errors.ts';
import type { Clock } from '../lib/clock.ts';
import type { Metrics } from '../lib/metrics.ts';
import type { CallContext } from '../rpc/context.ts';
import type { RequestOut } from '../rpc/types.ts';
import type { UserCreatedHook, UserStore } from '../users/store.ts';
import { branchPreconditions, cleanName, completeLogin } from './complete-login.ts';
import { type IdTokenClaims, InvalidIdToken, verifyIdToken } from './id-token.ts';
import type { JwksCache } from './jwks-cache.ts';
import type { NativeProvider } from './providers/provider.ts';
import { type FixedWindowLimiter, rateLimited } from './rate-limit.ts';
import type { AuthStore } from './store.ts';
import type { Sessions } from './token-family.ts';

export { CODE_TTL_S } from './complete-login.ts';

export interface NativeLoginDeps {
  admin: AdminStore;
  users: UserStore;
  store: AuthStore;
  sessions: Sessions;
  clock: Clock;
  providers: Map<string, { provider: NativeProvider; jwks: JwksCache }>;
  limiter: FixedWindowLimiter;
  onUserCreated: UserCreatedHook;
  signatures: SignatureService;
  metrics?: Metrics | null;
}

export function createNativeLogin(deps: NativeLoginDeps) {
  return async function nativeLogin(req: RequestOut<'gatehouse.v1.AuthService', 'NativeLogin'>, ctx: CallContext) {
    const label = /^[a-z0-9_-]{1,32}$/.test(req.provider) ? req.provider : 'identity';
    const fields = { realmId: req.realmId, provider: label };
    const fail = (category: string, err: GatehouseError) => {
      ctx.log.info('native login refused', { ...fields, category });
      deps.metrics?.login('native', deps.providers.has(req.provider) ? req.provider : 'unknown', category);
      return err;
    };

    const limited = deps.limiter.hit(ctx.clientIp, deps.clock.now());
    if (!limited.allowed) throw fail('rate_limited', rateLimited(limited.retryAfterS));

    // 1. The body.
    if (!req.identityToken) throw fail('bad_request', badRequest('identityToken: required', { field: 'identityToken' }));
    if (!req.clientId) throw fail('bad_request', badRequest('clientId: required', { field: 'clientId' }));
    if (req.downstreamState !== undefined && req.downstreamState === '') {
      throw fail('bad_request', badRequest('downstreamState: must not be empty', { field: 'downstreamState' }));
    }
    if (req.nonce !== undefined && (req.nonce === '' || req.nonce.length > 512)) {
      throw fail('bad_request', badRequest('nonce: 1–512 characters', { field: 'nonce' }));
    }
    const fullName = cleanName(req.fullName);

    // 2. An enabled provider of this kind in the realm.
    const p = deps.providers.get(req.provider);
    const config = p ? await deps.admin.getProvider(req.realmId, req.provider) : null;
    if (!p || !config || !config.enabled) throw fail('provider_not_enabled', notFound(`${label} provider not configured or not enabled`));
    // Without a nonce a captured ID token can be replayed until it expires (OpenID Connect Core
    // §15.5.2): a provider set to require one refuses the login before reading the token.
    if (config.requireNonce && req.nonce === undefined) {
      throw fail('nonce_required', badRequest(`nonce: required by the realm's ${label} provider (requireNonce)`, { field: 'nonce' }));
    }

    // 3. The token (before any transaction: verification may await the JWKS).
    let claims: IdTokenClaims;
    try {
      claims = await verifyIdToken(req.identityToken, {
        jwks: p.jwks,
        signatures: deps.signatures,
        issuers: p.provider.issuers,
        // The realm's provider client id; operators list further app ids (another bundle id)
        // explicitly in additionalClientIds.
        audiences: [config.clientId, ...config.additionalClientIds],
        now: Math.floor(deps.clock.now() / 1000),
        nonce: req.nonce,
      });
    } catch (e) {
      if (e instanceof InvalidIdToken) throw fail(`token_${e.category}`, e);
      if (e instanceof GatehouseError && e.code === 'service_unavailable') throw fail('jwks_unavailable', e);
      throw e;
    }

    // Branch preconditions, still without writing anything.
    const client = await branchPreconditions(deps, req, fail);

    // 4. Match or create the account, 5. the branch (shared with the web redirect).
    const done = await completeLogin(
      deps,
      { realmId: req.realmId, provider: p.provider, claims, fullName, client, downstreamState: req.downstreamState },
      ctx,
      fail,
    );
    ctx.log.info('native login', { ...fields, userId: done.userId, created: done.created, branch: done.branch });
    deps.metrics?.login('native', req.provider, 'success');
    return done.branch === 'session' ? done.session : { redirectUri: done.redirectUri };
  };
}
