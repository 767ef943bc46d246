// GET /api/points/{realm}/me and …/me/transactions with the user's own gatehouse access token, for
// an account created by native login (the registration hook runs on that path too).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../server/lib/clock.ts';
import { type AuthFixture, authFixture, OTHER_REALM, REALM } from '../auth/fixture.ts';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { http } from '../helpers/http.ts';
import { T0 } from '../store/contract.ts';

describe('the caller’s own points summary', () => {
  let f: AuthFixture;
  const clock = new ManualClock(T0);
  before(async () => {
    f = await authFixture({ inProcess: { clock } });
    const r = await f.admin.put(`/api/points/${REALM}/default-config`, {
      registrationBonusPoints: 40,
      freePeriodicQuotaWindows: [{ windowSeconds: 18000, limit: 5 }],
    });
    assert.equal(r.status, 200, r.text);
  });
  after(async () => {
    closeGrpcClients();
    await f.close();
  });

  it('answers the token holder’s summary, with the registration credit and free window granted at login', async () => {
    const idt = await f.apple.token({ sub: 'points-me-1', email: 'points-me@example.com' }, { now: Math.floor(clock.now() / 1000) });
    const login = await f.login('apple', { identityToken: idt, clientId: 'app' });
    assert.equal(login.status, 200, login.text);
    const me = await http(f.srv.http, 'GET', `/api/points/${REALM}/me`, { token: login.body.accessToken });
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.userId, login.body.userId);
    assert.equal(me.body.balances.registration, 40);
    assert.deepEqual(
      me.body.windows.map((w: any) => [w.creditKind, w.key, w.limit, w.remaining]),
      [['free_periodic_credit', '5h', 5, 5]],
    );
    assert.equal(me.body.total, 45);
    // The same summary the admin API gives.
    const admin = await f.admin.get(`/api/points/${REALM}/users/${login.body.userId}/summary`);
    assert.deepEqual(admin.body, me.body);
    // A second login of the same account grants nothing again.
    const again = await f.login('apple', {
      identityToken: await f.apple.token({ sub: 'points-me-1', email: 'points-me@example.com' }, { now: Math.floor(clock.now() / 1000) }),
      clientId: 'app',
    });
    assert.equal(again.status, 200);
    assert.equal((await http(f.srv.http, 'GET', `/api/points/${REALM}/me`, { token: again.body.accessToken })).body.balances.registration, 40);
  });

  it('refuses an API key, a missing token and a token of another realm (401)', async () => {
    const idt = await f.apple.token({ sub: 'points-me-2', email: 'points-me2@example.com' }, { now: Math.floor(clock.now() / 1000) });
    const login = await f.login('apple', { identityToken: idt, clientId: 'app' });
    assert.equal((await http(f.srv.http, 'GET', `/api/points/${OTHER_REALM}/me`, { token: login.body.accessToken })).status, 401);
    assert.equal((await http(f.srv.http, 'GET', `/api/points/${REALM}/me`, { key: f.srv.adminKey })).status, 401);
    assert.equal((await http(f.srv.http, 'GET', `/api/points/${REALM}/me`)).status, 401);
  });

  it('answers the token holder’s own history at …/me/transactions, the same as the admin listing, over HTTP and gRPC', async () => {
    const login = await f.login('apple', {
      identityToken: await f.apple.token({ sub: 'points-me-3', email: 'points-me3@example.com' }, { now: Math.floor(clock.now() / 1000) }),
      clientId: 'app',
    });
    assert.equal(login.status, 200, login.text);
    const { userId, accessToken } = login.body;
    clock.advance(1000); // movements a second apart: newest first never falls back on the ids
    const used = await f.admin.post(`/api/points/${REALM}/consume`, { userId, amount: 6, description: 'first answer' });
    assert.equal(used.status, 200, used.text);
    clock.advance(1000);
    const held = await f.admin.post(`/api/points/${REALM}/holds`, { userId, amount: 4 });
    assert.equal(held.status, 200, held.text);

    const mine = await http(f.srv.http, 'GET', `/api/points/${REALM}/me/transactions`, { token: accessToken });
    assert.equal(mine.status, 200, mine.text);
    const admin = await f.admin.get(`/api/points/${REALM}/users/${userId}/transactions`);
    assert.deepEqual(mine.body, admin.body);
    assert.deepEqual(
      mine.body.transactions.map((t: any) => [t.kind, t.amount]),
      [
        ['hold', 4],
        ['consume', 6],
        ['grant', 40],
      ],
    );
    const page = await http(f.srv.http, 'GET', `/api/points/${REALM}/me/transactions?pageSize=1&kind=consume`, { token: accessToken });
    assert.deepEqual(
      page.body.transactions.map((t: any) => t.transactionId),
      [used.body.transactionId],
    );
    const viaGrpc = await grpcCall(f.srv.grpc, 'PointsService', 'ListMyTransactions', { realmId: REALM, pageSize: 2 }, accessToken);
    assert.ok(viaGrpc.ok, JSON.stringify(viaGrpc));
    assert.deepEqual(
      viaGrpc.value.transactions.map((t: any) => t.kind),
      ['hold', 'consume'],
    );
    const next = await http(f.srv.http, 'GET', `/api/points/${REALM}/me/transactions?pageSize=2&pageToken=${viaGrpc.value.nextPageToken}`, {
      token: accessToken,
    });
    assert.deepEqual(
      next.body.transactions.map((t: any) => t.kind),
      ['grant'],
    );
    // A page token of the user's own listing is refused on another user's.
    const other = await f.admin.post(`/api/admin/realms/${REALM}/users`, { email: 'points-me-other@example.com' });
    const foreign = await f.admin.get(`/api/points/${REALM}/users/${other.body.id}/transactions?pageToken=${viaGrpc.value.nextPageToken}`);
    assert.deepEqual([foreign.status, foreign.body.field], [400, 'pageToken']);
    const bad = await http(f.srv.http, 'GET', `/api/points/${REALM}/me/transactions?pageSize=0`, { token: accessToken });
    assert.deepEqual([bad.status, bad.body.field], [400, 'pageSize']);
  });

  it('refuses …/me/transactions without a user token: none, an API key, or a token of another realm (401)', async () => {
    const login = await f.login('apple', {
      identityToken: await f.apple.token({ sub: 'points-me-4', email: 'points-me4@example.com' }, { now: Math.floor(clock.now() / 1000) }),
      clientId: 'app',
    });
    assert.equal((await http(f.srv.http, 'GET', `/api/points/${REALM}/me/transactions`)).status, 401);
    assert.equal((await http(f.srv.http, 'GET', `/api/points/${REALM}/me/transactions`, { key: f.srv.adminKey })).status, 401);
    assert.equal((await http(f.srv.http, 'GET', `/api/points/${OTHER_REALM}/me/transactions`, { token: login.body.accessToken })).status, 401);
    const g = await grpcCall(f.srv.grpc, 'PointsService', 'ListMyTransactions', { realmId: REALM }, f.srv.adminKey);
    assert.ok(!g.ok);
    assert.equal(g.error.code, 16);
  });
});
