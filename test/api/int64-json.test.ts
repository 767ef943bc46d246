// int64 fields over HTTP JSON (proto3 JSON mapping): numbers or decimal strings in, numbers out; a
// value JSON cannot carry exactly is refused with the same message over HTTP and gRPC.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { api } from '../helpers/http.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';

describe('int64 fields in HTTP JSON', () => {
  let srv: InProcessServer;
  let admin: ReturnType<typeof api>;
  before(async () => {
    srv = await startInProcess();
    admin = api(srv.http, srv.adminKey);
    assert.equal((await admin.post('/api/admin/realms', { id: 'acme', name: 'Acme' })).status, 200);
  });
  after(async () => {
    closeGrpcClients();
    await srv.stop();
  });

  describe('int64 in HTTP JSON', () => {
    it('accepts a decimal string and answers a number', async () => {
      const r = await admin.post('/api/admin/realms/acme/clients', {
        clientId: 'app',
        name: 'App',
        type: 'first_party',
        redirectUris: [],
        accessTokenTtlSeconds: '600',
        refreshTokenTtlSeconds: 3600,
      });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.accessTokenTtlSeconds, 600);
      assert.equal(r.body.refreshTokenTtlSeconds, 3600);
    });

    for (const value of ['9007199254740992', '9223372036854775807', '-9223372036854775808']) {
      it(`refuses ${value} with the same message over HTTP (string and number) and gRPC, naming the field`, async () => {
        const viaString = await admin.post('/api/points/acme/consume', { userId: 'u1', amount: value });
        const viaNumber = await admin.post('/api/points/acme/consume', { userId: 'u1', amount: Number(value) });
        const viaGrpc = await grpcCall(srv.grpc, 'PointsService', 'Consume', { realmId: 'acme', userId: 'u1', amount: value }, srv.adminKey);
        assert.equal(viaString.status, 400);
        assert.equal(viaString.body.field, 'amount');
        assert.match(viaString.body.message, /^amount: integer out of range/);
        assert.equal(viaNumber.body.message, viaString.body.message);
        assert.ok(!viaGrpc.ok);
        assert.equal(viaGrpc.error.reason, 'bad_request');
        assert.equal(viaGrpc.error.message, viaString.body.message);
        assert.equal(viaGrpc.error.metadata.field, 'amount');
      });
    }

    it('refuses a fraction, as a number or a string, naming the field', async () => {
      for (const amount of [1.5, '1.5', '1e3', '']) {
        const r = await admin.post('/api/points/acme/consume', { userId: 'u1', amount });
        assert.equal(r.status, 400, String(amount));
        assert.equal(r.body.field, 'amount');
      }
    });
  });
});
