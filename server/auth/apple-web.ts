// Sign in with Apple on the web: the redirect flow that lands on the same account as
// native login (docs/login.md).
//
//   GET  /api/oauth/{realmId}/apple/login?clientId[&downstreamState]
//        → stores an attempt (own state + nonce, 10 minutes, single use) → 302 to Apple's authorize
//          URL (response_mode=form_post, scope "name email").
//   POST /api/oauth/{realmId}/apple/callback  (Apple's form post: code, id_token, state, user)
//        → consumes the attempt (400 when unknown, expired or used) → exchanges the code at Apple's
//          token endpoint with a fresh ES256 client secret (503 when Apple is down) → verifies the
//          ID token with native login's verifier, audience = the Services ID, plus the attempt's
//          nonce (401, nothing written) → the same branch preconditions, match-or-create and result
//          as native login (complete-login.ts): the direct-session token set, or a 302 to the
//          third-party redirect URI with the one-time code.
//
// Configuration: the provider's `webClientId` is the Services ID (Apple's client_id of the web
// flow and the `aud` of the ID tokens Apple issues there); `teamId`, `keyId` and `privateKey`
// (.p8) sign the client secret. Native login keeps `clientId` (the bundle id).
// The ID token posted by the browser is ignored: only the one Apple's token endpoint returns for
// the code is trusted. The nonce sent to Apple is the SHA-256 hex of the stored raw nonce — the rule
// native login applies to its `nonce` field (docs/login.md). Logged: realm, provider, user id and a
// failure category — never the code, an ID token, the client secret or the key.

import { randomBytes } from 'node:crypto';
import type { ProviderConfig } from '../admin/model.ts';
import type { SignatureService } from '../crypto/offload.ts';
import { badRequest, GatehouseError, notFound } from '../errors.ts';
import { sha256Hex } from '../lib/ids.ts';
import type { Metrics } from '../lib/metrics.ts';
import type { CallContext } from '../rpc/context.ts';
import type { RequestOut } from '../rpc/types.ts';
import { AppleCodeRefused, exchangeAppleCode } from './apple-token.ts';
import { appleClientSecret } from './client-secret.ts';
import { branchPreconditions, type CompleteLoginDeps, cleanName, completeLogin, type Fail, type FullName } from './complete-login.ts';
import { type IdTokenClaims, InvalidIdToken, verifyIdToken } from './id-token.ts';
import type { JwksCache } from './jwks-cache.ts';
import type { NativeProvider } from './providers/provider.ts';
import { type FixedWindowLimiter, rateLimited } from './rate-limit.ts';

export const ATTEMPT_TTL_S = 600;
export const APPLE_SCOPE = 'name email';

export interface AppleWebDeps extends CompleteLoginDeps {
  apple: { provider: NativeProvider; jwks: JwksCache };
  /** Base of Apple's web endpoints (`--apple-auth-url`). */
  appleAuthUrl: string;
  /** gatehouse's public base URL (the callback Apple posts to). */
  publicUrl(): string;
  limiter: FixedWindowLimiter;
  tokenTimeoutMs: number;
  signatures: SignatureService;
  metrics?: Metrics | null;
}

interface WebSettings {
  servicesId: string;
  teamId: string;
  keyId: string;
  privateKey: string;
}

export function createAppleWeb(deps: AppleWebDeps) {
  const callbackUrl = (realmId: string) => `${deps.publicUrl()}/api/oauth/${encodeURIComponent(realmId)}/apple/callback`;

  const failer =
    (ctx: CallContext, realmId: string, what: string): Fail =>
    (category, err) => {
      ctx.log.info(what, { realmId, provider: 'apple', flow: 'web', category });
      deps.metrics?.login('apple_web', 'apple', category);
      return err;
    };

  /** The login endpoints' shared per-IP limit (--login-rate-limit); a web login counts its start
   *  and its callback. */
  function rateLimit(ctx: CallContext, fail: Fail): void {
    const limited = deps.limiter.hit(ctx.clientIp, deps.clock.now());
    if (!limited.allowed) throw fail('rate_limited', rateLimited(limited.retryAfterS));
  }

  /** The realm's enabled Apple provider with a complete web configuration, or 404. */
  async function webSettings(realmId: string, fail: Fail): Promise<WebSettings> {
    const c = await deps.admin.getProvider(realmId, 'apple');
    if (!c || !c.enabled) throw fail('provider_not_enabled', notFound('apple provider not configured or not enabled'));
    const s = settingsOf(c);
    if (!s) throw fail('web_not_configured', notFound('apple web sign-in not configured (webClientId, teamId, keyId, privateKey)'));
    return s;
  }

  async function appleWebLogin(req: RequestOut<'gatehouse.v1.AuthService', 'AppleWebLogin'>, ctx: CallContext) {
    const fail = failer(ctx, req.realmId, 'apple web login refused');
    rateLimit(ctx, fail); // each start writes an attempt row
    if (!req.clientId) throw fail('bad_request', badRequest('clientId: required', { field: 'clientId' }));
    if (req.downstreamState === '') throw fail('bad_request', badRequest('downstreamState: must not be empty', { field: 'downstreamState' }));
    const web = await webSettings(req.realmId, fail);
    // Refuse a client that could never receive the result before sending the user to Apple.
    await branchPreconditions(deps, req, fail);

    const state = randomBytes(32).toString('base64url');
    const nonce = randomBytes(32).toString('base64url');
    const now = deps.clock.now();
    await deps.store.createWebAttempt({
      stateHash: sha256Hex(state),
      realmId: req.realmId,
      clientId: req.clientId,
      downstreamState: req.downstreamState ?? null,
      nonce,
      createdAt: now,
      expiresAt: now + ATTEMPT_TTL_S * 1000,
      consumedAt: null,
    });
    // Apple documents `scope=name%20email`; URLSearchParams would write `+`.
    const query = [
      ['response_type', 'code'],
      ['response_mode', 'form_post'],
      ['client_id', web.servicesId],
      ['redirect_uri', callbackUrl(req.realmId)],
      ['scope', APPLE_SCOPE],
      ['state', state],
      ['nonce', sha256Hex(nonce)],
    ]
      .map(([k, v]) => `${k}=${encodeURIComponent(v!)}`)
      .join('&');
    ctx.log.info('apple web login started', {
      realmId: req.realmId,
      provider: 'apple',
      flow: 'web',
      branch: req.downstreamState === undefined ? 'session' : 'code',
    });
    return { location: `${deps.appleAuthUrl}/auth/authorize?${query}` };
  }

  async function appleWebCallback(req: RequestOut<'gatehouse.v1.AuthService', 'AppleWebCallback'>, ctx: CallContext) {
    const fail = failer(ctx, req.realmId, 'apple web login refused');
    rateLimit(ctx, fail);

    // 1. The attempt: used once, whatever happens next (Apple's code is single use too).
    if (!req.state || req.state.length > 512) throw fail('bad_request', invalidState());
    const consumed = await deps.store.consumeWebAttempt(req.realmId, sha256Hex(req.state), deps.clock.now());
    if (consumed.kind !== 'ok') throw fail(`state_${consumed.reason}`, invalidState());
    const attempt = consumed.attempt;
    if (req.error) throw fail('apple_error', badRequest('Sign in with Apple was not completed', { field: 'error' }));
    if (!req.code || req.code.length > 2048) throw fail('bad_request', badRequest('code: required', { field: 'code' }));
    const fullName = parseUser(req.user);
    const web = await webSettings(req.realmId, fail);

    // 2. The code → Apple's ID token (before any write; 503 when Apple is unreachable).
    const now = deps.clock.now();
    let clientSecret: string;
    try {
      clientSecret = await appleClientSecret({
        teamId: web.teamId,
        keyId: web.keyId,
        servicesId: web.servicesId,
        privateKeyPem: web.privateKey,
        now: Math.floor(now / 1000),
      });
    } catch {
      // A stored key that is not an EC P-256 PKCS#8 key: an operator problem, not the caller's.
      ctx.log.error('apple web login failed', { realmId: req.realmId, provider: 'apple', flow: 'web', category: 'client_secret_key' });
      throw new GatehouseError('internal_error', 'Internal error');
    }
    let claims: IdTokenClaims;
    let appleRefreshToken: string | null;
    try {
      const { idToken, refreshToken } = await exchangeAppleCode({
        tokenUrl: `${deps.appleAuthUrl}/auth/token`,
        clientId: web.servicesId,
        clientSecret,
        code: req.code,
        redirectUri: callbackUrl(req.realmId),
        timeoutMs: deps.tokenTimeoutMs,
      });
      appleRefreshToken = refreshToken;
      // 3. The same verifier as native login; the web flow's audience is the Services ID.
      claims = await verifyIdToken(idToken, {
        jwks: deps.apple.jwks,
        signatures: deps.signatures,
        issuers: deps.apple.provider.issuers,
        audiences: [web.servicesId],
        now: Math.floor(now / 1000),
        nonce: attempt.nonce,
      });
    } catch (e) {
      if (e instanceof AppleCodeRefused) throw fail(`code_${e.reason}`, e);
      if (e instanceof InvalidIdToken) throw fail(`token_${e.category}`, e);
      if (e instanceof GatehouseError && e.code === 'service_unavailable') throw fail('apple_unavailable', e);
      throw e;
    }

    // 4. and 5. Exactly native login's branch preconditions, match-or-create and result.
    const downstreamState = attempt.downstreamState ?? undefined;
    const client = await branchPreconditions(deps, { realmId: req.realmId, clientId: attempt.clientId, downstreamState }, fail);
    const done = await completeLogin(deps, { realmId: req.realmId, provider: deps.apple.provider, claims, fullName, client, downstreamState }, ctx, fail);
    // Kept for the account's deletion, which revokes it at Apple (docs/login.md "Deleting an account").
    if (appleRefreshToken !== null) await deps.users.keepAppleRefreshToken(req.realmId, claims.sub, appleRefreshToken);
    ctx.log.info('apple web login', { realmId: req.realmId, provider: 'apple', flow: 'web', userId: done.userId, created: done.created, branch: done.branch });
    deps.metrics?.login('apple_web', 'apple', 'success');
    return done.branch === 'session' ? done.session : { location: done.redirectUri };
  }

  return { appleWebLogin, appleWebCallback };
}

function settingsOf(c: ProviderConfig): WebSettings | null {
  if (!c.webClientId || !c.teamId || !c.keyId || !c.privateKey) return null;
  return { servicesId: c.webClientId, teamId: c.teamId, keyId: c.keyId, privateKey: c.privateKey };
}

const invalidState = () => badRequest('state: invalid, expired or already used', { field: 'state' });

/** Apple's `user` form field (first authorization only): {"name":{"firstName","lastName"},"email"}.
 *  Only the name is used — the email comes from the verified ID token. It is unauthenticated
 *  browser input, so anything unexpected is ignored rather than refused. */
export function parseUser(raw: string): FullName | null {
  if (!raw || raw.length > 4096) return null;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return null;
  }
  const name = (v as { name?: unknown } | null)?.name as { firstName?: unknown; lastName?: unknown } | undefined;
  if (!name || typeof name !== 'object') return null;
  const part = (p: unknown) => (typeof p === 'string' ? p.slice(0, 200) : '');
  return cleanName({ givenName: part(name.firstName), familyName: part(name.lastName) }, 'user');
}
