// The admin concern's storage interface. Methods return Promises (a PostgreSQL store can implement
// the same interface); each method is one transaction.
import { type Actor, SYSTEM_ACTOR } from '../audit/model.ts';
import { notFound } from '../errors.ts';
import type { ApiKeyRecord, ClientApp, ProviderConfig, Realm } from './model.ts';

export type ClientPatch = Partial<
  Pick<ClientApp, 'name' | 'type' | 'redirectUris' | 'ipBinding' | 'enabled' | 'accessTokenTtlSeconds' | 'refreshTokenTtlSeconds'>
>;

export interface ProviderPut {
  realmId: string;
  provider: ProviderConfig['provider'];
  clientId: string;
  enabled: boolean;
  additionalClientIds: string[];
  /** undefined keeps the stored value; null removes it. */
  clientSecret?: string | null;
  teamId?: string;
  keyId?: string;
  privateKey?: string | null;
  webClientId?: string;
  /** undefined keeps the stored value (false for a new provider). */
  requireNonce?: boolean;
  updatedAt: number;
}

/** Who asked for a change, for its audit record (docs/events.md). */
export interface ChangeBy {
  actor: Actor;
  requestId: string | null;
}

/** gatehouse itself: the CLI's direct-database paths (`keys create --db`) and set-up code. */
export const SYSTEM_CHANGE: ChangeBy = { actor: SYSTEM_ACTOR, requestId: null };

/** The realm, or a 404 naming it: every realm-scoped call starts here. */
export async function requireRealm(store: Pick<AdminStore, 'getRealm'>, realmId: string): Promise<Realm> {
  const realm = await store.getRealm(realmId);
  if (!realm) throw notFound(`Realm ${realmId} not found`);
  return realm;
}

export interface AdminStore {
  // Each write also writes its audit record in its transaction; `by` defaults to SYSTEM_CHANGE.

  /** false when a realm with that id exists already. */
  createRealm(realm: Realm, by?: ChangeBy): Promise<boolean>;
  listRealms(): Promise<Realm[]>;
  getRealm(id: string): Promise<Realm | null>;

  /** false when the client id is taken in the realm. */
  createClient(client: ClientApp, by?: ChangeBy): Promise<boolean>;
  getClient(realmId: string, clientId: string): Promise<ClientApp | null>;
  listClients(realmId: string): Promise<ClientApp[]>;
  /** Applies the patch after `check` accepts the merged record; null when the client is unknown. */
  updateClient(realmId: string, clientId: string, patch: ClientPatch, check: (merged: ClientApp) => void, at: number, by?: ChangeBy): Promise<ClientApp | null>;

  putProvider(put: ProviderPut, by?: ChangeBy): Promise<ProviderConfig>;
  getProvider(realmId: string, provider: string): Promise<ProviderConfig | null>;
  listProviders(realmId: string): Promise<ProviderConfig[]>;

  createApiKey(rec: ApiKeyRecord, by?: ChangeBy): Promise<void>;
  findApiKeyByHash(hash: string): Promise<ApiKeyRecord | null>;
  listApiKeys(): Promise<ApiKeyRecord[]>;
  getApiKey(id: string): Promise<ApiKeyRecord | null>;
  revokeApiKey(id: string, at: number, by?: ChangeBy): Promise<ApiKeyRecord | null>;
}
