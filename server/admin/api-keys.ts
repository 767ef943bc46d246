// API keys: shown once at creation, stored only as their SHA-256 (docs/concepts.md).

import { badRequest } from '../errors.ts';
import { newId, newSecret, sha256Hex } from '../lib/ids.ts';
import type { ApiKeyPrincipal } from '../rpc/context.ts';
import { type ApiKeyRecord, validatePermissions, validateRealmId } from './model.ts';
import { type AdminStore, type ChangeBy, SYSTEM_CHANGE } from './store.ts';

export interface NewApiKey {
  record: ApiKeyRecord;
  key: string;
}

export async function createApiKey(
  store: AdminStore,
  input: { realm: string; permissions: string[]; name: string },
  now: number,
  by: ChangeBy = SYSTEM_CHANGE,
): Promise<NewApiKey> {
  if (input.realm !== '*') validateRealmId(input.realm, 'realm');
  const permissions = [...new Set(input.permissions)];
  validatePermissions(permissions);
  if (input.name.length > 200) throw badRequest('name: at most 200 characters', { field: 'name' });
  const key = newSecret('ghk');
  const record: ApiKeyRecord = {
    id: newId('key'),
    keyHash: sha256Hex(key),
    realm: input.realm,
    permissions,
    name: input.name,
    createdAt: now,
    revokedAt: null,
  };
  await store.createApiKey(record, by);
  return { record, key };
}

/** Why `caller` may not create or revoke a key bound to `target.realm` with `target.permissions`,
 *  or null. A key acts only on keys that lie within it — its realm (a realm-bound key never on
 *  `*`) and a subset of its permissions (`*` holds them all) — so `api_keys.manage` alone never
 *  reaches a more privileged key. */
export function keyOutsideCaller(
  caller: { realm: string; permissions: readonly string[] },
  target: { realm: string; permissions: readonly string[] },
): string | null {
  if (caller.realm !== '*' && target.realm !== caller.realm) return `the calling key is bound to realm ${caller.realm}`;
  if (caller.permissions.includes('*')) return null;
  const missing = target.permissions.filter((p) => !caller.permissions.includes(p));
  return missing.length > 0 ? `the calling key lacks ${missing.join(', ')}` : null;
}

export async function authenticateApiKey(store: AdminStore, secret: string): Promise<ApiKeyPrincipal | null> {
  if (!secret.startsWith('ghk_') || secret.length > 200) return null;
  const rec = await store.findApiKeyByHash(sha256Hex(secret));
  if (!rec || rec.revokedAt !== null) return null;
  return { kind: 'api_key', keyId: rec.id, realm: rec.realm, permissions: rec.permissions };
}
