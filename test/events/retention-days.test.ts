// docs/events.md "Retention": --audit-retention-days and --idempotency-retention-days move the periodic sweep's
// cutoffs. A server started with short retentions (as the flags set them) on a manual clock: the
// sweep keeps an audit record and a stored idempotency answer up to their retention and prunes them
// after it, long before the defaults (400 and 30 days) would. The flags' parsing: server/config.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../server/lib/clock.ts';
import { runCli } from '../helpers/cli.ts';
import { api } from '../helpers/http.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';
import { type Api, createRealm, createUser } from '../points/helpers.ts';

const REALM = 'retained';
const DAY = 86_400_000;

describe('retention days set by flag', () => {
  const clock = new ManualClock(Date.UTC(2026, 8, 1));
  let server: InProcessServer;
  let admin: Api;
  let userId: string;

  before(async () => {
    server = await startInProcess({
      clock,
      config: { auditRetentionDays: 10, idempotencyRetentionDays: 2 },
      tuning: { sweepIntervalMs: 3_600_000, jobIntervalMs: 3_600_000 },
    });
    admin = api(server.http, server.adminKey);
    await createRealm(admin, REALM);
    assert.equal((await admin.put(`/api/points/${REALM}/default-config`, { registrationBonusPoints: 1000 })).status, 200);
    userId = await createUser(admin, REALM, 'kept@example.com');
  });
  after(() => server.stop());

  const consume = async (key: string) => {
    const r = await admin.post(`/api/points/${REALM}/consume`, { userId, amount: 1, idempotencyKey: key });
    assert.equal(r.status, 200, r.text);
    return r.body as { transactionId: string };
  };
  const auditOf = async (targetId: string) => {
    const r = await admin.get(`/api/admin/realms/${REALM}/audit?targetId=${targetId}`);
    assert.equal(r.status, 200, r.text);
    return r.body.records as unknown[];
  };

  it('prunes a stored idempotency answer once --idempotency-retention-days (2) have passed, not before: a replay then is a new call', async () => {
    const start = clock.now();
    const first = await consume('two-days');
    clock.set(start + 2 * DAY - 1);
    assert.equal((await server.running.sweeper.runOnce()).idempotency, 0);
    assert.equal((await consume('two-days')).transactionId, first.transactionId, 'a replay inside the retention');
    clock.set(start + 2 * DAY + 1);
    assert.equal((await server.running.sweeper.runOnce()).idempotency, 1);
    assert.notEqual((await consume('two-days')).transactionId, first.transactionId, 'a new call after it');
  });

  it('prunes an audit record once --audit-retention-days (10) have passed, not before', async () => {
    const start = clock.now();
    const created = await admin.post(`/api/admin/realms/${REALM}/clients`, { clientId: 'brief', name: 'Brief', type: 'first_party', redirectUris: [] });
    assert.equal(created.status, 200, created.text);
    assert.equal((await auditOf('brief')).length, 1);
    clock.set(start + 10 * DAY - 1);
    await server.running.sweeper.runOnce();
    assert.equal((await auditOf('brief')).length, 1, 'kept inside the retention');
    clock.set(start + 10 * DAY + 1);
    assert.ok((await server.running.sweeper.runOnce()).audit! >= 1);
    assert.deepEqual(await auditOf('brief'), [], 'pruned after it');
  });

  it('refuses to serve with a retention that is not a whole number of days, naming the flag', async () => {
    for (const flag of ['--audit-retention-days', '--idempotency-retention-days']) {
      const bad = await runCli(['serve', flag, 'soon']);
      assert.equal(bad.code, 2, bad.stderr);
      assert.ok(bad.stderr.includes(flag), bad.stderr);
    }
  });
});
