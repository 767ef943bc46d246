// GET /api/admin/whoami and its gRPC twin: any valid key learns its own id, realm and permissions
// (what the admin console disables), and nothing without a valid key.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { api } from '../helpers/http.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';

describe('whoami over HTTP and gRPC', () => {
  let srv: InProcessServer;

  before(async () => {
    srv = await startInProcess();
    assert.equal((await api(srv.http, srv.adminKey).post('/api/admin/realms', { id: 'shop', name: 'Shop' })).status, 200);
  });

  after(async () => {
    closeGrpcClients();
    await srv.stop();
  });

  describe('whoami', () => {
    it('answers a realm-bound key with one permission with its own id, realm and permissions', async () => {
      const created = await api(srv.http, srv.adminKey).post('/api/admin/api-keys', { realm: 'shop', permissions: ['points.view'], name: 'viewer' });
      assert.equal(created.status, 200, created.text);
      const res = await api(srv.http).get('/api/admin/whoami', undefined, { headers: { 'x-api-key': created.body.key } });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { keyId: created.body.id, realm: 'shop', permissions: ['points.view'] });

      const grpc = await grpcCall(srv.grpc, 'AdminService', 'WhoAmI', {}, created.body.key);
      assert.ok(grpc.ok);
      assert.deepEqual(grpc.value, { keyId: created.body.id, realm: 'shop', permissions: ['points.view'] });
    });

    it('answers the bootstrap key with every realm and permission', async () => {
      const res = await api(srv.http, srv.adminKey).get('/api/admin/whoami');
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.realm, '*');
      assert.deepEqual(res.body.permissions, ['*']);
    });

    it('refuses a missing, unknown or revoked key with 401', async () => {
      const none = await api(srv.http).get('/api/admin/whoami');
      assert.equal(none.status, 401);
      assert.equal(none.body.error, 'unauthorized');
      const unknown = await api(srv.http, 'gh_not_a_key').get('/api/admin/whoami');
      assert.equal(unknown.status, 401);

      const admin = api(srv.http, srv.adminKey);
      const created = await admin.post('/api/admin/api-keys', { realm: 'shop', permissions: ['points.view'], name: 'gone' });
      assert.equal((await admin.delete(`/api/admin/api-keys/${created.body.id}`)).status, 200);
      const revoked = await api(srv.http, created.body.key).get('/api/admin/whoami');
      assert.equal(revoked.status, 401);
      assert.equal(revoked.body.error, 'unauthorized');
    });
  });
});
