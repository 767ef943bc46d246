// SQLite implementation of AdminStore. Statements are prepared once.
import type { ApiKeyRecord, ClientApp, ProviderConfig, Realm } from '../../admin/model.ts';
import {
  apiKeyCreatedAudit,
  applyClientPatch,
  applyProviderPut,
  clientCreatedAudit,
  clientUpdatedEmitted,
  disablesClient,
  keyRevocation,
  providerUpdatedAudit,
  realmCreatedAudit,
} from '../../admin/record-changes.ts';
import { type AdminStore, type ChangeBy, type ClientPatch, type ProviderPut, SYSTEM_CHANGE } from '../../admin/store.ts';
import type { AuditRecord } from '../../audit/model.ts';
import type { SecretBox } from '../../crypto/secrets.ts';
import { type Cache, createCache } from '../../lib/cache.ts';
import { type ClientRow, type KeyRow, type ProviderRow, sealedProvider, toClient, toKey, toProvider, toRealm } from '../admin-rows.ts';
import { type Db, immediate, immediateForgetting, type Synchronous } from './open.ts';
import { otherCommitsSignal } from './other-commits.ts';
import { type RecordWriter, recordWriter } from './records.ts';

/** Most entries a cache map holds; past it the map starts again (bounded memory whatever the keys). */
const CACHE_MAX = 10_000;

export class SqliteAdminStore implements AdminStore {
  private readonly s;
  // Every login reads its realm's provider and client, every API call its key: rows operators
  // change a few times a year. They are cached per connection and dropped whenever they may have
  // changed — on any write of this store, and when PRAGMA data_version says another connection
  // (`gatehouse keys revoke --db …` while the server runs) committed. Only found rows are cached,
  // so a revoked or new key, client or provider is seen on the next request.
  private readonly cached: { clients: Cache<ClientApp>; providers: Cache<ProviderConfig>; keys: Cache<ApiKeyRecord> };

  private readonly records: RecordWriter;

  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
  ) {
    this.records = recordWriter(db, secrets);
    const cache = <V>() => createCache<V>({ max: CACHE_MAX, invalidation: otherCommitsSignal(db) });
    this.cached = { clients: cache(), providers: cache(), keys: cache() };
    this.s = {
      insertRealm: db.prepare('INSERT OR IGNORE INTO realms (id, name, created_at) VALUES (?, ?, ?)'),
      listRealms: db.prepare('SELECT * FROM realms ORDER BY id'),
      getRealm: db.prepare('SELECT * FROM realms WHERE id = ?'),
      insertClient: db.prepare(`INSERT OR IGNORE INTO clients (realm_id, client_id, name, type, redirect_uris, ip_binding, enabled,
        access_token_ttl_seconds, refresh_token_ttl_seconds, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      getClient: db.prepare('SELECT * FROM clients WHERE realm_id = ? AND client_id = ?'),
      listClients: db.prepare('SELECT * FROM clients WHERE realm_id = ? ORDER BY client_id'),
      updateClient: db.prepare(`UPDATE clients SET name = ?, type = ?, redirect_uris = ?, ip_binding = ?, enabled = ?,
        access_token_ttl_seconds = ?, refresh_token_ttl_seconds = ? WHERE realm_id = ? AND client_id = ?`),
      // A disabled client's live sessions (token families, family-lifetime.ts sessionIsLive) end with it.
      endClientSessions: db.prepare(`UPDATE token_families SET revoked_at = ?, revoked_reason = 'client_disabled'
        WHERE realm_id = ? AND client_id = ? AND revoked_at IS NULL AND expires_at > ? RETURNING id, user_id AS userId`),
      getProvider: db.prepare('SELECT * FROM providers WHERE realm_id = ? AND provider = ?'),
      listProviders: db.prepare('SELECT * FROM providers WHERE realm_id = ? ORDER BY provider'),
      upsertProvider: db.prepare(`INSERT INTO providers (realm_id, provider, client_id, enabled, client_secret, additional_client_ids,
          team_id, key_id, private_key, web_client_id, require_nonce, updated_at) VALUES (@realmId, @provider, @clientId, @enabled, @clientSecret, @additionalClientIds,
          @teamId, @keyId, @privateKey, @webClientId, @requireNonce, @updatedAt)
        ON CONFLICT (realm_id, provider) DO UPDATE SET client_id = excluded.client_id, enabled = excluded.enabled,
          client_secret = excluded.client_secret, additional_client_ids = excluded.additional_client_ids, team_id = excluded.team_id,
          key_id = excluded.key_id, private_key = excluded.private_key, web_client_id = excluded.web_client_id,
          require_nonce = excluded.require_nonce, updated_at = excluded.updated_at`),
      insertKey: db.prepare('INSERT INTO api_keys (id, key_hash, realm, permissions, name, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?)'),
      keyByHash: db.prepare('SELECT * FROM api_keys WHERE key_hash = ?'),
      keyById: db.prepare('SELECT * FROM api_keys WHERE id = ?'),
      listKeys: db.prepare('SELECT * FROM api_keys ORDER BY created_at, id'),
      revokeKey: db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?'),
    };
  }

  private dropCache(): void {
    for (const c of Object.values(this.cached)) c.clear();
  }

  /** The cached row under `key`, else `load()` — remembered when found. */
  private cachedRow<V extends object>(pick: (c: typeof this.cached) => Cache<V>, key: string, load: () => V | null): V | null {
    const cache = pick(this.cached);
    const hit = cache.get(key);
    if (hit) return hit;
    const value = load();
    if (value === null) return null;
    cache.set(key, Object.freeze(value));
    return value;
  }

  /** A write of this store: the cache is dropped once it has written and again once it settled. */
  private write<T>(fn: () => Synchronous<T>): Promise<T> {
    return immediateForgetting(this.db, () => this.dropCache(), fn);
  }

  /** Writes the audit record of a change made in the current transaction. */
  private audit(record: AuditRecord): void {
    this.records({ events: [], audit: [record], jobs: [] });
  }

  async createRealm(r: Realm, by: ChangeBy = SYSTEM_CHANGE): Promise<boolean> {
    return immediate(this.db, () => {
      if (this.s.insertRealm.run(r.id, r.name, r.createdAt).changes !== 1) return false;
      this.audit(realmCreatedAudit(r, by));
      return true;
    });
  }

  async listRealms(): Promise<Realm[]> {
    return (this.s.listRealms.all() as Array<{ id: string; name: string; created_at: number }>).map(toRealm);
  }

  async getRealm(id: string): Promise<Realm | null> {
    const r = this.s.getRealm.get(id) as { id: string; name: string; created_at: number } | undefined;
    return r ? toRealm(r) : null;
  }

  async createClient(c: ClientApp, by: ChangeBy = SYSTEM_CHANGE): Promise<boolean> {
    return this.write(() => {
      const inserted =
        this.s.insertClient.run(
          c.realmId,
          c.clientId,
          c.name,
          c.type,
          JSON.stringify(c.redirectUris),
          c.ipBinding,
          c.enabled ? 1 : 0,
          c.accessTokenTtlSeconds,
          c.refreshTokenTtlSeconds,
          c.createdAt,
        ).changes === 1;
      if (inserted) this.audit(clientCreatedAudit(c, by));
      return inserted;
    });
  }

  async getClient(realmId: string, clientId: string): Promise<ClientApp | null> {
    return this.cachedRow(
      (c) => c.clients,
      `${realmId}\u0000${clientId}`,
      () => {
        const r = this.s.getClient.get(realmId, clientId) as ClientRow | undefined;
        return r ? toClient(r) : null;
      },
    );
  }

  async listClients(realmId: string): Promise<ClientApp[]> {
    return (this.s.listClients.all(realmId) as ClientRow[]).map(toClient);
  }

  async updateClient(
    realmId: string,
    clientId: string,
    patch: ClientPatch,
    check: (merged: ClientApp) => void,
    at: number,
    by: ChangeBy = SYSTEM_CHANGE,
  ): Promise<ClientApp | null> {
    return this.write(() => {
      const row = this.s.getClient.get(realmId, clientId) as ClientRow | undefined;
      if (!row) return null;
      const before = toClient(row);
      const merged = applyClientPatch(before, patch);
      check(merged);
      this.s.updateClient.run(
        merged.name,
        merged.type,
        JSON.stringify(merged.redirectUris),
        merged.ipBinding,
        merged.enabled ? 1 : 0,
        merged.accessTokenTtlSeconds,
        merged.refreshTokenTtlSeconds,
        realmId,
        clientId,
      );
      const ended = disablesClient(before, merged) ? (this.s.endClientSessions.all(at, realmId, clientId, at) as Array<{ id: string; userId: string }>) : [];
      this.records(clientUpdatedEmitted(before, merged, ended, by, at));
      return merged;
    });
  }

  async putProvider(put: ProviderPut, by: ChangeBy = SYSTEM_CHANGE): Promise<ProviderConfig> {
    return this.write(() => {
      const old = this.s.getProvider.get(put.realmId, put.provider) as ProviderRow | undefined;
      const before = old ? toProvider(old, this.secrets) : null;
      const p = applyProviderPut(before, put);
      const stored = sealedProvider(p, this.secrets);
      this.s.upsertProvider.run({
        ...stored,
        enabled: p.enabled ? 1 : 0,
        requireNonce: p.requireNonce ? 1 : 0,
        additionalClientIds: JSON.stringify(p.additionalClientIds),
      });
      this.audit(providerUpdatedAudit(before, p, by));
      return p;
    });
  }

  async getProvider(realmId: string, provider: string): Promise<ProviderConfig | null> {
    return this.cachedRow(
      (c) => c.providers,
      `${realmId}\u0000${provider}`,
      () => {
        const r = this.s.getProvider.get(realmId, provider) as ProviderRow | undefined;
        return r ? toProvider(r, this.secrets) : null;
      },
    );
  }

  async listProviders(realmId: string): Promise<ProviderConfig[]> {
    return (this.s.listProviders.all(realmId) as ProviderRow[]).map((r) => toProvider(r, this.secrets));
  }

  async createApiKey(k: ApiKeyRecord, by: ChangeBy = SYSTEM_CHANGE): Promise<void> {
    await this.write(() => {
      this.s.insertKey.run(k.id, k.keyHash, k.realm, JSON.stringify(k.permissions), k.name, k.createdAt, k.revokedAt);
      this.audit(apiKeyCreatedAudit(k, by));
    });
  }

  async findApiKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
    return this.cachedRow(
      (c) => c.keys,
      hash,
      () => {
        const r = this.s.keyByHash.get(hash) as KeyRow | undefined;
        return r ? toKey(r) : null;
      },
    );
  }

  async listApiKeys(): Promise<ApiKeyRecord[]> {
    return (this.s.listKeys.all() as KeyRow[]).map(toKey);
  }

  async getApiKey(id: string): Promise<ApiKeyRecord | null> {
    const r = this.s.keyById.get(id) as KeyRow | undefined;
    return r ? toKey(r) : null;
  }

  async revokeApiKey(id: string, at: number, by: ChangeBy = SYSTEM_CHANGE): Promise<ApiKeyRecord | null> {
    return this.write(() => {
      const r = this.s.keyById.get(id) as KeyRow | undefined;
      if (!r) return null;
      const { key, audit } = keyRevocation(toKey(r), at, by);
      this.s.revokeKey.run(key.revokedAt, id);
      if (audit) this.audit(audit);
      return key;
    });
  }
}
