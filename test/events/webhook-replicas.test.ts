// Webhook delivery across processes (docs/events.md "Delivery"): real
// `gatehouse serve` processes on one database (a SQLite file, and PostgreSQL) polling the queue on
// their own, a receiver on loopback. Every event is delivered and none twice; a server killed with
// SIGKILL leaves its events and retries to the next one. The test waits for what the receiver got
// and the servers recorded, never for a fixed time. (A delivery whose server dies mid-attempt is
// taken up when its lease runs out, a minute later: test/events/webhook-waits.test.ts.)
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

  it('an API replica (--jobs off) writes the events of the calls it serves and leaves their delivery to the replica running the queue', async () => {
    const own = tempDir(); // a database of its own, also on SQLite
    const database = await newDatabase(own, backend);
    const r = await receiver();
    try {
      const apiOnly = await spawnServer({ dbPath: database.dbPath, dir: own, args: ['--jobs', 'off'] });
      servers.push(apiOnly);
      const admin = api(apiOnly.http, apiOnly.adminKey);
      assert.equal((await admin.post('/api/admin/realms', { id: REALM, name: 'Relay' })).status, 200);
      const hook = await admin.post(`/api/admin/realms/${REALM}/webhooks`, { url: r.url, eventTypes: ['user.deleted'] });
      assert.equal(hook.status, 200, hook.text);
      await deleteUsers(admin, 4, 'api');
      const outbox = await admin.get('/metrics');
      assert.match(outbox.text, /^gatehouse_outbox_depth 4$/m, 'written, not handed out');

      const worker = await spawnServer({ dbPath: database.dbPath, dir: own });
      servers.push(worker);
      await r.receivedCount(4);
      // Recorded (asked in turn, a request each), then who recorded them: the API replica ran its
      // deletions' own purges (a call's own work), no delivery.
      const path = `/api/admin/realms/${REALM}/webhooks/${hook.body.id}/deliveries?status=delivered&pageSize=200`;
      while ((await admin.get(path)).body.deliveries.length !== 4);
      assert.doesNotMatch(apiOnly.logs(), /"webhook\.deliver"/, 'the API replica delivered none');
      const delivered = (logs: string) => logs.split('\n').filter((l) => l.includes('"job done"') && l.includes('"webhook.deliver"')).length;
      await worker.logged((logs) => delivered(logs) === 4);
      assert.equal(new Set(r.received.map((got) => got.headers['webhook-id'])).size, 4, 'every event once');
      await deleteUsers(admin, 1, 'api-after');
      await r.receivedCount(5); // the queue of the other replica keeps delivering what this one writes
      await worker.stop();
      await apiOnly.stop();
    } finally {
      await r.close();
      await database.drop();
    }
  });
});
