// What both transports refuse before any handler or credential check runs, as a 400 naming the
// field: a NUL character in any string (a path segment, a query parameter, a body field, a gRPC
// field; PostgreSQL's text cannot hold one), a missing REQUIRED field, a broken (limits) of the
// protos, and a query parameter that names no field. Refused before any store is asked, so on
// every backend alike.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { status } from '@grpc/grpc-js';
import { closeGrpcClients, type GrpcResult, grpcCall } from '../helpers/grpc.ts';
import { api, type HttpResult, http } from '../helpers/http.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';
import { type Api, createRealm, createUser } from '../points/helpers.ts';

describe('what both transports refuse before a handler runs', () => {
  function refused(r: HttpResult, field: string, message?: RegExp): void {
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.error, 'bad_request', r.text);
    assert.equal(r.body.field, field, r.text);
    assert.ok(String(r.body.message).startsWith(`${field}: `), r.body.message);
    if (message) assert.match(r.body.message, message);
  }

  function refusedOverGrpc(r: GrpcResult, field: string, message?: RegExp): void {
    assert.ok(!r.ok, `expected a refusal, got ${JSON.stringify(r)}`);
    assert.equal(r.error.code, status.INVALID_ARGUMENT);
    assert.equal(r.error.reason, 'bad_request');
    assert.equal(r.error.metadata.field, field);
    if (message) assert.match(r.error.message, message);
  }

  const NUL = /must not contain NUL characters/;

  let srv: InProcessServer;
  let h: Api;
  let userId: string;
  before(async () => {
    srv = await startInProcess();
    h = api(srv.http, srv.adminKey);
    await createRealm(h, 'edge');
    userId = await createUser(h, 'edge', 'edge@example.com');
    assert.equal((await h.post(`/api/points/edge/users/${userId}/grants`, { kind: 'topup_credit', amount: 10 })).status, 200);
  });
  after(async () => {
    closeGrpcClients();
    await srv.stop();
  });

  describe('a NUL character', () => {
    it('in a path segment is a 400 on unauthenticated routes, before any credential is asked for', async () => {
      refused(await http(srv.http, 'GET', '/a%00b/user/points'), 'realmId', NUL);
      refused(await http(srv.http, 'GET', '/api/points/a%00b/me'), 'realmId', NUL);
      refused(await http(srv.http, 'GET', '/api/oauth/a%00b/.well-known/jwks.json'), 'realmId', NUL);
      refused(await http(srv.http, 'POST', '/api/oauth/edge/app%00le/native-login', { body: { identityToken: 'x', clientId: 'c' } }), 'provider', NUL);
      refused(await http(srv.http, 'POST', '/api/points/a%00b/consume', { body: { userId, amount: 1 } }), 'realmId', NUL);
    });

    it('in a path segment, a query parameter or a body field is a 400 with a key, and nothing is consumed', async () => {
      refused(await h.get('/api/admin/realms/a%00b'), 'realmId', NUL);
      refused(await h.get(`/api/points/edge/users/${userId}/transactions?kind=con%00sume`), 'kind', NUL);
      refused(await h.post('/api/points/edge/consume', { userId, amount: 1, description: 'a\u0000b' }), 'description', NUL);
      refused(await h.post('/api/points/edge/consume', { userId: `${userId}\u0000`, amount: 1 }), 'userId', NUL);
      // The token endpoint answers in RFC 6749 §5.2's form.
      const token = await http(srv.http, 'POST', '/api/oauth/edge/token', { form: { grant_type: 'refresh_token', refresh_token: 'a\u0000' } });
      assert.deepEqual([token.status, token.body.error], [400, 'invalid_request'], token.text);
      assert.equal(token.body.error_description, 'refresh_token: must not contain NUL characters');
      refused(await h.put('/api/bill/edge/entitlement-mappings/batch', { updates: [{ entitlementKey: 'k\u0000' }] }), 'updates[0].entitlementKey', NUL);
      assert.equal((await h.get(`/api/points/edge/users/${userId}/summary`)).body.total, 10);
    });

    it('in any string field over gRPC is INVALID_ARGUMENT naming the field', async () => {
      refusedOverGrpc(
        await grpcCall(srv.grpc, 'PointsService', 'Consume', { realmId: 'edge', userId: `${userId}\u0000`, amount: 1 }, srv.adminKey),
        'userId',
        NUL,
      );
      refusedOverGrpc(await grpcCall(srv.grpc, 'AdminService', 'GetRealm', { realmId: 'a\u0000b' }), 'realmId', NUL);
      refusedOverGrpc(await grpcCall(srv.grpc, 'PagesService', 'UserPointsPage', { realmId: '\u0000' }), 'realmId', NUL);
      assert.equal((await h.get(`/api/points/edge/users/${userId}/summary`)).body.total, 10);
    });
  });

  describe('the limits and required fields of the protos', () => {
    it('are checked over gRPC with the messages HTTP gives', async () => {
      const consume = (req: object) => grpcCall(srv.grpc, 'PointsService', 'Consume', { realmId: 'edge', ...req }, srv.adminKey);
      refusedOverGrpc(await consume({ amount: 1 }), 'userId', /^userId: required$/);
      refusedOverGrpc(await consume({ userId, amount: 0 }), 'amount', /^amount: must be a positive integer$/);
      refusedOverGrpc(await consume({ userId, amount: 1, description: 'x'.repeat(501) }), 'description', /^description: at most 500 characters$/);
      refusedOverGrpc(await consume({ userId, amount: 1, idempotencyKey: '' }), 'idempotencyKey', /^idempotencyKey: 1–200 characters$/);
      const list = (pageSize: number) => grpcCall(srv.grpc, 'PointsService', 'ListTransactions', { realmId: 'edge', userId, pageSize }, srv.adminKey);
      refusedOverGrpc(await list(0), 'pageSize', /^pageSize: an integer from 1 to 200$/);
      refusedOverGrpc(await list(201), 'pageSize', /^pageSize: an integer from 1 to 200$/);
      assert.ok((await list(200)).ok);
      const hold = (ttlSeconds: number) => grpcCall(srv.grpc, 'PointsService', 'CreateHold', { realmId: 'edge', userId, amount: 1, ttlSeconds }, srv.adminKey);
      refusedOverGrpc(await hold(86_401), 'ttlSeconds', /^ttlSeconds: an integer from 1 to 86400$/);
      const settle = await grpcCall(srv.grpc, 'PointsService', 'SettleHold', { realmId: 'edge', holdId: 'hld_x' }, srv.adminKey);
      refusedOverGrpc(settle, 'amount', /^amount: required$/);
      assert.equal((await h.get(`/api/points/edge/users/${userId}/summary`)).body.total, 10);
    });

    it('answer the OAuth endpoints in their own error form (RFC 6749 §5.2)', async () => {
      const verifier = await http(srv.http, 'POST', '/api/oauth/edge/token', {
        form: { grant_type: 'authorization_code', code: 'c', redirect_uri: 'https://a.example/cb', client_id: 'app', code_verifier: 'x\u0000' },
      });
      assert.deepEqual([verifier.status, verifier.body.error], [400, 'invalid_request'], verifier.text);
      assert.equal(verifier.body.error_description, 'code_verifier: must not contain NUL characters');
      const nul = await http(srv.http, 'GET', '/api/oauth/edge/authorize?response_type=code&client_id=a%00');
      assert.deepEqual([nul.status, nul.body.error, nul.body.error_description], [400, 'invalid_request', 'client_id: must not contain NUL characters']);
    });

    it('answer before the credential is checked, the same on both transports', async () => {
      refused(await http(srv.http, 'POST', '/api/points/edge/consume', { body: { amount: 1 } }), 'userId', /^userId: required$/);
      refusedOverGrpc(await grpcCall(srv.grpc, 'PointsService', 'Consume', { realmId: 'edge', amount: 1 }), 'userId', /^userId: required$/);
    });
  });

  describe('a query parameter that names no field', () => {
    it('is a 400 naming it, rather than ignored', async () => {
      const mine = await http(srv.http, 'GET', '/api/points/edge/me/transactions?userId=usr_other');
      refused(mine, 'userId', /^userId: unknown query parameter$/);
      refused(await h.get(`/api/points/edge/users/${userId}/transactions?pageSise=5`), 'pageSise', /unknown query parameter/);
      // A field the path sets is not also a query parameter.
      refused(await h.get(`/api/points/edge/users/${userId}/transactions?realmId=other`), 'realmId', /unknown query parameter/);
      // A route whose fields all come from the path and the body takes no query parameter at all.
      refused(await h.post('/api/points/edge/consume?dryRun=true', { userId, amount: 1 }), 'dryRun', /unknown query parameter/);
      refused(await http(srv.http, 'GET', '/edge/user/points?x=1'), 'x', /unknown query parameter/);
      assert.equal((await h.get(`/api/points/edge/users/${userId}/summary`)).body.total, 10);
      assert.equal((await h.get(`/api/points/edge/users/${userId}/transactions?pageSize=5&kind=grant`)).status, 200);
    });

    it('is still ignored at the authorization endpoint (RFC 6749 §3.1)', async () => {
      const query = 'response_type=code&client_id=nope&redirect_uri=https%3A%2F%2Fa.example%2Fcb&state=abcdefgh&code_challenge=x&code_challenge_method=S256';
      const plain = await http(srv.http, 'GET', `/api/oauth/edge/authorize?${query}`);
      const extra = await http(srv.http, 'GET', `/api/oauth/edge/authorize?${query}&prompt=login`);
      assert.notEqual(plain.body.field, 'prompt');
      assert.deepEqual([extra.status, extra.body.error, extra.body.message], [plain.status, plain.body.error, plain.body.message]);
    });
  });
});
