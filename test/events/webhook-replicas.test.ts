// Webhook delivery across processes (docs/events.md "Delivery"): real
// `gatehouse serve` processes on one database (a SQLite file, and PostgreSQL) polling the queue on
// their own, a receiver on loopback. Every event is delivered and none twice; a server killed with
// SIGKILL leaves its events and retries to the next one. The test waits for what the receiver got
// and the servers recorded, never for a fixed time. (A delivery whose server dies mid-attempt is
// taken up when its lease runs out, a minute later: the jobs contract suite shows that on both
// backends, test/store/jobs-suite.ts.)
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { describeEachBackend } from '../helpers/backends.ts';
import { api } from '../helpers/http.ts';
import { newDatabase, type SpawnedServer, spawnServer, tempDir } from '../helpers/server.ts';
import { receiver } from '../helpers/webhook-receiver.ts';

const REALM = 'relay';

describeEachBackend('webhook delivery across processes', (backend) => {
  const servers: SpawnedServer[] = [];
  const dir = tempDir();
  after(async () => {
    for (const s of servers) await s.kill('SIGKILL');
  });

  async function deleteUsers(admin: ReturnType<typeof api>, n: number, tag: string): Promise<void> {
    for (let i = 0; i < n; i++) {
      const user = await admin.post(`/api/admin/realms/${REALM}/users`, { email: `${tag}${i}@example.com` });
      assert.equal(user.status, 200, user.text);
      assert.equal((await admin.delete(`/api/admin/realms/${REALM}/users/${user.body.id}`)).status, 200);
    }
  }

  it('delivers every event once with two servers on one database, and resumes after a SIGKILL', async () => {
    const database = await newDatabase(dir, backend);
    const r = await receiver();
    try {
      const a = await spawnServer({ dbPath: database.dbPath, dir });
      servers.push(a);
      const b = await spawnServer({ dbPath: database.dbPath, dir });
      servers.push(b);
      const adminA = api(a.http, a.adminKey);
      const adminB = api(b.http, b.adminKey);
      assert.equal((await adminA.post('/api/admin/realms', { id: REALM, name: 'Relay' })).status, 200);
      const hook = await adminA.post(`/api/admin/realms/${REALM}/webhooks`, { url: r.url, eventTypes: ['user.deleted'] });
      assert.equal(hook.status, 200, hook.text);

      await Promise.all([deleteUsers(adminA, 6, 'a'), deleteUsers(adminB, 6, 'b')]);
      await r.receivedCount(12);
      const verifier = new Webhook(hook.body.secret);
      const ids = r.received.map((got) => (verifier.verify(got.body, got.headers) as { id: string }).id);
      assert.equal(new Set(ids).size, 12, 'every event once');
      // The receiver has a request before its server has recorded the answer; a server killed in
      // between leaves that delivery to be made again (at least once). So the kill below waits until
      // all twelve are recorded, asked in turn, a request each.
      const countOf = async (srv: SpawnedServer, status: 'delivered' | 'pending') =>
        (await api(srv.http, srv.adminKey).get(`/api/admin/realms/${REALM}/webhooks/${hook.body.id}/deliveries?status=${status}&pageSize=200`)).body.deliveries
          .length;
      while ((await countOf(a, 'delivered')) !== 12);

      // A receiver failing, then the server killed: the retries and the events it had not handed
      // out yet are taken up by a server started afterwards.
      await b.kill('SIGKILL');
      r.mode = '500';
      await deleteUsers(adminA, 1, 'c');
      await r.receivedCount(13); // the first failed attempt
      // Killed once it has recorded the failure (asked in turn, a request each): the delivery
      // waits for its retry, which the server started next makes.
      while ((await countOf(a, 'pending')) !== 1);
      await a.kill('SIGKILL');
      r.mode = 'ok';
      const c = await spawnServer({ dbPath: database.dbPath, dir });
      servers.push(c);
      await r.receivedCount(14); // the retry after the restart
      assert.equal(r.received[12]!.headers['webhook-id'], r.received[13]!.headers['webhook-id']);
      // The receiver has the request before the server has recorded its answer: asked in turn, a
      // request each, until it has.
      while ((await countOf(c, 'delivered')) !== 13);
      assert.equal(r.received.length, 14, 'nothing delivered twice');
      await c.kill('SIGTERM');
    } finally {
      await r.close();
      await database.drop();
    }
  });
});
