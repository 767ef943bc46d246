// AdminStore contract: realms, clients, providers and API keys, and the caches of a backend seeing
// every write — its own at once, another replica's on a later call.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authenticateApiKey, createApiKey } from '../../server/admin/api-keys.ts';
import type { ApiKeyRecord } from '../../server/admin/model.ts';
import type { ProviderPut } from '../../server/admin/store.ts';
import { badRequest } from '../../server/errors.ts';
import { clientApp, nextTurn, rejectsWith, type StoreFactory, type StoreFixture, seedRealm, T0, unique } from './contract.ts';

export function describeAdminStore(backend: string, factory: StoreFactory): void {
  describe(`${backend}: AdminStore`, () => {
    let s: StoreFixture;
    before(async () => (s = await factory()));
    after(() => s.close());

    describe('realms', () => {
      it('creates a realm once: a second realm with the same id is refused and changes nothing', async () => {
        const id = unique('realm');
        assert.equal(await s.admin.createRealm({ id, name: 'First', createdAt: T0 }), true);
        assert.equal(await s.admin.createRealm({ id, name: 'Second', createdAt: T0 + 1 }), false);
        assert.deepEqual(await s.admin.getRealm(id), { id, name: 'First', createdAt: T0 });
      });

      it('answers null for an unknown realm and lists realms in id order', async () => {
        assert.equal(await s.admin.getRealm('no-such-realm'), null);
        const ids = [unique('zz-list'), unique('aa-list'), unique('mm-list')];
        for (const id of ids) await s.admin.createRealm({ id, name: id, createdAt: T0 });
        const listed = (await s.admin.listRealms()).map((r) => r.id);
        for (const id of ids) assert.ok(listed.includes(id), id);
        assert.deepEqual(listed, [...listed].sort());
      });
    });

    describe('clients', () => {
      it('stores a client as given and refuses a second one with the same id in the realm', async () => {
        const realm = await seedRealm(s);
        const c = clientApp(realm, 'web', {
          type: 'third_party',
          redirectUris: ['https://a.example/cb?x=1', 'com.example.app:/cb'],
          ipBinding: 'subnet',
          enabled: false,
        });
        assert.equal(await s.admin.createClient(c), true);
        assert.equal(await s.admin.createClient({ ...c, name: 'other' }), false);
        assert.deepEqual(await s.admin.getClient(realm, 'web'), c);
      });

      it('keeps clients of one realm apart from another realm with the same client id', async () => {
        const a = await seedRealm(s);
        const b = await seedRealm(s);
        assert.equal(await s.admin.createClient(clientApp(a, 'app', { name: 'in a' })), true);
        assert.equal(await s.admin.createClient(clientApp(b, 'app', { name: 'in b' })), true);
        assert.equal((await s.admin.getClient(a, 'app'))!.name, 'in a');
        assert.equal((await s.admin.getClient(b, 'app'))!.name, 'in b');
        assert.equal(await s.admin.getClient(a, 'nope'), null);
      });

      it('lists the clients of one realm in client id order', async () => {
        const realm = await seedRealm(s);
        for (const id of ['zeta', 'alpha', 'mid']) await s.admin.createClient(clientApp(realm, id));
        await s.admin.createClient(clientApp(await seedRealm(s), 'elsewhere'));
        assert.deepEqual(
          (await s.admin.listClients(realm)).map((c) => c.clientId),
          ['alpha', 'mid', 'zeta'],
        );
      });

      it('applies a patch over the stored record after the check saw the merged record', async () => {
        const realm = await seedRealm(s);
        const c = clientApp(realm, 'app');
        await s.admin.createClient(c);
        const seen: unknown[] = [];
        const updated = await s.admin.updateClient(
          realm,
          'app',
          { name: 'Renamed', ipBinding: 'exact', redirectUris: ['https://b.example/cb'] },
          (m) => void seen.push(m),
          T0 + 1,
          { actor: { type: 'api_key', id: 'key_1' }, requestId: 'req_1' },
        );
        const want = { ...c, name: 'Renamed', ipBinding: 'exact', redirectUris: ['https://b.example/cb'] };
        assert.deepEqual(updated, want);
        assert.deepEqual(seen, [want]);
        assert.deepEqual(await s.admin.getClient(realm, 'app'), want);
        const [record] = await s.records.audit(realm, { action: 'client.update', limit: 10 });
        assert.deepEqual(
          { ...record, auditId: undefined },
          {
            auditId: undefined,
            at: T0 + 1,
            realmId: realm,
            actor: { type: 'api_key', id: 'key_1' },
            action: 'client.update',
            targetId: 'app',
            changes: {
              name: { before: c.name, after: 'Renamed' },
              ipBinding: { before: c.ipBinding, after: 'exact' },
              redirectUris: { before: c.redirectUris, after: ['https://b.example/cb'] },
            },
            requestId: 'req_1',
          },
        );
      });

      it('changes nothing when the check throws, and answers null for an unknown client', async () => {
        const realm = await seedRealm(s);
        const c = clientApp(realm, 'app');
        await s.admin.createClient(c);
        await rejectsWith(
          s.admin.updateClient(
            realm,
            'app',
            { enabled: false },
            () => {
              throw badRequest('refused');
            },
            T0,
          ),
          'bad_request',
        );
        assert.deepEqual(await s.admin.getClient(realm, 'app'), c);
        assert.deepEqual(await s.records.audit(realm, { action: 'client.update', limit: 10 }), []);
        assert.equal(await s.admin.updateClient(realm, 'nope', { enabled: false }, () => {}, T0), null);
      });
    });

    describe('providers', () => {
      const put = (realmId: string, over: Partial<ProviderPut> = {}): ProviderPut => ({
        realmId,
        provider: 'apple',
        clientId: 'com.example.app',
        enabled: true,
        additionalClientIds: ['com.example.other'],
        updatedAt: T0,
        ...over,
      });

      it('creates a provider with empty defaults for what the put leaves out', async () => {
        const realm = await seedRealm(s);
        const p = await s.admin.putProvider(put(realm));
        assert.deepEqual(p, {
          realmId: realm,
          provider: 'apple',
          clientId: 'com.example.app',
          enabled: true,
          clientSecret: null,
          additionalClientIds: ['com.example.other'],
          teamId: '',
          keyId: '',
          privateKey: null,
          webClientId: '',
          requireNonce: false,
          updatedAt: T0,
        });
        assert.deepEqual(await s.admin.getProvider(realm, 'apple'), p);
        assert.equal(await s.admin.getProvider(realm, 'google'), null);
      });

      it('keeps a stored secret, key and web settings the update leaves undefined, and removes what it sets to null', async () => {
        const realm = await seedRealm(s);
        await s.admin.putProvider(
          put(realm, { clientSecret: 's3cret', teamId: 'TEAM', keyId: 'KEY', privateKey: 'PEM', webClientId: 'com.example.web', requireNonce: true }),
        );
        const kept = await s.admin.putProvider(put(realm, { clientId: 'com.example.new', enabled: false, additionalClientIds: [], updatedAt: T0 + 1 }));
        assert.deepEqual(kept, {
          realmId: realm,
          provider: 'apple',
          clientId: 'com.example.new',
          enabled: false,
          clientSecret: 's3cret',
          additionalClientIds: [],
          teamId: 'TEAM',
          keyId: 'KEY',
          privateKey: 'PEM',
          webClientId: 'com.example.web',
          requireNonce: true,
          updatedAt: T0 + 1,
        });
        const removed = await s.admin.putProvider(put(realm, { clientSecret: null, privateKey: null, updatedAt: T0 + 2 }));
        assert.equal(removed.clientSecret, null);
        assert.equal(removed.privateKey, null);
        assert.equal(removed.teamId, 'TEAM');
        assert.deepEqual(await s.admin.getProvider(realm, 'apple'), removed);
      });

      it('lists the providers of one realm in provider order', async () => {
        const realm = await seedRealm(s);
        await s.admin.putProvider(put(realm, { provider: 'google', clientId: 'g' }));
        await s.admin.putProvider(put(realm, { provider: 'apple' }));
        assert.deepEqual(
          (await s.admin.listProviders(realm)).map((p) => p.provider),
          ['apple', 'google'],
        );
        assert.deepEqual(await s.admin.listProviders(await seedRealm(s)), []);
      });
    });

    describe('API keys', () => {
      const record = (over: Partial<ApiKeyRecord> = {}): ApiKeyRecord => {
        const id = unique('key');
        return { id, keyHash: `hash-${id}`, realm: '*', permissions: ['points.view', 'points.consume'], name: 'n', createdAt: T0, revokedAt: null, ...over };
      };

      it('finds a key by its hash and by its id, as stored', async () => {
        const k = record({ realm: 'some-realm' });
        await s.admin.createApiKey(k);
        assert.deepEqual(await s.admin.findApiKeyByHash(k.keyHash), k);
        assert.deepEqual(await s.admin.getApiKey(k.id), k);
        assert.equal(await s.admin.findApiKeyByHash('no-such-hash'), null);
        assert.equal(await s.admin.getApiKey('no-such-id'), null);
      });

      it('authenticates a created key by its secret (stored only as a hash) until it is revoked', async () => {
        const { record: rec, key } = await createApiKey(s.admin, { realm: '*', permissions: ['realms.manage'], name: 'auth' }, T0);
        assert.notEqual(rec.keyHash, key);
        assert.deepEqual(await authenticateApiKey(s.admin, key), { kind: 'api_key', keyId: rec.id, realm: '*', permissions: ['realms.manage'] });
        const revoked = await s.admin.revokeApiKey(rec.id, T0 + 5);
        assert.equal(revoked!.revokedAt, T0 + 5);
        assert.equal(await authenticateApiKey(s.admin, key), null, 'the cached key was dropped by the revocation');
      });

      it('keeps the first revocation time when a key is revoked again, and answers null for an unknown key', async () => {
        const k = record();
        await s.admin.createApiKey(k);
        assert.equal((await s.admin.revokeApiKey(k.id, T0 + 10))!.revokedAt, T0 + 10);
        assert.equal((await s.admin.revokeApiKey(k.id, T0 + 20))!.revokedAt, T0 + 10);
        assert.equal((await s.admin.getApiKey(k.id))!.revokedAt, T0 + 10);
        assert.equal(await s.admin.revokeApiKey('no-such-id', T0), null);
      });

      it('lists keys in creation order', async () => {
        const later = record({ createdAt: T0 + 2 * 1000 });
        const earlier = record({ createdAt: T0 + 1000 });
        await s.admin.createApiKey(later);
        await s.admin.createApiKey(earlier);
        const ids = (await s.admin.listApiKeys()).map((k) => k.id);
        assert.ok(ids.indexOf(earlier.id) < ids.indexOf(later.id), ids.join());
      });
    });

    describe('caches see writes', () => {
      it('a read right after its own store wrote a client, provider or key sees the write', async () => {
        const realm = await seedRealm(s);
        await s.admin.createClient(clientApp(realm, 'app'));
        assert.equal((await s.admin.getClient(realm, 'app'))!.enabled, true); // now cached, if the backend caches
        await s.admin.updateClient(realm, 'app', { enabled: false }, () => {}, T0);
        assert.equal((await s.admin.getClient(realm, 'app'))!.enabled, false);

        await s.admin.putProvider({ realmId: realm, provider: 'google', clientId: 'g1', enabled: true, additionalClientIds: [], updatedAt: T0 });
        assert.equal((await s.admin.getProvider(realm, 'google'))!.clientId, 'g1');
        await s.admin.putProvider({ realmId: realm, provider: 'google', clientId: 'g2', enabled: false, additionalClientIds: [], updatedAt: T0 + 1 });
        assert.deepEqual(await s.admin.getProvider(realm, 'google').then((p) => [p!.clientId, p!.enabled]), ['g2', false]);
      });

      it('a client, provider or key another replica changed is seen on a later call', async () => {
        const realm = await seedRealm(s);
        const peer = await s.peer();
        await s.admin.createClient(clientApp(realm, 'app'));
        await s.admin.putProvider({ realmId: realm, provider: 'apple', clientId: 'a1', enabled: true, additionalClientIds: [], updatedAt: T0 });
        const { record: rec, key } = await createApiKey(s.admin, { realm, permissions: ['points.view'], name: 'replica' }, T0);
        // Read here first, so a caching backend holds all three.
        assert.equal((await s.admin.getClient(realm, 'app'))!.enabled, true);
        assert.equal((await s.admin.getProvider(realm, 'apple'))!.enabled, true);
        assert.notEqual(await authenticateApiKey(s.admin, key), null);

        await peer.admin.updateClient(realm, 'app', { enabled: false }, () => {}, T0);
        await peer.admin.putProvider({ realmId: realm, provider: 'apple', clientId: 'a1', enabled: false, additionalClientIds: [], updatedAt: T0 + 1 });
        await peer.admin.revokeApiKey(rec.id, T0 + 1);
        await nextTurn();
        assert.equal((await s.admin.getClient(realm, 'app'))!.enabled, false);
        assert.equal((await s.admin.getProvider(realm, 'apple'))!.enabled, false);
        assert.equal(await authenticateApiKey(s.admin, key), null);
      });

      it('a client, provider or key another replica created is found on a later call', async () => {
        const realm = await seedRealm(s);
        const peer = await s.peer();
        assert.equal(await s.admin.getClient(realm, 'late'), null);
        assert.equal(await s.admin.getProvider(realm, 'google'), null);
        await peer.admin.createClient(clientApp(realm, 'late'));
        await peer.admin.putProvider({ realmId: realm, provider: 'google', clientId: 'g', enabled: true, additionalClientIds: [], updatedAt: T0 });
        const { key } = await createApiKey(peer.admin, { realm, permissions: ['points.view'], name: 'new' }, T0);
        await nextTurn();
        assert.notEqual(await s.admin.getClient(realm, 'late'), null);
        assert.notEqual(await s.admin.getProvider(realm, 'google'), null);
        assert.notEqual(await authenticateApiKey(s.admin, key), null);
      });
    });
  });
}
