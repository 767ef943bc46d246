// AuthService: composes the auth concern's handlers (CONTRACT §5).
import { requireRealm, type AdminStore } from '../admin/store.ts';
import type { Config } from '../config.ts';
import { badRequest, notFound } from '../errors.ts';
import type { Clock } from '../lib/clock.ts';
import type { Logger } from '../lib/log.ts';
import { sha256Hex } from '../lib/ids.ts';
import type { Authenticator } from '../rpc/access.ts';
import type { CallContext, ServiceImpl, UserPrincipal } from '../rpc/context.ts';
import type { UserCreatedHook, UserStore } from '../users/store.ts';
import { createAppleWeb } from './apple-web.ts';
import { createAuthorize } from './authorize.ts';
import { JwksCache } from './jwks-cache.ts';
import { createNativeLogin } from './native-login.ts';
import type { NativeProvider } from './providers/provider.ts';
import { configuredProvider, PROVIDERS, type ProviderRegistry } from './providers/registry.ts';
import { FixedWindowLimiter } from './rate-limit.ts';
import { SigningKeys } from './signing-keys.ts';
import type { AuthStore } from './store.ts';
import { createToken, GRANT_TYPES } from './token.ts';
import { createSessions } from './token-family.ts';

/** One call to Apple's token endpoint (web-redirect login). */
const APPLE_TOKEN_TIMEOUT_MS = 5000;

export interface AuthDeps {
  config: Config;
  admin: AdminStore;
  users: UserStore;
  store: AuthStore;
  clock: Clock;
  /** Where the provider JWKS caches report outages. */
  log?: Logger;
  onUserCreated: UserCreatedHook;
  /** The public base URL, read lazily (known once the HTTP listener is bound). */
  publicUrl(): string;
  fetch?: typeof fetch;
  /** The native identity providers (default: every one in providers/registry.ts). */
  providers?: ProviderRegistry;
}

export function createAuth(deps: AuthDeps): { service: ServiceImpl; userToken: Authenticator['userToken'] } {
  const { config, clock, store } = deps;
  const issuer = (realmId: string) => `${deps.publicUrl()}/api/oauth/${encodeURIComponent(realmId)}`;
  const keys = new SigningKeys(store, clock);
  const sessions = createSessions({ store, admin: deps.admin, keys, clock, issuer });
  // One JWKS cache per provider; native login finds both by the `{provider}` of its path.
  const providers = new Map<string, { provider: NativeProvider; jwks: JwksCache }>();
  for (const spec of (deps.providers ?? PROVIDERS).specs) {
    const provider = configuredProvider(spec, config);
    const jwks = new JwksCache({ url: provider.jwksUrl, algorithms: provider.algorithms, clock, timeoutMs: config.jwksTimeoutMs, fetch: deps.fetch, log: deps.log, name: provider.kind });
    providers.set(provider.kind, { provider, jwks });
  }
  const limiter = new FixedWindowLimiter(config.loginRateLimit);
  // Apple's web-redirect login is Apple's own: it uses Apple's entry and --apple-auth-url.
  const apple = providers.get('apple');
  if (!apple) throw new Error('the Apple web login needs the apple provider (auth/providers/registry.ts)');
  const appleWeb = createAppleWeb({
    admin: deps.admin, users: deps.users, store, sessions, clock, onUserCreated: deps.onUserCreated,
    apple,
    appleAuthUrl: config.appleAuthUrl,
    publicUrl: deps.publicUrl,
    limiter,
    tokenTimeoutMs: APPLE_TOKEN_TIMEOUT_MS,
    fetch: deps.fetch,
  });

  const service: ServiceImpl = {
    nativeLogin: createNativeLogin({ admin: deps.admin, users: deps.users, store, sessions, clock, providers, limiter, onUserCreated: deps.onUserCreated }),
    appleWebLogin: appleWeb.appleWebLogin,
    appleWebCallback: appleWeb.appleWebCallback,
    // One limiter for /authorize, native login, the Apple web flow and the token endpoint.
    authorize: createAuthorize({ admin: deps.admin, store, clock, limiter }),
    token: createToken({ admin: deps.admin, store, sessions, clock, limiter }),

    async revoke(req: { realmId: string; token: string; clientId: string }) {
      // RFC 7009 §2.2: an invalid or unknown token is still a 200.
      if (!req.token) throw badRequest('token: required', { field: 'token' });
      await sessions.revoke(req.realmId, req.token, req.clientId);
      return {};
    },

    async introspect(req: { realmId: string; token: string }) {
      if (!req.token) throw badRequest('token: required', { field: 'token' });
      if (req.token.startsWith('rt_')) {
        const found = await store.familyOfRefreshToken(sha256Hex(req.token));
        const f = found?.family;
        if (!found || !f || f.realmId !== req.realmId || f.revokedAt !== null || found.rotatedAt !== null || found.expiresAt <= clock.now()) {
          return { active: false };
        }
        if (!(await sessions.clientEnabled(f))) return { active: false };
        return { active: true, tokenType: 'refresh_token', clientId: f.clientId, sub: f.userId, sid: f.id, exp: Math.floor(found.expiresAt / 1000), iss: issuer(req.realmId) };
      }
      const ok = await sessions.check(req.realmId, req.token, null);
      if (!ok) return { active: false };
      const c = ok.claims;
      return { active: true, tokenType: 'Bearer', clientId: c.aud, sub: c.sub, aud: c.aud, iss: c.iss, jti: c.jti, sid: c.sid, exp: c.exp, iat: c.iat };
    },

    async jwks(req: { realmId: string }) {
      await requireRealm(deps.admin, req.realmId);
      return { keys: await keys.jwks(req.realmId) };
    },

    async metadata(req: { realmId: string }) {
      await requireRealm(deps.admin, req.realmId);
      const base = issuer(req.realmId);
      return {
        issuer: base,
        authorizationEndpoint: `${base}/authorize`,
        tokenEndpoint: `${base}/token`,
        jwksUri: `${base}/.well-known/jwks.json`,
        revocationEndpoint: `${base}/revoke`,
        introspectionEndpoint: `${base}/introspect`,
        responseTypesSupported: ['code'],
        grantTypesSupported: GRANT_TYPES,
        codeChallengeMethodsSupported: ['S256'],
        // Public clients with PKCE: the client_id is sent, no secret (RFC 7591 §2 "none").
        tokenEndpointAuthMethodsSupported: ['none'],
        revocationEndpointAuthMethodsSupported: ['none'],
        // An API key as a bearer token; RFC 8414 §2 lets this list name an access token type.
        introspectionEndpointAuthMethodsSupported: ['Bearer'],
        userinfoEndpoint: `${base}/userinfo`,
        // No ID tokens are issued, so no id_token_signing_alg_values_supported is claimed.
        subjectTypesSupported: ['public'],
      };
    },

    async userInfo(req: { realmId: string }, ctx: CallContext) {
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
    },
  };

  /** The caller's own access token (CONTRACT §5): signature, issuer, expiry, a live family and the
   *  family's IP binding against the caller's address. */
  const userToken: Authenticator['userToken'] = async (realmId, token, ctx) => {
    const ok = await sessions.check(realmId, token, ctx.clientIp);
    if (!ok) return null;
    return { kind: 'user', realmId, userId: ok.claims.sub, clientId: ok.claims.aud, sid: ok.claims.sid };
  };

  return { service, userToken };
}
