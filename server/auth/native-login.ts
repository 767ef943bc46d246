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
import { branchPreconditions, cleanName, completeLogin, type Fail } from './complete-login.ts';
import { type IdTokenClaims, InvalidIdToken } from './id-token.ts';
import { checkNonceField, enabledProvider, type ProviderEntry, providerLabel, verifyNativeToken } from './provider-token.ts';
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
  providers: Map<string, ProviderEntry>;
  limiter: FixedWindowLimiter;
  onUserCreated: UserCreatedHook;
  signatures: SignatureService;
  metrics?: Metrics | null;
}

export function createNativeLogin(deps: NativeLoginDeps) {
  return async function nativeLogin(req: RequestOut<'gatehouse.v1.AuthService', 'NativeLogin'>, ctx: CallContext) {
    const label = providerLabel(req.provider);
    const fail = new Refusals(deps, ctx, req.realmId, req.provider, label).fail;

    const limited = deps.limiter.hit(ctx.clientIp, deps.clock.now());
    if (!limited.allowed) throw fail('rate_limited', rateLimited(limited.retryAfterS));

    // 1. The body.
    if (!req.identityToken) throw fail('bad_request', badRequest('identityToken: required', { field: 'identityToken' }));
    if (!req.clientId) throw fail('bad_request', badRequest('clientId: required', { field: 'clientId' }));
    if (req.downstreamState !== undefined && req.downstreamState === '') {
      throw fail('bad_request', badRequest('downstreamState: must not be empty', { field: 'downstreamState' }));
    }
    try {
      checkNonceField(req.nonce);
    } catch (e) {
      throw fail('bad_request', e as GatehouseError);
    }
    const fullName = cleanName(req.fullName);

    // 2. An enabled provider of this kind in the realm.
    const p = await enabledProvider(deps, req.realmId, req.provider);
    if (!p) throw fail('provider_not_enabled', notFound(`${label} provider not configured or not enabled`));
    // Without a nonce a captured ID token can be replayed until it expires (OpenID Connect Core
    // §15.5.2): a provider set to require one refuses the login before reading the token.
    if (p.config.requireNonce && req.nonce === undefined) {
      throw fail('nonce_required', badRequest(`nonce: required by the realm's ${label} provider (requireNonce)`, { field: 'nonce' }));
    }

    // 3. The token (before any transaction: verification may await the JWKS).
    let claims: IdTokenClaims;
    try {
      claims = await verifyNativeToken(deps, p, req.identityToken, req.nonce);
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
      { realmId: req.realmId, provider: p.entry.provider, claims, fullName, client, downstreamState: req.downstreamState },
      ctx,
      fail,
    );
    ctx.log.info('native login', { realmId: req.realmId, provider: label, userId: done.userId, created: done.created, branch: done.branch });
    deps.metrics?.login('native', req.provider, 'success');
    return done.branch === 'session' ? done.session : { redirectUri: done.redirectUri };
  };
}

/** A native login's refusals: each logged with its category and counted. A class, so a login makes
 *  a bound method rather than a named closure (tsx names those with a defineProperty call each). */
class Refusals {
  readonly fail: Fail = this.refuse.bind(this);

  constructor(
    private readonly deps: Pick<NativeLoginDeps, 'providers' | 'metrics'>,
    private readonly ctx: CallContext,
    private readonly realmId: string,
    private readonly provider: string,
    private readonly label: string,
  ) {}

  private refuse(category: string, err: GatehouseError): GatehouseError {
    this.ctx.log.info('native login refused', { realmId: this.realmId, provider: this.label, category });
    this.deps.metrics?.login('native', this.deps.providers.has(this.provider) ? this.provider : 'unknown', category);
    return err;
  }
}
