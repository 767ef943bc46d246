// GET /api/points/{realm}/me with the user's own gatehouse access token, for an account
// created by native login (the registration hook runs on that path too).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../server/lib/clock.ts';
import { type AuthFixture, authFixture, OTHER_REALM, REALM } from '../auth/fixture.ts';
import { closeGrpcClients } from '../helpers/grpc.ts';
import { http } from '../helpers/http.ts';

describe('the caller’s own points summary', () => {
  let f: AuthFixture;
  const clock = new ManualClock(Date.now());
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
    const idt = await f.apple.token({ sub: 'points-me-1', email: 'points-me@example.com' });
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
    const again = await f.login('apple', { identityToken: await f.apple.token({ sub: 'points-me-1', email: 'points-me@example.com' }), clientId: 'app' });
    assert.equal(again.status, 200);
    assert.equal((await http(f.srv.http, 'GET', `/api/points/${REALM}/me`, { token: again.body.accessToken })).body.balances.registration, 40);
  });

  it('refuses an API key, a missing token and a token of another realm (401)', async () => {
    const idt = await f.apple.token({ sub: 'points-me-2', email: 'points-me2@example.com' });
    const login = await f.login('apple', { identityToken: idt, clientId: 'app' });
    assert.equal((await http(f.srv.http, 'GET', `/api/points/${OTHER_REALM}/me`, { token: login.body.accessToken })).status, 401);
    assert.equal((await http(f.srv.http, 'GET', `/api/points/${REALM}/me`, { key: f.srv.adminKey })).status, 401);
    assert.equal((await http(f.srv.http, 'GET', `/api/points/${REALM}/me`)).status, 401);
  });
});
