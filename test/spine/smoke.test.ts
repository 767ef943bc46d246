import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnServer, type SpawnedServer } from '../helpers/server.ts';
import { api } from '../helpers/http.ts';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';

describe('the admin API over both transports', () => {
  let srv: SpawnedServer;
  before(async () => {
    srv = await spawnServer();
  });
  after(async () => {
    closeGrpcClients();
    await srv.stop();
  });

  it('creates a realm over HTTP and reads the same realm over gRPC', async () => {
    const h = api(srv.http, srv.adminKey);
    const created = await h.post('/api/admin/realms', { id: 'acme', name: 'Acme' });
    assert.equal(created.status, 200);
    const got = await grpcCall(srv.grpc, 'AdminService', 'GetRealm', { realmId: 'acme' }, srv.adminKey);
    assert.ok(got.ok);
    assert.equal(got.value.name, 'Acme');
  });
});
