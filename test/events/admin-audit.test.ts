// Every change through the admin API writes one audit record in its transaction (docs/events.md "The audit log"),
// read back through the audit API: the calling key as actor, the request's id, each changed field
// before and after, secrets as "[redacted]"; `keys create --db` is recorded as gatehouse's own. The
// audit API's actorId, since and until filters, and a bad time or page size answered with a 400.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachBackend } from '../helpers/backends.ts';
import { runCli } from '../helpers/cli.ts';
import { api } from '../helpers/http.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';

const REALM = 'audited';
const APPLE_KEY = '-----BEGIN PRIVATE KEY-----\nMIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQg\n-----END PRIVATE KEY-----';

interface ShownRecord {
  action: string;
  targetId: string;
  actor: { type: string; id: string };
  changes: Record<string, { before: unknown; after: unknown }>;
  requestId: string;
}

describeEachBackend('admin changes audited', (backend) => {
  let srv: InProcessServer;
  let admin: ReturnType<typeof api>;
  let adminKeyId: string;
  before(async () => {
    srv = await startInProcess({ backend });
    admin = api(srv.http, srv.adminKey);
    adminKeyId = (await admin.get('/api/admin/whoami')).body.keyId;
  });
  after(() => srv.stop());

  /** The realm's records for `targetId`, newest first, their changes parsed. */
  async function recordsOf(realmId: string, targetId: string): Promise<ShownRecord[]> {
    const res = await admin.get(`/api/admin/realms/${realmId}/audit?targetId=${encodeURIComponent(targetId)}`);
    assert.equal(res.status, 200, res.text);
    return res.body.records.map((r: Record<string, any>) => ({
      action: r.action,
      targetId: r.targetId,
      actor: r.actor,
      changes: JSON.parse(r.changesJson),
      requestId: r.requestId,
    }));
  }

  describe('the audit log of admin changes', () => {
    before(async () => {
      assert.equal((await admin.post('/api/admin/realms', { id: REALM, name: 'Audited' })).status, 200);
    });

    it('records a realm created with the calling key and the request id', async () => {
      const [created] = await recordsOf(REALM, REALM);
      assert.equal(created!.action, 'realm.create');
      assert.deepEqual(created!.actor, { type: 'api_key', id: adminKeyId });
      assert.deepEqual(created!.changes.name, { before: null, after: 'Audited' });
    });

    it('records a client created, then each field an update changed with its value before and after', async () => {
      const created = await admin.post(`/api/admin/realms/${REALM}/clients`, { clientId: 'ios', name: 'iOS', type: 'first_party', redirectUris: [] });
      assert.equal(created.status, 200, created.text);
      const updated = await admin.patch(`/api/admin/realms/${REALM}/clients/ios`, { name: 'iPhone', enabled: false, ipBinding: 'off' });
      assert.equal(updated.status, 200, updated.text);
      const refused = await admin.patch(`/api/admin/realms/${REALM}/clients/ios`, { accessTokenTtlSeconds: 1 });
      assert.equal(refused.status, 400);
      const [update, create, ...rest] = await recordsOf(REALM, 'ios');
      assert.deepEqual(rest, [], 'the refused update wrote nothing');
      assert.deepEqual(update, {
        action: 'client.update',
        targetId: 'ios',
        actor: { type: 'api_key', id: adminKeyId },
        changes: { name: { before: 'iOS', after: 'iPhone' }, enabled: { before: true, after: false } },
        requestId: updated.headers.get('x-request-id'),
      });
      assert.equal(create!.action, 'client.create');
      assert.equal(create!.requestId, created.headers.get('x-request-id'));
      assert.deepEqual(create!.changes.type, { before: null, after: 'first_party' });
    });

    it('records a provider update with its secret and key redacted', async () => {
      const put = (body: Record<string, unknown>) => admin.put(`/api/admin/realms/${REALM}/providers/apple`, body);
      const secret = 'the-client-secret-itself';
      assert.equal(
        (await put({ clientId: 'com.example.app', additionalClientIds: [], clientSecret: secret, privateKey: APPLE_KEY, teamId: 'TEAM1' })).status,
        200,
      );
      assert.equal((await put({ clientId: 'com.example.app', additionalClientIds: ['com.example.b'], teamId: 'TEAM2' })).status, 200);
      const listing = await admin.get(`/api/admin/realms/${REALM}/audit?targetId=apple`);
      assert.ok(!listing.text.includes(secret) && !listing.text.includes('MIGTAgEA'), 'no secret in the audit log');
      const [second, first] = await recordsOf(REALM, 'apple');
      assert.equal(first!.action, 'provider.update');
      assert.deepEqual(first!.changes.clientSecret, { before: null, after: '[redacted]' });
      assert.deepEqual(first!.changes.privateKey, { before: null, after: '[redacted]' });
      assert.deepEqual(second!.changes, {
        additionalClientIds: { before: [], after: ['com.example.b'] },
        teamId: { before: 'TEAM1', after: 'TEAM2' },
      });
    });

    it('records an API key created and revoked through the API, and one created by keys create --db as gatehouse', async () => {
      const created = await admin.post('/api/admin/api-keys', { realm: REALM, permissions: ['points.view'], name: 'reader' });
      assert.equal(created.status, 200, created.text);
      assert.equal((await admin.delete(`/api/admin/api-keys/${created.body.id}`)).status, 200);
      const [revoke, create] = await recordsOf(REALM, created.body.id);
      assert.equal(create!.action, 'api_key.create');
      assert.deepEqual(create!.changes.permissions, { before: null, after: ['points.view'] });
      assert.ok(!JSON.stringify(create).includes(created.body.key), 'no key in the audit log');
      assert.equal(revoke!.action, 'api_key.revoke');
      assert.deepEqual(revoke!.actor, { type: 'api_key', id: adminKeyId });
      assert.equal((revoke!.changes.revokedAt as { before: unknown }).before, null);

      const cli = await runCli(['keys', 'create', '--db', srv.dbPath, '--realm', REALM, '--permission', 'points.view', '--json']);
      assert.equal(cli.code, 0, cli.stderr);
      const [bootstrapped] = await recordsOf(REALM, cli.json().id);
      assert.equal(bootstrapped!.action, 'api_key.create');
      assert.deepEqual(bootstrapped!.actor, { type: 'system', id: 'gatehouse' });
    });

    it('lets a key holding only audit.view read the log, each record with its aud_ id and RFC 3339 time, and refuses a key without it', async () => {
      const before = Date.now();
      const changed = await admin.post(`/api/admin/realms/${REALM}/clients`, { clientId: 'viewed', name: 'Viewed', type: 'first_party', redirectUris: [] });
      assert.equal(changed.status, 200, changed.text);
      const after = Date.now();
      const viewer = (await admin.post('/api/admin/api-keys', { realm: REALM, permissions: ['audit.view'], name: 'auditor' })).body.key as string;
      const res = await admin.get(`/api/admin/realms/${REALM}/audit?targetId=viewed`, undefined, { key: viewer });
      assert.equal(res.status, 200, res.text);
      const [update] = res.body.records as Array<Record<string, any>>;
      assert.equal(update!.action, 'client.create');
      assert.equal(update!.realmId, REALM);
      assert.match(update!.auditId, /^aud_[A-Za-z0-9_-]+$/);
      assert.match(update!.at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      assert.ok(Date.parse(update!.at) >= before && Date.parse(update!.at) <= after, update!.at);
      const all = (await admin.get(`/api/admin/realms/${REALM}/audit`, undefined, { key: viewer })).body.records as Array<{ auditId: string }>;
      assert.ok(all.length > 3);
      assert.equal(new Set(all.map((r) => r.auditId)).size, all.length, 'each record its own auditId');

      const other = (await admin.post('/api/admin/api-keys', { realm: REALM, permissions: ['points.view', 'webhooks.manage'], name: 'no-audit' })).body
        .key as string;
      const refused = await admin.get(`/api/admin/realms/${REALM}/audit`, undefined, { key: other });
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.body.error, 'forbidden');
    });

    it('records an API key made for every realm in realm "*", the calling key as actor', async () => {
      const created = await admin.post('/api/admin/api-keys', { realm: '*', permissions: ['points.view'], name: 'everywhere' });
      assert.equal(created.status, 200, created.text);
      const listed = await admin.get(`/api/admin/realms/*/audit?targetId=${encodeURIComponent(created.body.id)}`);
      assert.equal(listed.status, 200, listed.text);
      const [record] = listed.body.records;
      assert.deepEqual(
        { ...record, auditId: undefined, at: undefined, changes: JSON.parse(record.changesJson), changesJson: undefined },
        {
          auditId: undefined,
          at: undefined,
          changesJson: undefined,
          realmId: '*',
          actor: { type: 'api_key', id: adminKeyId },
          action: 'api_key.create',
          targetId: created.body.id,
          changes: {
            id: { before: null, after: created.body.id },
            realm: { before: null, after: '*' },
            permissions: { before: null, after: ['points.view'] },
            name: { before: null, after: 'everywhere' },
          },
          requestId: created.headers.get('x-request-id'),
        },
      );
      assert.deepEqual(await recordsOf(REALM, created.body.id), [], 'not in any one realm');
      // Only a key for every realm reads them: one bound to a realm is refused, whatever it holds.
      const bound = await admin.post('/api/admin/api-keys', { realm: REALM, permissions: ['*'], name: 'bound' });
      assert.equal(bound.status, 200, bound.text);
      const refused = await api(srv.http, bound.body.key).get('/api/admin/realms/*/audit');
      assert.equal(refused.status, 403, refused.text);
    });

    it("records a mapping batch as one mappings.batch_update with each row's changed fields, and a refused batch not at all", async () => {
      const batch = (updates: unknown[]) =>
        admin.put(`/api/bill/${REALM}/entitlement-mappings/batch`, { paymentProvider: 'stripe', externalProductId: 'price_audit', updates });
      const created = await batch([{ entitlementKey: 'pro', pointsPerPeriod: 10 }]);
      assert.equal(created.status, 200, created.text);
      const id = created.body.mappings[0].mappingId as string;
      const updated = await batch([
        { mappingId: id, pointsPerPeriod: 20 },
        { entitlementKey: 'team', pointsPerPeriod: 5 },
      ]);
      assert.equal(updated.status, 200, updated.text);
      assert.equal((await batch([{ mappingId: 'map_unknown', pointsPerPeriod: 1 }])).status, 404);
      const [second, first, ...rest] = await recordsOf(REALM, 'stripe/price_audit');
      assert.deepEqual(rest, [], 'the refused batch wrote nothing');
      assert.equal(first!.action, 'mappings.batch_update');
      assert.deepEqual(first!.changes[`${id}.pointsPerPeriod`], { before: null, after: 10 });
      assert.equal(second!.requestId, updated.headers.get('x-request-id'));
      const newId = updated.body.mappings[1].mappingId as string;
      assert.deepEqual(second!.changes[`${id}.pointsPerPeriod`], { before: 10, after: 20 });
      assert.equal(Object.keys(second!.changes).filter((k) => k.startsWith(`${id}.`)).length, 1, 'only the changed field');
      assert.deepEqual(second!.changes[`${newId}.entitlementKey`], { before: null, after: 'team' });
    });
    it('records a put of the points default configuration with each changed field, and a refused put not at all', async () => {
      const put = (body: Record<string, unknown>) => admin.put(`/api/points/${REALM}/default-config`, body);
      assert.equal((await put({ registrationBonusPoints: 50 })).status, 200);
      const second = await put({ registrationBonusPoints: 80, freePeriodicGrantPeriodType: 'daily', freePeriodicPointsAmount: 5 });
      assert.equal(second.status, 200, second.text);
      assert.equal((await put({ freePeriodicGrantPeriodType: 'hourly' })).status, 400);
      const res = await admin.get(`/api/admin/realms/${REALM}/audit?action=points_config.update`);
      assert.equal(res.status, 200, res.text);
      const [last, first, ...rest] = res.body.records as Array<Record<string, any>>;
      assert.deepEqual(rest, [], 'the refused put wrote nothing');
      assert.equal(first!.targetId, REALM);
      assert.deepEqual(JSON.parse(first!.changesJson).registrationBonusPoints.after, 50);
      assert.deepEqual(last!.actor, { type: 'api_key', id: adminKeyId });
      assert.equal(last!.requestId, second.headers.get('x-request-id'));
      assert.deepEqual(JSON.parse(last!.changesJson), {
        registrationBonusPoints: { before: 50, after: 80 },
        freePeriodicGrantPeriodType: { before: 'monthly', after: 'daily' },
        freePeriodicPointsAmount: { before: 0, after: 5 },
      });
    });
  });

  describe('the audit API’s filters (docs/events.md "The audit log")', () => {
    const FILTERED = 'audit-filters';
    interface Listed {
      auditId: string;
      at: string;
      action: string;
      actor: { type: string; id: string };
    }
    const list = async (query: string) => {
      const res = await admin.get(`/api/admin/realms/${FILTERED}/audit?${query}`);
      assert.equal(res.status, 200, res.text);
      return res.body.records as Listed[];
    };
    /** Waits for the next millisecond: each change then has a time of its own. */
    const nextMillisecond = async () => {
      const now = Date.now();
      while (Date.now() <= now) await new Promise((r) => setTimeout(r, 1));
    };
    let otherKeyId: string;

    before(async () => {
      assert.equal((await admin.post('/api/admin/realms', { id: FILTERED, name: 'Filtered' })).status, 200);
      await nextMillisecond();
      const other = await admin.post('/api/admin/api-keys', { realm: FILTERED, permissions: ['clients.manage'], name: 'other' });
      assert.equal(other.status, 200, other.text);
      otherKeyId = (await api(srv.http, other.body.key).get('/api/admin/whoami')).body.keyId;
      for (const [key, clientId] of [
        [other.body.key, 'by-other'],
        [srv.adminKey, 'by-admin'],
        [other.body.key, 'by-other-2'],
      ] as const) {
        await nextMillisecond();
        const made = await api(srv.http, key).post(`/api/admin/realms/${FILTERED}/clients`, {
          clientId,
          name: clientId,
          type: 'first_party',
          redirectUris: [],
        });
        assert.equal(made.status, 200, made.text);
      }
    });

    it('lists only the changes of one actor with actorId, and those before a time (exclusive) with until', async () => {
      const all = await list('');
      assert.deepEqual(
        all.map((r) => [r.action, r.actor.id]),
        [
          ['client.create', otherKeyId],
          ['client.create', adminKeyId],
          ['client.create', otherKeyId],
          ['api_key.create', adminKeyId],
          ['realm.create', adminKeyId],
        ],
      );
      const ids = (records: Listed[]) => records.map((r) => r.auditId);
      assert.deepEqual(ids(await list(`actorId=${otherKeyId}`)), ids([all[0]!, all[2]!]));
      assert.deepEqual(ids(await list(`actorId=${adminKeyId}`)), ids([all[1]!, all[3]!, all[4]!]));
      assert.deepEqual(await list('actorId=key_nobody'), []);
      // until is exclusive: a record's own time leaves it out, and keeps what came before it.
      assert.deepEqual(ids(await list(`until=${encodeURIComponent(all[1]!.at)}`)), ids(all.slice(2)));
      assert.deepEqual(ids(await list(`until=${encodeURIComponent(all[4]!.at)}`)), []);
      assert.deepEqual(ids(await list(`since=${encodeURIComponent(all[3]!.at)}&until=${encodeURIComponent(all[1]!.at)}`)), ids([all[2]!, all[3]!]));
      assert.deepEqual(ids(await list(`actorId=${adminKeyId}&until=${encodeURIComponent(all[0]!.at)}`)), ids([all[1]!, all[3]!, all[4]!]));
      assert.deepEqual(ids(await list(`actorId=${adminKeyId}&until=${encodeURIComponent(all[1]!.at)}`)), ids([all[3]!, all[4]!]));
    });

    it('answers a bad until or pageSize with a 400 naming the field, in the contract’s error body', async () => {
      for (const [query, field] of [
        ['until=yesterday', 'until'],
        ['until=2026-13-45T99:00:00Z', 'until'],
        ['until=1700000000000', 'until'],
        ['since=not-a-time', 'since'],
        ['pageSize=0', 'pageSize'],
        ['pageSize=201', 'pageSize'],
        ['pageSize=-1', 'pageSize'],
        ['pageSize=ten', 'pageSize'],
      ] as const) {
        const res = await admin.get(`/api/admin/realms/${FILTERED}/audit?${query}`);
        assert.equal(res.status, 400, `${query}: ${res.text}`);
        assert.deepEqual(
          { error: res.body.error, status: res.body.status, field: res.body.field },
          { error: 'bad_request', status: 400, field },
          `${query}: ${res.text}`,
        );
        assert.equal(typeof res.body.message, 'string', query);
        assert.match(res.body.requestId, /./, query);
      }
      assert.equal((await list('pageSize=200')).length, 5, 'the largest page is taken');
    });
  });
});
