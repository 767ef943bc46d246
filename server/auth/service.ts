// AuthService: composes the auth concern's handlers (docs/login.md).

import type { AdminStore } from '../admin/store.ts';
import type { Config } from '../config.ts';
import type { SignatureService } from '../crypto/offload.ts';
import type { Clock } from '../lib/clock.ts';
import type { Logger } from '../lib/log.ts';
import type { Metrics } from '../lib/metrics.ts';
import type { Authenticator } from '../rpc/access.ts';
import type { ServiceImpl } from '../rpc/types.ts';
import type { UserCreatedHook, UserStore } from '../users/store.ts';
import { type AppleNotificationDeps, createAppleNotification } from './apple-notifications.ts';
import { APPLE_TOKEN_TIMEOUT_MS } from './apple-revocation.ts';
import { createAppleWeb } from './apple-web.ts';
import { createAuthorize } from './authorize.ts';
import { createIdentityLinking } from './identity-linking.ts';
import { createIntrospect } from './introspect.ts';
import { createJwks } from './jwks.ts';
import { JwksCache } from './jwks-cache.ts';
import { createMetadata } from './metadata.ts';
import { createNativeLogin } from './native-login.ts';
import type { NativeProvider } from './providers/provider.ts';
import { configuredProvider, PROVIDERS, type ProviderRegistry } from './providers/registry.ts';
import { FixedWindowLimiter } from './rate-limit.ts';
import { createRevoke } from './revoke.ts';
import { SigningKeys } from './signing-keys.ts';
import type { AuthStore } from './store.ts';
import { createToken } from './token.ts';
import { createSessions } from './token-family.ts';
import { createUserInfo } from './userinfo.ts';

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
  metrics?: Metrics | null;
  /** The native identity providers (default: every one in providers/registry.ts). */
  providers?: ProviderRegistry;
  /** The signature service (the crypto worker) for providers' tokens and gatehouse's own. */
  signatures: SignatureService;
  /** The account deletion use case (Apple's account-delete of an account's only identity). */
  deleteAccount: AppleNotificationDeps['deleteAccount'];
}

/** The AuthService RPCs but the account's deletion (users/delete-account.ts). */
export type AuthHandlers = Omit<ServiceImpl<'gatehouse.v1.AuthService'>, 'deleteMe'>;

export function createAuth(deps: AuthDeps): {
  service: AuthHandlers;
  userToken: Authenticator['userToken'];
  /** The realms' signing keys (their rotation: signing-key-admin.ts and the sweep). */
  keys: SigningKeys;
} {
  const { config, clock, store } = deps;
  const issuer = (realmId: string) => `${deps.publicUrl()}/api/oauth/${encodeURIComponent(realmId)}`;
  const keys = new SigningKeys(store, clock);
  const sessions = createSessions({ store, admin: deps.admin, keys, clock, issuer, signatures: deps.signatures });
  // One JWKS cache per provider; native login finds both by the `{provider}` of its path.
  const providers = new Map<string, { provider: NativeProvider; jwks: JwksCache }>();
  for (const spec of (deps.providers ?? PROVIDERS).specs) {
    const provider = configuredProvider(spec, config);
    const m = deps.metrics;
    const onFetch = m ? (ok: boolean, keys: number, at: number | null) => m.jwksFetch(provider.kind, ok, keys, at) : undefined;
    const jwks = new JwksCache({
      url: provider.jwksUrl,
      algorithms: provider.algorithms,
      clock,
      timeoutMs: config.jwksTimeoutMs,
      log: deps.log,
      name: provider.kind,
      onFetch,
    });
    providers.set(provider.kind, { provider, jwks });
  }
  const limiter = new FixedWindowLimiter(config.loginRateLimit);
  // Apple's web-redirect login is Apple's own: it uses Apple's entry and --apple-auth-url.
  const apple = providers.get('apple');
  if (!apple) throw new Error('the Apple web login needs the apple provider (auth/providers/registry.ts)');
  const appleWeb = createAppleWeb({
    admin: deps.admin,
    users: deps.users,
    store,
    sessions,
    clock,
    onUserCreated: deps.onUserCreated,
    apple,
    appleAuthUrl: config.appleAuthUrl,
    publicUrl: deps.publicUrl,
    limiter,
    tokenTimeoutMs: APPLE_TOKEN_TIMEOUT_MS,
    signatures: deps.signatures,
    metrics: deps.metrics,
  });

  const linking = createIdentityLinking({ admin: deps.admin, users: deps.users, clock, providers, signatures: deps.signatures });
  const service: AuthHandlers = {
    nativeLogin: createNativeLogin({
      admin: deps.admin,
      users: deps.users,
      store,
      sessions,
      clock,
      providers,
      limiter,
      onUserCreated: deps.onUserCreated,
      signatures: deps.signatures,
      metrics: deps.metrics,
    }),
    appleWebLogin: appleWeb.appleWebLogin,
    appleWebCallback: appleWeb.appleWebCallback,
    // One limiter for /authorize, native login, the Apple web flow and the token endpoint.
    authorize: createAuthorize({ admin: deps.admin, store, clock, limiter }),
    token: createToken({ admin: deps.admin, users: deps.users, store, sessions, clock, limiter }),

    revoke: createRevoke({ sessions }),
    introspect: createIntrospect({ store, sessions, clock, issuer }),
    jwks: createJwks({ admin: deps.admin, keys }),
    metadata: createMetadata({ admin: deps.admin, issuer }),
    userInfo: createUserInfo({ users: deps.users }),
    appleNotification: createAppleNotification({
      admin: deps.admin,
      users: deps.users,
      clock,
      providers,
      signatures: deps.signatures,
      deleteAccount: deps.deleteAccount,
    }),
    listMyIdentities: linking.listMyIdentities,
    linkMyIdentity: linking.linkMyIdentity,
    unlinkMyIdentity: linking.unlinkMyIdentity,
  };

  /** The caller's own access token (docs/login.md): signature, issuer, expiry, a live family and the
   *  family's IP binding against the caller's address. */
  const userToken: Authenticator['userToken'] = async (realmId, token, ctx) => {
    const ok = await sessions.check(realmId, token, ctx.clientIp);
    if (!ok) return null;
    return { kind: 'user', realmId, userId: ok.claims.sub, clientId: ok.claims.aud, sid: ok.claims.sid };
  };

  return { service, userToken, keys };
}
