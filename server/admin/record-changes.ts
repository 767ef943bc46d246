// How an operator's change applies to a stored record, pure: the store reads the record, asks one
// of these, and writes the record it gets back.
import { type AuditRecord, type FieldChange, REDACTED } from '../audit/model.ts';
import { type Emitted, newAuditRecord, sessionRevokedEvent } from '../events/plan.ts';
import type { ApiKeyRecord, ClientApp, ProviderConfig, Realm } from './model.ts';
import type { ChangeBy, ClientPatch, ProviderPut } from './store.ts';

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

/** The fields whose value differs between `before` (null: the record is new) and `after`, each
 *  with both values; a field named in `redact` is shown as "[redacted]" when set (docs/events.md),
 *  one in `skip` (bookkeeping such as updatedAt) not at all. */
export function fieldChanges<T extends object>(
  before: T | null,
  after: T,
  opts: { redact?: ReadonlyArray<keyof T>; skip?: ReadonlyArray<keyof T> } = {},
): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  const shown = (field: keyof T, value: unknown) => (opts.redact?.includes(field) && value !== null && value !== '' ? REDACTED : (value ?? null));
  for (const field of Object.keys(after) as Array<keyof T>) {
    if (opts.skip?.includes(field)) continue;
    const old = before === null ? null : before[field];
    if (JSON.stringify(old ?? null) === JSON.stringify(after[field] ?? null)) continue;
    changes[field as string] = { before: before === null ? null : shown(field, old), after: shown(field, after[field]) };
  }
  return changes;
}

const record = (by: ChangeBy, at: number, realmId: string, action: string, targetId: string, changes: Record<string, FieldChange>) =>
  newAuditRecord({ at, realmId, actor: by.actor, action, targetId, changes, requestId: by.requestId });

export const realmCreatedAudit = (realm: Realm, by: ChangeBy): AuditRecord =>
  record(by, realm.createdAt, realm.id, 'realm.create', realm.id, fieldChanges(null, realm, { skip: ['createdAt'] }));

export const clientCreatedAudit = (client: ClientApp, by: ChangeBy): AuditRecord =>
  record(by, client.createdAt, client.realmId, 'client.create', client.clientId, fieldChanges(null, client, { skip: ['createdAt', 'realmId'] }));

export const clientUpdatedAudit = (before: ClientApp, after: ClientApp, by: ChangeBy, at: number): AuditRecord =>
  record(by, at, after.realmId, 'client.update', after.clientId, fieldChanges(before, after, { skip: ['createdAt'] }));

/** Whether the update disables the client: its live sessions end with it (docs/events.md), so that
 *  enabling it again does not bring them back (docs/login.md). */
export const disablesClient = (before: ClientApp, after: ClientApp): boolean => before.enabled && !after.enabled;

/** A client update's records: its audit record, and one `session.revoked` (`client_disabled`) per
 *  session of the client the update ended. */
export const clientUpdatedEmitted = (
  before: ClientApp,
  after: ClientApp,
  ended: ReadonlyArray<{ id: string; userId: string }>,
  by: ChangeBy,
  at: number,
): Emitted => ({
  events: ended.map((f) => sessionRevokedEvent({ ...f, realmId: after.realmId }, 'client_disabled', at)),
  audit: [clientUpdatedAudit(before, after, by, at)],
  jobs: [],
});

export const providerUpdatedAudit = (before: ProviderConfig | null, after: ProviderConfig, by: ChangeBy): AuditRecord =>
  record(
    by,
    after.updatedAt,
    after.realmId,
    'provider.update',
    after.provider,
    fieldChanges(before, after, { redact: ['clientSecret', 'privateKey'], skip: ['updatedAt', 'realmId'] }),
  );

/** A key's record is written in the realm it is bound to (`*` for a global key); its hash never. */
export const apiKeyCreatedAudit = (key: ApiKeyRecord, by: ChangeBy): AuditRecord =>
  record(by, key.createdAt, key.realm, 'api_key.create', key.id, fieldChanges(null, key, { skip: ['keyHash', 'createdAt', 'revokedAt'] }));

export const apiKeyRevokedAudit = (before: ApiKeyRecord, after: ApiKeyRecord, by: ChangeBy): AuditRecord =>
  record(by, after.revokedAt ?? before.createdAt, after.realm, 'api_key.revoke', after.id, fieldChanges(before, after, { skip: ['keyHash'] }));

/** Revoking `key` at `at` (revokedKey) and its audit record: none when the key was revoked
 *  already, as nothing changed. */
export function keyRevocation(key: ApiKeyRecord, at: number, by: ChangeBy): { key: ApiKeyRecord; audit: AuditRecord | null } {
  const after = revokedKey(key, at);
  return { key: after, audit: after === key ? null : apiKeyRevokedAudit(key, after, by) };
}
