import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { api } from '../helpers/http.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';

describe('the admin API over both transports', () => {
  let srv: InProcessServer;
  before(async () => {
    srv = await startInProcess();
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
