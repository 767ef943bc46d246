// A deletion racing the user's own traffic on two replicas (two `gatehouse serve` processes on one
// SQLite file, and on one PostgreSQL database): consumes,
// refreshes and new sign-ins sent while the account is deleted. Whatever the order, the account
// ends deleted, every call answers (200 before, 404 / invalid_grant / a new account after), and no
// token of the deleted account is alive afterwards.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, it } from 'node:test';
import { describeEachBackend } from '../helpers/backends.ts';
import { api, http } from '../helpers/http.ts';
import { startIdp, type TestIdp } from '../helpers/idp.ts';
import { newDatabase, type SpawnedServer, spawnServer, tempDir } from '../helpers/server.ts';
import { withStores } from '../helpers/stores.ts';

const REALM = 'race';
const AUD = 'com.example.race';

describeEachBackend('a deletion racing consumes, refreshes and sign-ins on two replicas', (backend) => {
  const dir = tempDir();
  let db: Awaited<ReturnType<typeof newDatabase>>;
  let idp: TestIdp;
  let servers: SpawnedServer[] = [];
  before(async () => {
    idp = await startIdp({ audience: AUD });
    db = await newDatabase(dir, backend);
    const args = ['--apple-jwks-url', idp.jwksUrl, '--apple-issuer', idp.issuer, '--login-rate-limit', '0'];
    servers = await Promise.all([0, 1].map(() => spawnServer({ dir, dbPath: db.dbPath, args })));
    const h = api(servers[0]!.http, servers[0]!.adminKey);
    for (const [path, body] of [
      ['/api/admin/realms', { id: REALM, name: REALM }],
      [`/api/admin/realms/${REALM}/clients`, { clientId: 'app', name: 'App', type: 'first_party', redirectUris: [], ipBinding: 'off' }],
    ] as const) {
      const r = await h.post(path, body);
      assert.equal(r.status, 200, r.text);
    }
    assert.equal((await h.put(`/api/admin/realms/${REALM}/providers/apple`, { clientId: AUD, enabled: true })).status, 200);
    assert.equal((await h.put(`/api/points/${REALM}/default-config`, { registrationBonusPoints: 1000 })).status, 200);
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await idp.close();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const signIn = async (srv: SpawnedServer, sub: string) =>
    http(srv.http, 'POST', `/api/oauth/${REALM}/apple/native-login`, { body: { identityToken: await idp.token({ sub }), clientId: 'app' } });

  for (let round = 1; round <= 3; round++) {
    it(`round ${round}: the account ends deleted, nothing of it answers, no token of it is alive`, async () => {
      const sub = `racer-${round}`;
      const sessions = [];
      for (let i = 0; i < 4; i++) {
        const r = await signIn(servers[i % 2]!, sub);
        assert.equal(r.status, 200, r.text);
        sessions.push(r.body as { accessToken: string; refreshToken: string; userId: string });
      }
      const userId = sessions[0]!.userId;
      const tokens = sessions.map((s) => ({ access: s.accessToken, refresh: s.refreshToken }));

      const admin = (i: number) => api(servers[i % 2]!.http, servers[i % 2]!.adminKey);
      const consumes = Array.from({ length: 30 }, (_, i) =>
        admin(i).post(`/api/points/${REALM}/consume`, { userId, amount: 3, ...(i % 3 === 0 ? { idempotencyKey: `k-${round}-${i}` } : {}) }),
      );
      const refreshes = sessions.map((s, i) =>
        http(servers[i % 2]!.http, 'POST', `/api/oauth/${REALM}/token`, { form: { grant_type: 'refresh_token', refresh_token: s.refreshToken } }),
      );
      const logins = Array.from({ length: 4 }, (_, i) => signIn(servers[i % 2]!, sub));
      const deletion = admin(1).delete(`/api/admin/realms/${REALM}/users/${userId}`);
      const [deleted, consumed, refreshed, signedIn] = await Promise.all([deletion, Promise.all(consumes), Promise.all(refreshes), Promise.all(logins)]);

      assert.equal(deleted.status, 200, deleted.text);
      for (const r of consumed) assert.ok(r.status === 200 || (r.status === 404 && r.body.error === 'not_found'), r.text);
      for (const r of refreshed) {
        assert.ok(r.status === 200 || (r.status === 400 && r.body.error === 'invalid_grant'), r.text);
        if (r.status === 200) tokens.push({ access: r.body.access_token, refresh: r.body.refresh_token });
      }
      for (const r of signedIn) {
        // Before the deletion: the old account (its session revoked by it); after: a new one; at
        // the same moment: refused.
        assert.ok(r.status === 200 || (r.status === 404 && r.body.error === 'not_found'), r.text);
        if (r.status === 200 && r.body.userId === userId) tokens.push({ access: r.body.accessToken, refresh: r.body.refreshToken });
      }

      // The account is gone on both replicas, and so is every token it had.
      for (const srv of servers) {
        const h = api(srv.http, srv.adminKey);
        assert.equal((await h.get(`/api/admin/realms/${REALM}/users/${userId}`)).status, 404);
        assert.equal((await h.get(`/api/points/${REALM}/users/${userId}/summary`)).status, 404);
        assert.equal((await h.get(`/api/points/${REALM}/users/${userId}/transactions`)).status, 404);
        for (const t of tokens) {
          assert.equal((await http(srv.http, 'GET', `/api/oauth/${REALM}/userinfo`, { token: t.access })).status, 401);
          const r = await http(srv.http, 'POST', `/api/oauth/${REALM}/token`, { form: { grant_type: 'refresh_token', refresh_token: t.refresh } });
          assert.equal(r.body.error, 'invalid_grant', r.text);
        }
      }
      await withStores(db.dbPath, async (s) => {
        assert.equal(await s.users.getUser(REALM, userId), null);
        assert.deepEqual(await s.users.identitiesOf(userId), []);
        assert.equal((await s.records.audit(REALM, { action: 'user.delete', targetId: userId, limit: 5 })).length, 1);
      });
      // A new sign-in after it all lands on a new account, without a second registration credit.
      const fresh = await signIn(servers[0]!, sub);
      assert.equal(fresh.status, 200, fresh.text);
      assert.notEqual(fresh.body.userId, userId);
      const s = await api(servers[0]!.http, servers[0]!.adminKey).get(`/api/points/${REALM}/users/${fresh.body.userId}/summary`);
      assert.equal(s.body.balances.registration, 0);
    });
  }
});
