// The realm's enabled provider and the verification of its ID token, as native login does them
// (docs/login.md): shared by native login and identity linking (identity-linking.ts), so a token
// that links is exactly a token that would sign in.
import type { ProviderConfig } from '../admin/model.ts';
import type { AdminStore } from '../admin/store.ts';
import type { SignatureService } from '../crypto/offload.ts';
import { badRequest } from '../errors.ts';
import type { Clock } from '../lib/clock.ts';
import { type IdTokenClaims, verifyIdToken } from './id-token.ts';
import type { JwksCache } from './jwks-cache.ts';
import type { NativeProvider } from './providers/provider.ts';

export interface ProviderEntry {
  provider: NativeProvider;
  jwks: JwksCache;
}

/** A provider name as it may appear in logs and messages (anything else is `identity`). */
export const providerLabel = (kind: string): string => (/^[a-z0-9_-]{1,32}$/.test(kind) ? kind : 'identity');

/** The request's raw nonce, when given: 1–512 characters (400 otherwise). */
export function checkNonceField(nonce: string | undefined): void {
  if (nonce !== undefined && (nonce === '' || nonce.length > 512)) throw badRequest('nonce: 1–512 characters', { field: 'nonce' });
}

/** The provider of kind `kind` when the realm has it configured and enabled, else null. */
export async function enabledProvider(
  deps: { admin: AdminStore; providers: Map<string, ProviderEntry> },
  realmId: string,
  kind: string,
): Promise<{ entry: ProviderEntry; config: ProviderConfig } | null> {
  const entry = deps.providers.get(kind);
  const config = entry ? await deps.admin.getProvider(realmId, kind) : null;
  return entry && config?.enabled ? { entry, config } : null;
}

/** The realm's native audiences: the provider's client id, and the further app ids (another bundle
 *  id) an operator lists in additionalClientIds. */
export const nativeAudiences = (config: ProviderConfig): string[] => [config.clientId, ...config.additionalClientIds];

/** Verifies a native ID token (InvalidIdToken: 401; service_unavailable: 503). */
export function verifyNativeToken(
  deps: { signatures: SignatureService; clock: Clock },
  p: { entry: ProviderEntry; config: ProviderConfig },
  token: string,
  nonce: string | undefined,
): Promise<IdTokenClaims> {
  return verifyIdToken(token, {
    jwks: p.entry.jwks,
    signatures: deps.signatures,
    issuers: p.entry.provider.issuers,
    audiences: nativeAudiences(p.config),
    now: Math.floor(deps.clock.now() / 1000),
    nonce,
  });
}
