// How an operator's change applies to a stored record, pure: the store reads the record, asks one
// of these, and writes the record it gets back.
import type { ApiKeyRecord, ClientApp, ProviderConfig } from './model.ts';
import type { ClientPatch, ProviderPut } from './store.ts';

/** The client with the patch's fields replaced; the rest as stored. */
export function applyClientPatch(client: ClientApp, patch: ClientPatch): ClientApp {
  return { ...client, ...patch };
}

/** The provider as `put` leaves it: a secret, key or Apple web setting the put leaves out
 *  (undefined) keeps its stored value, so an operator can change one field without re-sending the
 *  secrets; null removes it. Everything else is the put's. */
export function applyProviderPut(stored: ProviderConfig | null, put: ProviderPut): ProviderConfig {
  return {
    realmId: put.realmId,
    provider: put.provider,
    clientId: put.clientId,
    enabled: put.enabled,
    clientSecret: put.clientSecret === undefined ? (stored?.clientSecret ?? null) : put.clientSecret,
    additionalClientIds: put.additionalClientIds,
    teamId: put.teamId ?? stored?.teamId ?? '',
    keyId: put.keyId ?? stored?.keyId ?? '',
    privateKey: put.privateKey === undefined ? (stored?.privateKey ?? null) : put.privateKey,
    webClientId: put.webClientId ?? stored?.webClientId ?? '',
    requireNonce: put.requireNonce ?? stored?.requireNonce ?? false,
    updatedAt: put.updatedAt,
  };
}

/** The key revoked at `at`; a key revoked already keeps its first revocation time. */
export function revokedKey(key: ApiKeyRecord, at: number): ApiKeyRecord {
  return key.revokedAt === null ? { ...key, revokedAt: at } : key;
}
