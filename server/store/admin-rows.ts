// The rows of the admin tables as both backends read them (the same columns in SQLite and
// PostgreSQL), and the records they make.
import type { ApiKeyRecord, ClientApp, ProviderConfig, Realm } from '../admin/model.ts';
import { ENCRYPTED, type SecretBox } from '../crypto/secrets.ts';
import { flag } from './row-values.ts';

export interface RealmRow {
  id: string;
  name: string;
  created_at: number;
}

export interface ClientRow {
  realm_id: string;
  client_id: string;
  name: string;
  type: ClientApp['type'];
  redirect_uris: string;
  ip_binding: ClientApp['ipBinding'];
  enabled: number | boolean;
  access_token_ttl_seconds: number;
  refresh_token_ttl_seconds: number;
  created_at: number;
}

export interface ProviderRow {
  realm_id: string;
  provider: ProviderConfig['provider'];
  client_id: string;
  enabled: number | boolean;
  client_secret: string | null;
  additional_client_ids: string;
  team_id: string;
  key_id: string;
  private_key: string | null;
  web_client_id: string;
  require_nonce: number | boolean;
  updated_at: number;
}

export interface KeyRow {
  id: string;
  key_hash: string;
  realm: string;
  permissions: string;
  name: string;
  created_at: number;
  revoked_at: number | null;
}

export const toRealm = (r: RealmRow): Realm => ({ id: r.id, name: r.name, createdAt: r.created_at });

export const toClient = (r: ClientRow): ClientApp => ({
  realmId: r.realm_id,
  clientId: r.client_id,
  name: r.name,
  type: r.type,
  redirectUris: JSON.parse(r.redirect_uris) as string[],
  ipBinding: r.ip_binding,
  enabled: flag(r.enabled),
  accessTokenTtlSeconds: r.access_token_ttl_seconds,
  refreshTokenTtlSeconds: r.refresh_token_ttl_seconds,
  createdAt: r.created_at,
});

/** A provider as stored: its secrets sealed (crypto/secrets.ts), opened again by toProvider. */
export const sealedProvider = (p: ProviderConfig, secrets: SecretBox): ProviderConfig => ({
  ...p,
  clientSecret: secrets.sealOrNull(ENCRYPTED.providerClientSecret, p.clientSecret),
  privateKey: secrets.sealOrNull(ENCRYPTED.providerPrivateKey, p.privateKey),
});

export const toProvider = (r: ProviderRow, secrets: SecretBox): ProviderConfig => ({
  realmId: r.realm_id,
  provider: r.provider,
  clientId: r.client_id,
  enabled: flag(r.enabled),
  clientSecret: secrets.openOrNull(ENCRYPTED.providerClientSecret, r.client_secret),
  additionalClientIds: JSON.parse(r.additional_client_ids) as string[],
  teamId: r.team_id,
  keyId: r.key_id,
  privateKey: secrets.openOrNull(ENCRYPTED.providerPrivateKey, r.private_key),
  webClientId: r.web_client_id,
  requireNonce: flag(r.require_nonce),
  updatedAt: r.updated_at,
});

export const toKey = (r: KeyRow): ApiKeyRecord => ({
  id: r.id,
  keyHash: r.key_hash,
  realm: r.realm,
  permissions: JSON.parse(r.permissions) as string[],
  name: r.name,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});
