// AdminService: realms, clients, provider configurations and API keys. Thin handlers: validate,
// call the store, shape the answer. Secrets never leave through a read.
import { changeBy } from '../audit/actor.ts';
import { badRequest, conflict, forbidden, notFound } from '../errors.ts';
import type { Clock } from '../lib/clock.ts';
import { toTimestamp, toTimestampOrNull } from '../lib/timestamp.ts';
import { type ApiKeyPrincipal, type CallContext, keyCoversRealm } from '../rpc/context.ts';
import type { ServiceImpl } from '../rpc/types.ts';
import type { UserAdminHandlers } from '../users/service.ts';
import type { WebhookHandlers } from '../webhooks/service.ts';
import { createApiKey, keyOutsideCaller } from './api-keys.ts';
import {
  type ApiKeyRecord,
  type ClientApp,
  type ProviderConfig,
  type Realm,
  validateClientType,
  validateIpBinding,
  validateName,
  validateProvider,
  validateRedirectUris,
  validateTtl,
} from './model.ts';
import { type AdminStore, type ClientPatch, requireRealm } from './store.ts';

const ACCESS_TTL = { min: 60, max: 86_400, default: 900 };
const REFRESH_TTL = { min: 300, max: 31_536_000, default: 2_592_000 };

export interface AdminDeps {
  store: AdminStore;
  clock: Clock;
  /** The identity provider kinds a realm may configure (auth/providers/registry.ts). */
  providers: readonly string[];
}

export const realmView = (r: Realm) => ({ id: r.id, name: r.name, createdAt: toTimestamp(r.createdAt) });

export const clientView = (c: ClientApp) => ({ ...c, createdAt: toTimestamp(c.createdAt) });

/** The provider read: whether secrets are stored, never the secrets. */
export const providerView = (p: ProviderConfig) => ({
  realmId: p.realmId,
  provider: p.provider,
  clientId: p.clientId,
  enabled: p.enabled,
  hasClientSecret: p.clientSecret !== null && p.clientSecret !== '',
  additionalClientIds: p.additionalClientIds,
  teamId: p.teamId,
  keyId: p.keyId,
  hasPrivateKey: p.privateKey !== null && p.privateKey !== '',
  webClientId: p.webClientId,
  requireNonce: p.requireNonce,
  updatedAt: toTimestamp(p.updatedAt),
});

const keyView = (k: ApiKeyRecord) => ({
  id: k.id,
  realm: k.realm,
  permissions: k.permissions,
  name: k.name,
  createdAt: toTimestamp(k.createdAt),
  revokedAt: toTimestampOrNull(k.revokedAt),
});

function apiKeyOf(ctx: CallContext): ApiKeyPrincipal {
  if (ctx.principal?.kind !== 'api_key') throw forbidden();
  return ctx.principal;
}

/** The AdminService RPCs except the account ones (users/service.ts), the webhooks'
 *  (webhooks/service.ts) and the signing keys' (auth/signing-key-admin.ts). */
export type AdminHandlers = Omit<ServiceImpl<'gatehouse.v1.AdminService'>, keyof UserAdminHandlers | keyof WebhookHandlers | 'rotateSigningKey'>;

export function createAdminService({ store, clock, providers }: AdminDeps): AdminHandlers {
  return {
    async createRealm(req, ctx) {
      validateName(req.name);
      const realm: Realm = { id: req.id, name: req.name.trim(), createdAt: clock.now() };
      if (!(await store.createRealm(realm, changeBy(ctx)))) throw conflict(`Realm ${req.id} exists already`);
      return realmView(realm);
    },

    async listRealms(_req, ctx) {
      const key = apiKeyOf(ctx);
      const realms = (await store.listRealms()).filter((r) => keyCoversRealm(key, r.id));
      return { realms: realms.map(realmView) };
    },

    async getRealm(req) {
      return realmView(await requireRealm(store, req.realmId));
    },

    async createClient(req, ctx) {
      await requireRealm(store, req.realmId);
      validateName(req.name);
      validateClientType(req.type);
      const ipBinding = req.ipBinding ?? 'off';
      validateIpBinding(ipBinding);
      validateRedirectUris(req.redirectUris);
      const client: ClientApp = {
        realmId: req.realmId,
        clientId: req.clientId,
        name: req.name.trim(),
        type: req.type,
        redirectUris: req.redirectUris,
        ipBinding,
        enabled: req.enabled ?? true,
        accessTokenTtlSeconds: req.accessTokenTtlSeconds ?? ACCESS_TTL.default,
        refreshTokenTtlSeconds: req.refreshTokenTtlSeconds ?? REFRESH_TTL.default,
        createdAt: clock.now(),
      };
      checkClient(client);
      if (!(await store.createClient(client, changeBy(ctx)))) throw conflict(`Client ${req.clientId} exists already in realm ${req.realmId}`);
      return clientView(client);
    },

    async listClients(req) {
      await requireRealm(store, req.realmId);
      return { clients: (await store.listClients(req.realmId)).map(clientView) };
    },

    async getClient(req) {
      const c = await store.getClient(req.realmId, req.clientId);
      if (!c) throw notFound(`Client ${req.clientId} not found in realm ${req.realmId}`);
      return clientView(c);
    },

    async updateClient(req, ctx) {
      const patch: ClientPatch = {};
      if (req.name !== undefined) patch.name = req.name.trim();
      if (req.type !== undefined) patch.type = req.type as ClientApp['type'];
      if (req.redirectUris) patch.redirectUris = req.redirectUris.values;
      if (req.ipBinding !== undefined) patch.ipBinding = req.ipBinding as ClientApp['ipBinding'];
      if (req.enabled !== undefined) patch.enabled = req.enabled;
      if (req.accessTokenTtlSeconds !== undefined) patch.accessTokenTtlSeconds = req.accessTokenTtlSeconds;
      if (req.refreshTokenTtlSeconds !== undefined) patch.refreshTokenTtlSeconds = req.refreshTokenTtlSeconds;
      const updated = await store.updateClient(req.realmId, req.clientId, patch, checkClient, clock.now(), changeBy(ctx));
      if (!updated) throw notFound(`Client ${req.clientId} not found in realm ${req.realmId}`);
      return clientView(updated);
    },

    async putProvider(req, ctx) {
      validateProvider(req.provider, providers);
      await requireRealm(store, req.realmId);
      if (req.clientId.trim() === '') throw badRequest('clientId: required', { field: 'clientId' });
      req.additionalClientIds.forEach((id, i) => {
        if (id.trim() === '') throw badRequest(`additionalClientIds[${i}]: must not be empty`, { field: `additionalClientIds[${i}]` });
      });
      if (req.privateKey && !/-----BEGIN PRIVATE KEY-----[\s\S]+-----END PRIVATE KEY-----/.test(req.privateKey)) {
        throw badRequest('privateKey: expected a PKCS#8 PEM (the .p8 file Apple issues)', { field: 'privateKey' });
      }
      const saved = await store.putProvider(
        {
          realmId: req.realmId,
          provider: req.provider,
          clientId: req.clientId.trim(),
          enabled: req.enabled ?? true,
          additionalClientIds: req.additionalClientIds,
          clientSecret: req.clientSecret === undefined ? undefined : req.clientSecret || null,
          teamId: req.teamId,
          keyId: req.keyId,
          privateKey: req.privateKey === undefined ? undefined : req.privateKey || null,
          webClientId: req.webClientId?.trim(),
          requireNonce: req.requireNonce,
          updatedAt: clock.now(),
        },
        changeBy(ctx),
      );
      return providerView(saved);
    },

    async getProvider(req) {
      validateProvider(req.provider, providers);
      const p = await store.getProvider(req.realmId, req.provider);
      if (!p) throw notFound(`Provider ${req.provider} is not configured in realm ${req.realmId}`);
      return providerView(p);
    },

    async listProviders(req) {
      await requireRealm(store, req.realmId);
      return { providers: (await store.listProviders(req.realmId)).map(providerView) };
    },

    async createApiKey(req, ctx) {
      const caller = apiKeyOf(ctx);
      if (!req.realm) throw badRequest('realm: required (a realm id or "*")', { field: 'realm' });
      // A key can only hand out what it has itself: its realm and a subset of its permissions.
      const outside = keyOutsideCaller(caller, req);
      if (outside) throw forbidden(`cannot create this key: ${outside}`);
      if (req.realm !== '*') await requireRealm(store, req.realm);
      const { record, key } = await createApiKey(store, req, clock.now(), changeBy(ctx));
      return { id: record.id, key, realm: record.realm, permissions: record.permissions, name: record.name };
    },

    async listApiKeys(_req, ctx) {
      const caller = apiKeyOf(ctx);
      const keys = (await store.listApiKeys()).filter((k) => caller.realm === '*' || k.realm === caller.realm);
      return { keys: keys.map(keyView) };
    },

    async revokeApiKey(req, ctx) {
      const caller = apiKeyOf(ctx);
      const existing = await store.getApiKey(req.keyId);
      if (!existing) throw notFound(`API key ${req.keyId} not found`);
      // The same bound as creating: revoking a more privileged key would take away what the caller
      // could never have handed out.
      const outside = keyOutsideCaller(caller, existing);
      if (outside) throw forbidden(`cannot revoke ${req.keyId}: ${outside}`);
      const revoked = await store.revokeApiKey(req.keyId, clock.now(), changeBy(ctx));
      return keyView(revoked!);
    },

    async whoAmI(_req, ctx) {
      const caller = apiKeyOf(ctx);
      return { keyId: caller.keyId, realm: caller.realm, permissions: caller.permissions };
    },
  };
}

function checkClient(c: ClientApp): void {
  validateName(c.name);
  validateClientType(c.type);
  validateIpBinding(c.ipBinding);
  validateRedirectUris(c.redirectUris);
  validateTtl(c.accessTokenTtlSeconds, 'accessTokenTtlSeconds', ACCESS_TTL.min, ACCESS_TTL.max);
  validateTtl(c.refreshTokenTtlSeconds, 'refreshTokenTtlSeconds', REFRESH_TTL.min, REFRESH_TTL.max);
  if (c.type === 'third_party' && c.redirectUris.length === 0) {
    throw badRequest('redirectUris: a third-party client needs at least one', { field: 'redirectUris' });
  }
}
