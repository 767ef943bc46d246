// The same admin operations over HTTP and gRPC, the contract's errors on both transports,
// API key permissions and realm binding, and the provider read that never shows a secret.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { status } from '@grpc/grpc-js';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { api, http } from '../helpers/http.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';
import { withStores } from '../helpers/stores.ts';

describe('admin operations on both transports', () => {
  let srv: InProcessServer;
  before(async () => {
    srv = await startInProcess();
  });
  after(async () => {
    closeGrpcClients();
    await srv.stop();
  });

  const expectHttpError = (res: { status: number; body: any; headers: Headers }, httpStatus: number, code: string) => {
    assert.equal(res.status, httpStatus, JSON.stringify(res.body));
    assert.equal(res.body.error, code);
    assert.equal(res.body.status, httpStatus);
    assert.equal(typeof res.body.message, 'string');
    assert.match(res.body.requestId, /^[A-Za-z0-9._-]+$/);
    assert.equal(res.headers.get('x-request-id'), res.body.requestId);
  };

  describe('admin operations give the same result over HTTP and gRPC', () => {
    it('creates clients both ways and lists them identically', async () => {
      const h = api(srv.http, srv.adminKey);
      assert.equal((await h.post('/api/admin/realms', { id: 'same', name: 'Same' })).status, 200);
      const overHttp = await h.post('/api/admin/realms/same/clients', {
        clientId: 'web',
        name: 'Web',
        type: 'third_party',
        redirectUris: ['https://app.example/cb'],
      });
      assert.equal(overHttp.status, 200);
      const overGrpc = await grpcCall(
        srv.grpc,
        'AdminService',
        'CreateClient',
        { realmId: 'same', clientId: 'ios', name: 'iOS', type: 'first_party', redirectUris: [] },
        srv.adminKey,
      );
      assert.ok(overGrpc.ok);
      assert.deepEqual(
        { ...overHttp.body, clientId: 'x', name: 'x', type: 'x', redirectUris: [], createdAt: 0 },
        { ...overGrpc.value, clientId: 'x', name: 'x', type: 'x', redirectUris: [], createdAt: 0, realmId: 'same' },
      );
      const list = await h.get('/api/admin/realms/same/clients');
      const glist = await grpcCall(srv.grpc, 'AdminService', 'ListClients', { realmId: 'same' }, srv.adminKey);
      assert.ok(glist.ok);
      assert.deepEqual(
        list.body.clients.map((c: any) => c.clientId),
        ['ios', 'web'],
      );
      assert.deepEqual(
        glist.value.clients.map((c: any) => c.clientId),
        ['ios', 'web'],
      );
      assert.equal(list.body.clients[0].accessTokenTtlSeconds, 900);
      assert.equal(glist.value.clients[0].accessTokenTtlSeconds, 900);
    });

    it('patches only the fields given', async () => {
      const h = api(srv.http, srv.adminKey);
      const res = await h.patch('/api/admin/realms/same/clients/web', { ipBinding: 'subnet' });
      assert.equal(res.status, 200);
      assert.equal(res.body.ipBinding, 'subnet');
      assert.deepEqual(res.body.redirectUris, ['https://app.example/cb']);
      assert.equal(res.body.name, 'Web');
      const g = await grpcCall(
        srv.grpc,
        'AdminService',
        'UpdateClient',
        { realmId: 'same', clientId: 'web', redirectUris: { values: ['https://app.example/cb2'] } },
        srv.adminKey,
      );
      assert.ok(g.ok);
      assert.deepEqual(g.value.redirectUris, ['https://app.example/cb2']);
      assert.equal(g.value.ipBinding, 'subnet');
    });

    it('never returns a provider secret, on any read', async () => {
      const h = api(srv.http, srv.adminKey);
      const secret = 'very-secret-value-123';
      const put = await h.put('/api/admin/realms/same/providers/apple', { clientId: 'com.same.app', clientSecret: secret });
      assert.equal(put.status, 200);
      assert.equal(put.body.hasClientSecret, true);
      const reads = [put.text, (await h.get('/api/admin/realms/same/providers/apple')).text, (await h.get('/api/admin/realms/same/providers')).text];
      const g = await grpcCall(srv.grpc, 'AdminService', 'GetProvider', { realmId: 'same', provider: 'apple' }, srv.adminKey);
      assert.ok(g.ok);
      reads.push(JSON.stringify(g.value));
      for (const r of reads) {
        assert.ok(!r.includes(secret), r);
        assert.ok(!/clientSecret"/.test(r), r);
      }
      // A later PUT without the secret keeps it stored.
      const again = await h.put('/api/admin/realms/same/providers/apple', { clientId: 'com.same.app', enabled: false });
      assert.equal(again.body.hasClientSecret, true);
      assert.equal(again.body.enabled, false);
      assert.ok(!srv.logs().includes(secret));
    });
  });

  describe('errors carry the contract body on HTTP and ErrorInfo on gRPC', () => {
    const cases: Array<{ name: string; raw: string; contentType?: string; field?: string }> = [
      { name: 'malformed JSON', raw: '{"id": "x",' },
      { name: 'a wrong type', raw: '{"id": 5, "name": "x"}', field: 'id' },
      { name: 'an unknown field', raw: '{"id": "x", "name": "x", "colour": "red"}', field: 'colour' },
      { name: 'a missing required field', raw: '{"id": "x"}', field: 'name' },
      { name: 'a JSON array instead of an object', raw: '[1,2]' },
    ];
    for (const c of cases) {
      it(`answers 400 bad_request for ${c.name}`, async () => {
        const res = await http(srv.http, 'POST', '/api/admin/realms', { raw: c.raw, key: srv.adminKey, headers: { 'content-type': 'application/json' } });
        expectHttpError(res, 400, 'bad_request');
        if (c.field) {
          assert.equal(res.body.field, c.field);
          assert.match(res.body.message, new RegExp(c.field));
        }
      });
    }

    it('answers 400 naming an integer field that is out of range or fractional', async () => {
      const big = await http(srv.http, 'POST', '/api/admin/realms/same/clients', {
        raw: '{"clientId":"c1","name":"n","type":"first_party","accessTokenTtlSeconds": 9007199254740993}',
        key: srv.adminKey,
        headers: { 'content-type': 'application/json' },
      });
      expectHttpError(big, 400, 'bad_request');
      assert.equal(big.body.field, 'accessTokenTtlSeconds');
      const frac = await api(srv.http, srv.adminKey).post('/api/admin/realms/same/clients', {
        clientId: 'c1',
        name: 'n',
        type: 'first_party',
        accessTokenTtlSeconds: 1.5,
      });
      expectHttpError(frac, 400, 'bad_request');
      assert.equal(frac.body.field, 'accessTokenTtlSeconds');
    });

    it('answers 413 payload_too_large for a body over 64 KiB', async () => {
      const res = await http(srv.http, 'POST', '/api/admin/realms', {
        raw: JSON.stringify({ id: 'x', name: 'n'.repeat(70_000) }),
        key: srv.adminKey,
        headers: { 'content-type': 'application/json' },
      });
      expectHttpError(res, 413, 'payload_too_large');
    });

    it('answers 401 without a key or with a wrong one, on both transports', async () => {
      expectHttpError(await http(srv.http, 'GET', '/api/admin/realms'), 401, 'unauthorized');
      expectHttpError(await http(srv.http, 'GET', '/api/admin/realms', { key: 'ghk_nope' }), 401, 'unauthorized');
      expectHttpError(await http(srv.http, 'GET', '/api/admin/realms', { headers: { 'x-api-key': 'ghk_nope' } }), 401, 'unauthorized');
      const g = await grpcCall(srv.grpc, 'AdminService', 'ListRealms', {});
      assert.ok(!g.ok);
      assert.equal(g.error.code, status.UNAUTHENTICATED);
      assert.equal(g.error.reason, 'unauthorized');
      assert.match(g.error.metadata.requestId!, /^req_/);
    });

    it('answers 403 for a key without the permission or bound to another realm', async () => {
      const h = api(srv.http, srv.adminKey);
      await h.post('/api/admin/realms', { id: 'other', name: 'Other' });
      const viewer = await h.post('/api/admin/api-keys', { realm: 'same', permissions: ['settings.view'], name: 'viewer' });
      assert.equal(viewer.status, 200);
      assert.match(viewer.body.key, /^ghk_/);
      const clientsKey = (await h.post('/api/admin/api-keys', { realm: 'same', permissions: ['clients.manage'] })).body.key;
      expectHttpError(await http(srv.http, 'GET', '/api/admin/realms/same/clients', { key: viewer.body.key }), 403, 'forbidden');
      assert.equal((await http(srv.http, 'GET', '/api/admin/realms/same/clients', { key: clientsKey })).status, 200);
      expectHttpError(await http(srv.http, 'GET', '/api/admin/realms/other/clients', { key: clientsKey }), 403, 'forbidden');
      const g = await grpcCall(srv.grpc, 'AdminService', 'ListClients', { realmId: 'other' }, clientsKey);
      assert.ok(!g.ok);
      assert.equal(g.error.code, status.PERMISSION_DENIED);
      assert.equal(g.error.reason, 'forbidden');
      // A realm-bound key cannot mint a key for all realms or with permissions it lacks.
      const keysKey = (await h.post('/api/admin/api-keys', { realm: 'same', permissions: ['api_keys.manage'] })).body.key;
      expectHttpError(
        await http(srv.http, 'POST', '/api/admin/api-keys', { key: keysKey, body: { realm: '*', permissions: ['api_keys.manage'] } }),
        403,
        'forbidden',
      );
      expectHttpError(
        await http(srv.http, 'POST', '/api/admin/api-keys', { key: keysKey, body: { realm: 'same', permissions: ['points.manage'] } }),
        403,
        'forbidden',
      );
    });

    it('stops honouring a revoked key', async () => {
      const h = api(srv.http, srv.adminKey);
      const k = (await h.post('/api/admin/api-keys', { realm: '*', permissions: ['realms.manage'] })).body;
      assert.equal((await http(srv.http, 'GET', '/api/admin/realms', { key: k.key })).status, 200);
      assert.equal((await h.delete(`/api/admin/api-keys/${k.id}`)).status, 200);
      expectHttpError(await http(srv.http, 'GET', '/api/admin/realms', { key: k.key }), 401, 'unauthorized');
      const listed = await h.get('/api/admin/api-keys');
      assert.ok(!listed.text.includes(k.key), 'a key listing never shows the key');
    });

    it('stops honouring a key revoked by another process writing the database (no stale cache)', async () => {
      const h = api(srv.http, srv.adminKey);
      const k = (await h.post('/api/admin/api-keys', { realm: '*', permissions: ['realms.manage'] })).body;
      for (let i = 0; i < 3; i++) assert.equal((await http(srv.http, 'GET', '/api/admin/realms', { key: k.key })).status, 200);
      // What an operator's script does with the server running: its own connection, its own commit.
      assert.ok(await withStores(srv.dbPath, (other) => other.admin.revokeApiKey(k.id, Date.now())));
      expectHttpError(await http(srv.http, 'GET', '/api/admin/realms', { key: k.key }), 401, 'unauthorized');
      const g = await grpcCall(srv.grpc, 'AdminService', 'ListRealms', {}, k.key);
      assert.ok(!g.ok);
      assert.equal(g.error.code, status.UNAUTHENTICATED);
    });

    it('answers 404 for an unknown realm, client or route, and 405 for a wrong method', async () => {
      const h = api(srv.http, srv.adminKey);
      expectHttpError(await h.get('/api/admin/realms/nope'), 404, 'not_found');
      expectHttpError(await h.get('/api/admin/realms/same/clients/nope'), 404, 'not_found');
      expectHttpError(await h.get('/api/nothing/here'), 404, 'not_found');
      const wrong = await h.delete('/api/admin/realms');
      expectHttpError(wrong, 405, 'method_not_allowed');
      assert.match(wrong.headers.get('allow')!, /GET/);
      const g = await grpcCall(srv.grpc, 'AdminService', 'GetRealm', { realmId: 'nope' }, srv.adminKey);
      assert.ok(!g.ok);
      assert.equal(g.error.code, status.NOT_FOUND);
      assert.equal(g.error.reason, 'not_found');
    });

    it('maps a conflict to 409 and FAILED_PRECONDITION', async () => {
      const h = api(srv.http, srv.adminKey);
      expectHttpError(await h.post('/api/admin/realms', { id: 'same', name: 'Again' }), 409, 'conflict');
      const g = await grpcCall(srv.grpc, 'AdminService', 'CreateRealm', { id: 'same', name: 'Again' }, srv.adminKey);
      assert.ok(!g.ok);
      assert.equal(g.error.code, status.FAILED_PRECONDITION);
      assert.equal(g.error.reason, 'conflict');
    });

    it('gives gRPC the INVALID_ARGUMENT status and the field for a validation error', async () => {
      const g = await grpcCall(srv.grpc, 'AdminService', 'CreateClient', { realmId: 'same', clientId: 'bad', name: 'x', type: 'sideways' }, srv.adminKey);
      assert.ok(!g.ok);
      assert.equal(g.error.code, status.INVALID_ARGUMENT);
      assert.equal(g.error.reason, 'bad_request');
      assert.equal(g.error.metadata.field, 'type');
    });

    it('rejects a redirect URI with a fragment or plain http to a public host', async () => {
      const h = api(srv.http, srv.adminKey);
      for (const uri of ['https://a.example/cb#x', 'http://a.example/cb', 'not a uri']) {
        const res = await h.post('/api/admin/realms/same/clients', { clientId: 'bad2', name: 'x', type: 'third_party', redirectUris: [uri] });
        expectHttpError(res, 400, 'bad_request');
        assert.equal(res.body.field, 'redirectUris[0]');
      }
    });
  });
});
