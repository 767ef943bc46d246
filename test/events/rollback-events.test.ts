// Nothing that rolled back is reported (docs/events.md: an event is written in the transaction of
// the change it reports). A grant through the API writes its balance, its points.granted event
// and then its audit record; the test makes that last write fail with a trigger of its own (on
// SQLite as the row is inserted, on PostgreSQL at COMMIT, a deferred constraint trigger), so the
// transaction fails after its event was written. The event must go with it: nothing in the outbox,
// nothing delivered, while a grant for another user sent at the same moment (on SQLite, possibly in
// the same group-committed transaction) is kept and delivered.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachBackend } from '../helpers/backends.ts';
import { api } from '../helpers/http.ts';
import { type RawDb, rawDb } from '../helpers/raw-db.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';
import { receiver } from '../helpers/webhook-receiver.ts';
import { type Api, createRealm, createUser } from '../points/helpers.ts';

const REALM = 'rollback';

describeEachBackend('a use case rolled back leaves no event', (backend) => {
  let server: InProcessServer;
  let admin: Api;
  let hook: Awaited<ReturnType<typeof receiver>>;
  let raw: RawDb;

  before(async () => {
    server = await startInProcess({ backend, tuning: { jobIntervalMs: 3_600_000, sweepIntervalMs: 3_600_000 } });
    admin = api(server.http, server.adminKey);
    await createRealm(admin, REALM);
    hook = await receiver();
    const created = await admin.post(`/api/admin/realms/${REALM}/webhooks`, { url: hook.url, eventTypes: ['points.granted'] });
    assert.equal(created.status, 200, created.text);
    raw = await rawDb(server.dbPath, backend);
  });
  after(async () => {
    await raw?.close();
    await hook?.close();
    await server?.stop();
  });

  /** Test-only: every audit record of `userId` fails its transaction. */
  const failAuditOf = async (userId: string) => {
    if (backend === 'sqlite') {
      await raw.exec(`CREATE TRIGGER test_fail_audit BEFORE INSERT ON audit_log WHEN NEW.target_id = '${userId}'
        BEGIN SELECT RAISE(ABORT, 'test: the audit record fails'); END`);
      return () => raw.exec('DROP TRIGGER test_fail_audit');
    }
    await raw.exec(`CREATE FUNCTION test_fail_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'test: the audit record fails'; END $$`);
    await raw.exec(`CREATE CONSTRAINT TRIGGER test_fail_audit AFTER INSERT ON audit_log DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW WHEN (NEW.target_id = '${userId}') EXECUTE FUNCTION test_fail_audit()`);
    return async () => {
      await raw.exec('DROP TRIGGER test_fail_audit ON audit_log');
      await raw.exec('DROP FUNCTION test_fail_audit()');
    };
  };
  const grant = (userId: string, amount: number) => admin.post(`/api/points/${REALM}/users/${userId}/grants`, { kind: 'granted_credit', amount });
  const deliveredOf = (userId: string) =>
    hook.received.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, any> }).filter((e) => e.data.userId === userId);
  const storedOf = async (userId: string) => ({
    events: await raw.count('SELECT count(*) FROM events WHERE data LIKE $1', [`%${userId}%`]),
    audit: await raw.count("SELECT count(*) FROM audit_log WHERE target_id = $1 AND action = 'points.grant'", [userId]),
  });

  it('writes no event of a grant whose transaction fails after the event was written, and keeps the one beside it', async () => {
    const doomed = await createUser(admin, REALM, 'doomed@example.com');
    const kept = await createUser(admin, REALM, 'kept@example.com');
    const restore = await failAuditOf(doomed);
    let failed: Awaited<ReturnType<typeof grant>>;
    let ok: Awaited<ReturnType<typeof grant>>;
    try {
      // Sent together: on SQLite they may share one group-committed transaction, each in a savepoint.
      [failed, ok] = await Promise.all([grant(doomed, 30), grant(kept, 40)]);
    } finally {
      await restore();
    }
    assert.equal(failed.status, 500, failed.text);
    assert.deepEqual([failed.body.error, failed.body.status], ['internal_error', 500]);
    assert.doesNotMatch(failed.body.message, /test:/, 'no internals in the message');
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(await storedOf(doomed), { events: 0, audit: 0 }, 'nothing of the failed grant in the outbox or the audit log');
    assert.equal((await admin.get(`/api/points/${REALM}/users/${doomed}/summary`)).body.total, 0, 'nor its balance');
    assert.deepEqual(await storedOf(kept), { events: 1, audit: 1 });
    await server.running.app.jobs.runOnce();
    assert.deepEqual(deliveredOf(doomed), []);
    assert.deepEqual(
      deliveredOf(kept).map((e) => [e.type, e.data.grantId, e.data.amount]),
      [['points.granted', ok.body.grantId, 40]],
    );
    // The same grant again, with nothing failing it, is written and reported once.
    const again = await grant(doomed, 30);
    assert.equal(again.status, 200, again.text);
    await server.running.app.jobs.runOnce();
    assert.deepEqual(
      deliveredOf(doomed).map((e) => [e.type, e.data.grantId, e.data.amount]),
      [['points.granted', again.body.grantId, 30]],
    );
  });
});
