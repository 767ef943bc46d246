// The rows of the auth tables as both backends read them (the same columns in SQLite and
// PostgreSQL), and the records they make.
import type { IpBinding } from '../admin/model.ts';
import type {
  AuthorizationCode,
  AuthorizeTransaction,
  RefreshTokenRecord,
  SigningAlgorithm,
  SigningKeyRecord,
  TokenFamily,
  WebLoginAttempt,
} from '../auth/store.ts';
import { ENCRYPTED, type SecretBox } from '../crypto/secrets.ts';

export interface KeyRow {
  kid: string;
  realm_id: string;
  alg: SigningAlgorithm;
  private_pem: string;
  public_jwk: string;
  created_at: number;
  retired_at: number | null;
}
export interface FamilyRow {
  id: string;
  realm_id: string;
  user_id: string;
  client_id: string;
  ip: string;
  ip_binding: IpBinding;
  access_ttl_s: number;
  refresh_ttl_s: number;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  provider: string | null;
}
export interface RefreshRow {
  token_hash: string;
  family_id: string;
  expires_at: number;
  rotated_at: number | null;
}
export interface TxRow {
  realm_id: string;
  state: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  scope: string;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
}
export interface CodeRow {
  code_hash: string;
  realm_id: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  scope: string;
  user_id: string;
  ip: string;
  provider: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  family_id: string | null;
}

export interface AttemptRow {
  state_hash: string;
  realm_id: string;
  client_id: string;
  downstream_state: string | null;
  nonce: string;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
}

export const toAttempt = (r: AttemptRow): WebLoginAttempt => ({
  stateHash: r.state_hash,
  realmId: r.realm_id,
  clientId: r.client_id,
  downstreamState: r.downstream_state,
  nonce: r.nonce,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  consumedAt: r.consumed_at,
});

/** The private part as stored: sealed (crypto/secrets.ts), opened again by toKey. */
export const sealedPrivatePem = (k: SigningKeyRecord, secrets: SecretBox): string => secrets.seal(ENCRYPTED.signingPrivateKey, k.privatePem);

export const toKey = (r: KeyRow, secrets: SecretBox): SigningKeyRecord => ({
  kid: r.kid,
  realmId: r.realm_id,
  alg: r.alg,
  privatePem: secrets.open(ENCRYPTED.signingPrivateKey, r.private_pem),
  publicJwk: JSON.parse(r.public_jwk) as Record<string, string>,
  createdAt: r.created_at,
  retiredAt: r.retired_at,
});
export const toFamily = (r: FamilyRow): TokenFamily => ({
  id: r.id,
  realmId: r.realm_id,
  userId: r.user_id,
  clientId: r.client_id,
  ip: r.ip,
  ipBinding: r.ip_binding,
  accessTtlS: r.access_ttl_s,
  refreshTtlS: r.refresh_ttl_s,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
  provider: r.provider ?? null,
});
export const toRefresh = (r: RefreshRow): RefreshTokenRecord => ({
  hash: r.token_hash,
  familyId: r.family_id,
  expiresAt: r.expires_at,
  rotatedAt: r.rotated_at,
});
export const toTx = (r: TxRow): AuthorizeTransaction => ({
  realmId: r.realm_id,
  state: r.state,
  clientId: r.client_id,
  redirectUri: r.redirect_uri,
  codeChallenge: r.code_challenge,
  scope: r.scope,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  consumedAt: r.consumed_at,
});
export const toCode = (r: CodeRow): AuthorizationCode => ({
  hash: r.code_hash,
  realmId: r.realm_id,
  clientId: r.client_id,
  redirectUri: r.redirect_uri,
  codeChallenge: r.code_challenge,
  scope: r.scope,
  userId: r.user_id,
  ip: r.ip,
  provider: r.provider ?? null,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  usedAt: r.used_at,
  familyId: r.family_id,
});
