// Sessions: a token family per login (bound to one client and, per the client's setting, to the
// issuing IP), a JWT access token and an opaque refresh token rotated on every use (docs/login.md).

import type { ClientApp } from '../admin/model.ts';
import type { AdminStore } from '../admin/store.ts';
import type { SignatureService } from '../crypto/offload.ts';
import type { Emitted } from '../events/plan.ts';
import type { Clock } from '../lib/clock.ts';
import { newId, newSecret, sha256Hex } from '../lib/ids.ts';
import { type AccessClaims, readAccessToken, signAccessToken, verifyAccessToken } from './access-token.ts';
import { sessionRevokedEvent } from './family-lifetime.ts';
import { ipAllowed } from './ip-binding.ts';
import { oauthError } from './oauth-errors.ts';
import type { ActiveKey, SigningKeys } from './signing-keys.ts';
import type { AuthStore, NewRefreshToken, TokenFamily } from './store.ts';

export interface TokenSet {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  refreshExpiresIn: number;
  familyId: string;
}

export interface SessionDeps {
  store: AuthStore;
  admin: AdminStore;
  keys: SigningKeys;
  clock: Clock;
  signatures: SignatureService;
  /** `{publicUrl}/api/oauth/{realmId}`, read lazily (the URL is known once HTTP is bound). */
  issuer(realmId: string): string;
}

export interface FamilyDraft {
  family: TokenFamily;
  refresh: NewRefreshToken;
  refreshToken: string;
}

/** A new family for `client` and its first refresh token (not yet stored). */
export function draftFamily(realmId: string, userId: string, client: ClientApp, ip: string, now: number, provider: string | null): FamilyDraft {
  const family: TokenFamily = {
    id: newId('sid'),
    realmId,
    userId,
    clientId: client.clientId,
    ip,
    ipBinding: client.ipBinding,
    accessTtlS: client.accessTokenTtlSeconds,
    refreshTtlS: client.refreshTokenTtlSeconds,
    createdAt: now,
    revokedAt: null,
    provider,
  };
  const refreshToken = newSecret('rt');
  return { family, refreshToken, refresh: { hash: sha256Hex(refreshToken), expiresAt: now + client.refreshTokenTtlSeconds * 1000 } };
}

export function createSessions(deps: SessionDeps) {
  const { store, keys, clock } = deps;

  /** `key`: the realm's active key, when the caller has it already. */
  async function accessToken(f: TokenFamily, now: number, key?: ActiveKey): Promise<string> {
    key ??= await keys.active(f.realmId);
    const iat = Math.floor(now / 1000);
    return signAccessToken(deps.signatures, key, {
      iss: deps.issuer(f.realmId),
      sub: f.userId,
      aud: f.clientId,
      sid: f.id,
      jti: newId('at'),
      iat,
      exp: iat + f.accessTtlS,
    });
  }

  /** `signed`: the access token, when its signing was started already. */
  async function tokenSet(f: TokenFamily, refreshToken: string, now: number, signed?: Promise<string>): Promise<TokenSet> {
    return {
      accessToken: await (signed ?? accessToken(f, now)),
      refreshToken,
      tokenType: 'Bearer',
      expiresIn: f.accessTtlS,
      refreshExpiresIn: f.refreshTtlS,
      familyId: f.id,
    };
  }

  /** An access token of ours, read strictly, with a good signature, unexpired, of a live family of
   *  this realm (and, unless `ip` is null, used from where the family's IP binding allows). */
  async function signedByUs(realmId: string, token: string, ip: string | null): Promise<{ claims: AccessClaims; family: TokenFamily } | null> {
    const read = readAccessToken(token);
    if (!read) return null;
    const pub = await keys.publicKey(realmId, read.kid);
    if (!pub) return null;
    const claims = await verifyAccessToken(deps.signatures, read.jws, pub, { iss: deps.issuer(realmId), now: Math.floor(clock.now() / 1000) });
    if (!claims) return null;
    const family = await store.getFamily(claims.sid);
    if (!family || family.revokedAt !== null || family.realmId !== realmId || family.userId !== claims.sub) return null;
    if (ip !== null && !ipAllowed(family.ip, ip, family.ipBinding)) return null;
    return { claims, family };
  }

  /** Whether the family's client exists and is enabled: a disabled client's tokens are inactive. */
  async function clientEnabled(f: TokenFamily): Promise<boolean> {
    const client = await deps.admin.getClient(f.realmId, f.clientId);
    return client !== null && client.enabled;
  }

  return {
    tokenSet,
    clientEnabled,

    /** Direct session (native login) for a first-party client, opened by `provider`'s sign-in. */
    async start(realmId: string, userId: string, client: ClientApp, ip: string, provider: string): Promise<TokenSet> {
      const now = clock.now();
      const key = await keys.active(realmId); // create the realm key before the family, outside its transaction
      const d = draftFamily(realmId, userId, client, ip, now, provider);
      // The access token names only the drafted family: it is signed on the crypto worker while the
      // family commits, and handed out only once the commit has succeeded.
      const signed = accessToken(d.family, now, key);
      try {
        await store.createFamily(d.family, d.refresh);
      } catch (e) {
        signed.catch(() => {}); // the commit's error is the one to report
        throw e;
      }
      return tokenSet(d.family, d.refreshToken, now, signed);
    },

    /** grant_type=refresh_token (RFC 6749 §6) with rotation and reuse detection. */
    async refresh(realmId: string, refreshToken: string, clientId: string, ip: string): Promise<TokenSet> {
      const now = clock.now();
      // A client an operator disabled (or deleted) gets no new tokens. Read before the
      // transaction; the family's client never changes.
      const known = await store.familyOfRefreshToken(sha256Hex(refreshToken));
      if (known && !(await clientEnabled(known.family))) throw oauthError('invalid_grant', 'refresh_token belongs to a disabled client');
      const nextToken = newSecret('rt');
      const result = await store.rotateRefreshToken(
        sha256Hex(refreshToken),
        now,
        (f) => {
          if (f.realmId !== realmId) return 'realm';
          if (clientId && f.clientId !== clientId) return 'client';
          if (!ipAllowed(f.ip, ip, f.ipBinding)) return 'ip_binding';
          return null;
        },
        (f) => ({ hash: sha256Hex(nextToken), expiresAt: now + f.refreshTtlS * 1000 }),
      );
      switch (result.kind) {
        case 'ok':
          return tokenSet(result.family, nextToken, now);
        case 'reused':
          throw oauthError('invalid_grant', 'Refresh token was already used; the session is revoked');
        case 'refused':
          if (result.reason === 'ip_binding') throw oauthError('invalid_grant', 'Refresh token is not valid from this address', { status: 401 });
          if (result.reason === 'client') throw oauthError('invalid_grant', 'client_id does not match the client the refresh_token was issued to');
          if (result.reason === 'realm') throw oauthError('invalid_grant', 'refresh_token was issued by another realm');
          throw oauthError('invalid_grant', 'refresh_token is invalid');
        case 'expired':
          throw oauthError('invalid_grant', 'refresh_token expired');
        case 'revoked':
          throw oauthError('invalid_grant', 'refresh_token was revoked');
        default:
          throw oauthError('invalid_grant', 'refresh_token is invalid');
      }
    },

    /** An access token's claims and family when it is valid now; `ip` null skips the IP binding
     *  (introspection, where the caller is a resource server, not the token's holder). */
    async check(realmId: string, token: string, ip: string | null): Promise<{ claims: AccessClaims; family: TokenFamily } | null> {
      const ok = await signedByUs(realmId, token, ip);
      // A client an operator disabled (or removed) loses its live tokens from the next call on.
      // getClient is served from the admin store's cache, dropped on every client write.
      if (!ok || !(await clientEnabled(ok.family))) return null;
      return ok;
    },

    /** RFC 7009: the family of a refresh or access token is revoked; unknown tokens are ignored. */
    async revoke(realmId: string, token: string, clientId: string): Promise<void> {
      const now = clock.now();
      const signedOut = (f: TokenFamily): Emitted => ({ events: [sessionRevokedEvent(f, 'signed_out', now)], audit: [], jobs: [] });
      if (token.startsWith('rt_')) {
        const found = await store.familyOfRefreshToken(sha256Hex(token));
        if (!found || found.family.realmId !== realmId) return;
        if (clientId && found.family.clientId !== clientId) return; // §2.1: not the client's token
        await store.revokeFamily(found.family.id, now, 'revoked', signedOut);
        return;
      }
      // A disabled client's token can still be revoked: re-enabling the client must not bring back
      // a session its user ended.
      const ok = await signedByUs(realmId, token, null);
      if (!ok || (clientId && ok.family.clientId !== clientId)) return;
      await store.revokeFamily(ok.family.id, now, 'revoked', signedOut);
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
