// PostgreSQL implementation of AdminStore. Keys, clients and providers are read on every call and
// cached per process, checked against cache_version once per turn (cache-version.ts), so a change
// made through any replica is seen by all of them on their next call. A read-modify-write locks
// the row it read (FOR UPDATE) until it commits; the decision is record-changes.ts's.
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
import { type ClientRow, type KeyRow, type ProviderRow, type RealmRow, sealedProvider, toClient, toKey, toProvider, toRealm } from '../admin-rows.ts';
import { CacheVersion, VERSION_SQL, VersionedCache } from './cache-version.ts';
import { writeEmitted } from './records.ts';
import { inTransaction, query, RetryUseCase, type Tx, type TxContext } from './tx.ts';

/** Writes the audit record of a change made in `tx` (no job, so the box seals nothing here). */
const audit = (tx: Tx, record: AuditRecord, secrets: SecretBox) => writeEmitted(tx, { events: [], audit: [record], jobs: [] }, secrets);

/** Most entries a cache holds; past it the cache starts again (bounded memory whatever the keys). */
const CACHE_MAX = 10_000;

// Text ordering is byte order (COLLATE "C"), as SQLite's, whatever the database's locale.
const SQL = {
  insertRealm: 'INSERT INTO realms (id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
  listRealms: 'SELECT * FROM realms ORDER BY id COLLATE "C"',
  getRealm: 'SELECT * FROM realms WHERE id = $1',
  insertClient: `INSERT INTO clients (realm_id, client_id, name, type, redirect_uris, ip_binding, enabled, access_token_ttl_seconds,
      refresh_token_ttl_seconds, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING`,
  // The row (when found) and the cache version, in one snapshot.
  getClient: `SELECT ${VERSION_SQL} AS cache_version, c.* FROM (SELECT 1) one LEFT JOIN clients c ON c.realm_id = $1 AND c.client_id = $2`,
  lockClient: 'SELECT * FROM clients WHERE realm_id = $1 AND client_id = $2 FOR UPDATE',
  // A disabled client's live sessions (token families, family-lifetime.ts sessionIsLive) end with it.
  endClientSessions: `UPDATE token_families SET revoked_at = $3, revoked_reason = 'client_disabled'
    WHERE realm_id = $1 AND client_id = $2 AND revoked_at IS NULL AND expires_at > $3 RETURNING id, user_id AS "userId"`,
  listClients: 'SELECT * FROM clients WHERE realm_id = $1 ORDER BY client_id COLLATE "C"',
  updateClient: `UPDATE clients SET name = $3, type = $4, redirect_uris = $5, ip_binding = $6, enabled = $7, access_token_ttl_seconds = $8,
      refresh_token_ttl_seconds = $9 WHERE realm_id = $1 AND client_id = $2`,
  getProvider: `SELECT ${VERSION_SQL} AS cache_version, p.* FROM (SELECT 1) one LEFT JOIN providers p ON p.realm_id = $1 AND p.provider = $2`,
  lockProvider: 'SELECT * FROM providers WHERE realm_id = $1 AND provider = $2 FOR UPDATE',
  listProviders: 'SELECT * FROM providers WHERE realm_id = $1 ORDER BY provider COLLATE "C"',
  insertProvider: `INSERT INTO providers (realm_id, provider, client_id, enabled, client_secret, additional_client_ids, team_id, key_id,
      private_key, web_client_id, updated_at, require_nonce) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT DO NOTHING`,
  updateProvider: `UPDATE providers SET client_id = $3, enabled = $4, client_secret = $5, additional_client_ids = $6, team_id = $7, key_id = $8,
      private_key = $9, web_client_id = $10, updated_at = $11, require_nonce = $12 WHERE realm_id = $1 AND provider = $2`,
  insertKey: 'INSERT INTO api_keys (id, key_hash, realm, permissions, name, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
  keyByHash: `SELECT ${VERSION_SQL} AS cache_version, k.* FROM (SELECT 1) one LEFT JOIN api_keys k ON k.key_hash = $1`,
  keyById: 'SELECT * FROM api_keys WHERE id = $1',
  lockKey: 'SELECT * FROM api_keys WHERE id = $1 FOR UPDATE',
  listKeys: 'SELECT * FROM api_keys ORDER BY created_at, id COLLATE "C"',
  revokeKey: 'UPDATE api_keys SET revoked_at = $2 WHERE id = $1',
};

type Versioned<R> = Partial<R> & { cache_version: number };

export class PostgresAdminStore implements AdminStore {
  private readonly cached: { clients: VersionedCache<ClientApp>; providers: VersionedCache<ProviderConfig>; keys: VersionedCache<ApiKeyRecord> };

  constructor(
    private readonly ctx: TxContext,
    private readonly secrets: SecretBox,
    version: CacheVersion = new CacheVersion(ctx.pool),
  ) {
    this.cached = {
      clients: new VersionedCache(version, CACHE_MAX),
      providers: new VersionedCache(version, CACHE_MAX),
      keys: new VersionedCache(version, CACHE_MAX),
    };
  }

  private read<R>(text: string, values: unknown[]): Promise<R[]> {
    return query<R>(this.ctx.pool, text, values);
  }

  /** A versioned read: the row (null when the join found none) and the version it was read at. */
  private async versioned<R, V>(text: string, values: unknown[], present: keyof R, to: (r: R) => V): Promise<{ version: number; value: V | null }> {
    const [r] = await this.read<Versioned<R>>(text, values);
    return { version: r!.cache_version, value: r![present] === null ? null : to(r as R) };
  }

  /** This process's own writes are seen at once, whatever turn the version was read in. */
  private dropCaches(): void {
    for (const c of Object.values(this.cached)) c.clear();
  }

  async createRealm(r: Realm, by: ChangeBy = SYSTEM_CHANGE): Promise<boolean> {
    return inTransaction(this.ctx, 'createRealm', async (tx) => {
      if ((await tx.run(SQL.insertRealm, [r.id, r.name, r.createdAt])) !== 1) return false;
      audit(tx, realmCreatedAudit(r, by), this.secrets);
      return true;
    });
  }

  async listRealms(): Promise<Realm[]> {
    return (await this.read<RealmRow>(SQL.listRealms, [])).map(toRealm);
  }

  async getRealm(id: string): Promise<Realm | null> {
    const [r] = await this.read<RealmRow>(SQL.getRealm, [id]);
    return r ? toRealm(r) : null;
  }

  async createClient(c: ClientApp, by: ChangeBy = SYSTEM_CHANGE): Promise<boolean> {
    this.dropCaches();
    const n = await inTransaction(this.ctx, 'createClient', async (tx) => {
      const inserted = await tx.run(SQL.insertClient, [
        c.realmId,
        c.clientId,
        c.name,
        c.type,
        JSON.stringify(c.redirectUris),
        c.ipBinding,
        c.enabled,
        c.accessTokenTtlSeconds,
        c.refreshTokenTtlSeconds,
        c.createdAt,
      ]);
      if (inserted === 1) audit(tx, clientCreatedAudit(c, by), this.secrets);
      return inserted;
    });
    this.dropCaches();
    return n === 1;
  }

  async getClient(realmId: string, clientId: string): Promise<ClientApp | null> {
    return this.cached.clients.get(`${realmId}\u0000${clientId}`, () =>
      this.versioned<ClientRow, ClientApp>(SQL.getClient, [realmId, clientId], 'client_id', toClient),
    );
  }

  async listClients(realmId: string): Promise<ClientApp[]> {
    return (await this.read<ClientRow>(SQL.listClients, [realmId])).map(toClient);
  }

  async updateClient(
    realmId: string,
    clientId: string,
    patch: ClientPatch,
    check: (merged: ClientApp) => void,
    at: number,
    by: ChangeBy = SYSTEM_CHANGE,
  ): Promise<ClientApp | null> {
    this.dropCaches();
    try {
      return await inTransaction(this.ctx, 'updateClient', async (tx) => {
        const row = await tx.row<ClientRow>(SQL.lockClient, [realmId, clientId]);
        if (!row) return null;
        const before = toClient(row);
        const m = applyClientPatch(before, patch);
        check(m);
        tx.run(SQL.updateClient, [
          realmId,
          clientId,
          m.name,
          m.type,
          JSON.stringify(m.redirectUris),
          m.ipBinding,
          m.enabled,
          m.accessTokenTtlSeconds,
          m.refreshTokenTtlSeconds,
        ]);
        const ended = disablesClient(before, m) ? await tx.rows<{ id: string; userId: string }>(SQL.endClientSessions, [realmId, clientId, at]) : [];
        writeEmitted(tx, clientUpdatedEmitted(before, m, ended, by, at), this.secrets);
        return m;
      });
    } finally {
      this.dropCaches();
    }
  }

  async putProvider(put: ProviderPut, by: ChangeBy = SYSTEM_CHANGE): Promise<ProviderConfig> {
    this.dropCaches();
    try {
      return await inTransaction(this.ctx, 'putProvider', async (tx) => {
        const old = await tx.row<ProviderRow>(SQL.lockProvider, [put.realmId, put.provider]);
        const before = old ? toProvider(old, this.secrets) : null;
        const p = applyProviderPut(before, put);
        const stored = sealedProvider(p, this.secrets);
        const values = [
          p.realmId,
          p.provider,
          p.clientId,
          p.enabled,
          stored.clientSecret,
          JSON.stringify(p.additionalClientIds),
          p.teamId,
          p.keyId,
          stored.privateKey,
          p.webClientId,
          p.updatedAt,
          p.requireNonce,
        ];
        if (old) tx.run(SQL.updateProvider, values);
        // None was there to lock: another replica's first put may land between, so an insert that
        // meets one re-runs the use case, which then merges onto it.
        else if ((await tx.run(SQL.insertProvider, values)) === 0) throw new RetryUseCase('provider created concurrently');
        audit(tx, providerUpdatedAudit(before, p, by), this.secrets);
        return p;
      });
    } finally {
      this.dropCaches();
    }
  }

  async getProvider(realmId: string, provider: string): Promise<ProviderConfig | null> {
    return this.cached.providers.get(`${realmId}\u0000${provider}`, () =>
      this.versioned<ProviderRow, ProviderConfig>(SQL.getProvider, [realmId, provider], 'provider', (r) => toProvider(r, this.secrets)),
    );
  }

  async listProviders(realmId: string): Promise<ProviderConfig[]> {
    return (await this.read<ProviderRow>(SQL.listProviders, [realmId])).map((r) => toProvider(r, this.secrets));
  }

  async createApiKey(k: ApiKeyRecord, by: ChangeBy = SYSTEM_CHANGE): Promise<void> {
    this.dropCaches();
    await inTransaction(this.ctx, 'createApiKey', async (tx) => {
      tx.run(SQL.insertKey, [k.id, k.keyHash, k.realm, JSON.stringify(k.permissions), k.name, k.createdAt, k.revokedAt]);
      audit(tx, apiKeyCreatedAudit(k, by), this.secrets);
    });
    this.dropCaches();
  }

  async findApiKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
    return this.cached.keys.get(hash, () => this.versioned<KeyRow, ApiKeyRecord>(SQL.keyByHash, [hash], 'id', toKey));
  }

  async listApiKeys(): Promise<ApiKeyRecord[]> {
    return (await this.read<KeyRow>(SQL.listKeys, [])).map(toKey);
  }

  async getApiKey(id: string): Promise<ApiKeyRecord | null> {
    const [r] = await this.read<KeyRow>(SQL.keyById, [id]);
    return r ? toKey(r) : null;
  }

  async revokeApiKey(id: string, at: number, by: ChangeBy = SYSTEM_CHANGE): Promise<ApiKeyRecord | null> {
    this.dropCaches();
    try {
      return await inTransaction(this.ctx, 'revokeApiKey', async (tx) => {
        const r = await tx.row<KeyRow>(SQL.lockKey, [id]);
        if (!r) return null;
        const revocation = keyRevocation(toKey(r), at, by);
        tx.run(SQL.revokeKey, [id, revocation.key.revokedAt]);
        if (revocation.audit) audit(tx, revocation.audit, this.secrets);
        return revocation.key;
      });
    } finally {
      this.dropCaches();
    }
  }
}
