// Webhooks end to end (docs/events.md): endpoints managed over HTTP and gRPC,
// the URL rules against a resolver with fixed answers (never the internet), deliveries to
// receivers on loopback verified with the standardwebhooks package (not our code), failures
// retried without blocking other endpoints, and the audit API. The queue's time is the server's
// manual clock: the test moves it and runs the queue's round itself.
import assert from 'node:assert/strict';
import { after, before, describe, it, mock } from 'node:test';
import { status } from '@grpc/grpc-js';
import { Webhook } from 'standardwebhooks';
import { ManualClock } from '../../server/lib/clock.ts';
import { describeEachBackend } from '../helpers/backends.ts';
import { EVENT_TYPES_DOCUMENTED } from '../helpers/event-types.ts';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { api } from '../helpers/http.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';
import { receiver } from '../helpers/webhook-receiver.ts';
import { T0 } from '../store/contract.ts';

const REALM = 'hooks';
const DAY = 86_400_000;

/** Fixed answers for names the tests use; any other name does not resolve. */
const ANSWERS: Record<string, string> = {
  'hooks.example': '203.0.113.7',
  'internal.test': '127.0.0.1',
  'metadata.test': '169.254.169.254',
  'private.test': '10.1.2.3',
  'v6local.test': 'fd00::1',
};
const answers = { ...ANSWERS };
const resolveHost = async (host: string) => {
  const address = answers[host];
  if (!address) throw new Error(`ENOTFOUND ${host}`);
  return [{ address, family: address.includes(':') ? 6 : 4 }];
};

/** An https URL to a public host of exactly `length` characters (docs/events.md "Which URLs": at most 2 048). */
const urlOfLength = (length: number) => {
  const base = 'https://hooks.example/';
  return base + 'a'.repeat(length - base.length);
};

describeEachBackend('webhooks', (backend) => {
  const clock = new ManualClock(T0);
  /** standardwebhooks' verify, which checks the timestamp against Date.now(), as of `now` (the
   *  server's clock unless told): node's Date is set to it for the call alone, which is synchronous. */
  const verifyAt = (secret: string, body: string, headers: Record<string, string>, now = clock.now()) => {
    mock.timers.enable({ apis: ['Date'], now });
    try {
      return new Webhook(secret).verify(body, headers);
    } finally {
      mock.timers.reset();
    }
  };
  let server: InProcessServer;
  let admin: ReturnType<typeof api>;
  const runQueue = () => server.running.app.jobs.runOnce();

  before(async () => {
    server = await startInProcess({ backend, clock, tuning: { jobIntervalMs: 3_600_000, resolveHost, webhookTimeoutMs: 500 } });
    admin = api(server.http, server.adminKey);
    assert.equal((await admin.post('/api/admin/realms', { id: REALM, name: 'Hooks' })).status, 200);
  });
  after(async () => {
    if (process.env.SHOW_LOGS)
      console.error(
        server
          .logs()
          .split('\n')
          .filter((l) => l.includes('"error"'))
          .join('\n'),
      );
    closeGrpcClients();
    await server.stop();
  });

  const hooks = `/api/admin/realms/${REALM}/webhooks`;
  async function deliveries(id: string, query = '') {
    const res = await admin.get(`${hooks}/${id}/deliveries${query}`);
    assert.equal(res.status, 200, res.text);
    return res.body as { deliveries: Array<Record<string, any>>; nextPageToken: string };
  }

  describe('endpoints', () => {
    it('creates an endpoint whose secret is shown once, then reads, lists, updates and deletes it', async () => {
      const created = await admin.post(hooks, { url: 'https://hooks.example/in', eventTypes: ['user.deleted'], description: 'crm' });
      assert.equal(created.status, 200, created.text);
      assert.match(created.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.equal(Buffer.from(created.body.secret.slice(6), 'base64').length, 32);
      assert.equal(created.body.enabled, true);
      const id = created.body.id as string;
      const read = await admin.get(`${hooks}/${id}`);
      assert.equal(read.body.secret, '');
      assert.equal(read.body.url, 'https://hooks.example/in');
      assert.ok((await admin.get(hooks)).body.webhooks.some((w: { id: string; secret: string }) => w.id === id && w.secret === ''));
      const patched = await admin.patch(`${hooks}/${id}`, { eventTypes: ['*'], enabled: false });
      assert.equal(patched.status, 200, patched.text);
      assert.deepEqual(patched.body.eventTypes, ['*']);
      assert.equal(patched.body.enabled, false);
      assert.equal(patched.body.description, 'crm');
      assert.equal((await admin.delete(`${hooks}/${id}`)).status, 200);
      assert.equal((await admin.get(`${hooks}/${id}`)).status, 404);
    });

    it('refuses an unknown event type with a 400 naming eventTypes, and creates nothing', async () => {
      const before = (await admin.get(hooks)).body.webhooks.length;
      for (const eventTypes of [['user.exploded'], [], ['*', 'user.deleted']]) {
        const res = await admin.post(hooks, { url: 'https://hooks.example/in', eventTypes });
        assert.equal(res.status, 400, JSON.stringify(eventTypes));
        assert.equal(res.body.error, 'bad_request');
        assert.equal(res.body.field, 'eventTypes');
      }
      assert.equal((await admin.get(hooks)).body.webhooks.length, before);
    });

    it('manages endpoints over gRPC too, with webhooks.manage', async () => {
      const created = await grpcCall(
        server.grpc,
        'AdminService',
        'CreateWebhook',
        { realmId: REALM, url: 'https://hooks.example/g', eventTypes: ['webhook.test'] },
        server.adminKey,
      );
      assert.ok(created.ok);
      assert.match(created.value.secret, /^whsec_/);
      const listed = await grpcCall(server.grpc, 'AdminService', 'ListWebhooks', { realmId: REALM }, server.adminKey);
      assert.ok(listed.ok);
      assert.ok(listed.value.webhooks.some((w: { id: string; secret: string }) => w.id === created.value.id && w.secret === ''));
      const unknown = await grpcCall(
        server.grpc,
        'AdminService',
        'CreateWebhook',
        { realmId: REALM, url: 'https://hooks.example/g', eventTypes: ['nope'] },
        server.adminKey,
      );
      assert.ok(!unknown.ok);
      assert.equal(unknown.error.code, status.INVALID_ARGUMENT);
      assert.equal(unknown.error.reason, 'bad_request');
      assert.ok((await grpcCall(server.grpc, 'AdminService', 'DeleteWebhook', { realmId: REALM, webhookId: created.value.id }, server.adminKey)).ok);
    });

    it('accepts by name each documented event type, alone and all together, and no other', async () => {
      for (const type of EVENT_TYPES_DOCUMENTED) {
        const res = await admin.post(hooks, { url: 'https://hooks.example/in', eventTypes: [type], enabled: false });
        assert.equal(res.status, 200, `${type}: ${res.text}`);
        assert.deepEqual(res.body.eventTypes, [type]);
        await admin.delete(`${hooks}/${res.body.id}`);
      }
      const all = await admin.post(hooks, { url: 'https://hooks.example/in', eventTypes: EVENT_TYPES_DOCUMENTED, enabled: false });
      assert.equal(all.status, 200, all.text);
      assert.deepEqual((await admin.get(`${hooks}/${all.body.id}`)).body.eventTypes, EVENT_TYPES_DOCUMENTED);
      await admin.delete(`${hooks}/${all.body.id}`);
      const before = (await admin.get(hooks)).body.webhooks.length;
      for (const near of ['user.*', 'User.created', 'points', 'session.revoked.admin', 'webhook.test ', 'points.alert']) {
        const res = await admin.post(hooks, { url: 'https://hooks.example/in', eventTypes: [near] });
        assert.equal(res.status, 400, near);
        assert.equal(res.body.field, 'eventTypes');
      }
      assert.equal((await admin.get(hooks)).body.webhooks.length, before);
    });

    it('refuses a PATCH with a bad url or an unknown event type with a 400, and leaves the endpoint as it was', async () => {
      const created = await admin.post(hooks, { url: 'https://hooks.example/kept', eventTypes: ['user.deleted'], description: 'kept', enabled: false });
      assert.equal(created.status, 200, created.text);
      const id = created.body.id as string;
      const stored = (await admin.get(`${hooks}/${id}`)).body;
      const refused: Array<[Record<string, unknown>, string]> = [
        [{ url: 'http://hooks.example/in' }, 'url'],
        [{ url: 'https://private.test/in', description: 'changed' }, 'url'],
        [{ url: `https://hooks.example/${'a'.repeat(2048)}` }, 'url'],
        [{ url: 'https://user:pass@hooks.example/in', enabled: true }, 'url'],
        [{ eventTypes: ['user.exploded'] }, 'eventTypes'],
        [{ eventTypes: [] }, 'eventTypes'],
        [{ eventTypes: ['*', 'user.deleted'], description: 'changed' }, 'eventTypes'],
      ];
      for (const [patch, field] of refused) {
        const res = await admin.patch(`${hooks}/${id}`, patch);
        assert.equal(res.status, 400, `${JSON.stringify(patch)}: ${res.text}`);
        assert.equal(res.body.error, 'bad_request');
        assert.equal(res.body.field, field);
        assert.deepEqual((await admin.get(`${hooks}/${id}`)).body, stored, JSON.stringify(patch));
      }
      const updates = await admin.get(`/api/admin/realms/${REALM}/audit?action=webhook.update&targetId=${id}`);
      assert.deepEqual(updates.body.records, [], 'no refused PATCH is recorded');
      await admin.delete(`${hooks}/${id}`);
    });

    it('asks for webhooks.manage, and for audit.view to read the audit log', async () => {
      const key = (await admin.post('/api/admin/api-keys', { realm: REALM, permissions: ['users.manage'], name: 'weak' })).body.key as string;
      assert.equal((await admin.get(hooks, undefined, { key })).status, 403);
      assert.equal((await admin.get(`/api/admin/realms/${REALM}/audit`, undefined, { key })).status, 403);
    });
  });

  describe('URL rules', () => {
    const refused: Array<[string, string]> = [
      ['file:///etc/passwd', 'a file URL'],
      ['ftp://hooks.example/in', 'another scheme'],
      ['http://hooks.example/in', 'http to a host that is not a literal loopback'],
      ['https://user:pass@hooks.example/in', 'userinfo'],
      [urlOfLength(2049), 'a URL of 2 049 characters'],
      ['https://internal.test/in', 'a name resolving to loopback'],
      ['https://metadata.test/in', 'a name resolving to a link-local address'],
      ['https://private.test/in', 'a name resolving to a private address'],
      ['https://v6local.test/in', 'a name resolving to an IPv6 unique local address'],
      ['https://10.0.0.1/in', 'a literal private address'],
      ['https://[::]/in', 'the unspecified address'],
      ['https://nowhere.test/in', 'a name that does not resolve'],
      ['not a url', 'no URL at all'],
    ];
    for (const [url, what] of refused) {
      it(`refuses ${what} at registration with a 400 naming url, and stores nothing`, async () => {
        const before = (await admin.get(hooks)).body.webhooks;
        const res = await admin.post(hooks, { url, eventTypes: ['*'] });
        assert.equal(res.status, 400, res.text);
        assert.equal(res.body.error, 'bad_request');
        assert.equal(res.body.field, 'url');
        assert.deepEqual((await admin.get(hooks)).body.webhooks, before);
      });
    }

    const accepted = ['http://127.0.0.1:9/in', 'http://localhost:9/in', 'http://[::1]:9/in', 'https://hooks.example/in'].map((url) => [url, url]);
    for (const [url, what] of [...accepted, [urlOfLength(2048), 'a URL of exactly 2 048 characters']]) {
      it(`accepts ${what}`, async () => {
        const res = await admin.post(hooks, { url, eventTypes: ['*'], enabled: false });
        assert.equal(res.status, 200, res.text);
        assert.equal((await admin.get(`${hooks}/${res.body.id}`)).body.url, url);
        await admin.delete(`${hooks}/${res.body.id}`);
      });
    }

    for (const [address, what] of [
      ['169.254.169.254', 'a link-local'],
      ['127.0.0.1', 'a loopback'],
    ]) {
      it(`refuses at delivery a host that has come to resolve to ${what} address: the attempt fails, nothing is sent`, async () => {
        const created = await admin.post(hooks, { url: 'https://hooks.example/later', eventTypes: ['webhook.test'] });
        answers['hooks.example'] = address!;
        try {
          const test = await admin.post(`${hooks}/${created.body.id}/test`, {});
          assert.equal(test.status, 200, test.text);
          await runQueue();
          const [d] = (await deliveries(created.body.id)).deliveries;
          assert.equal(d!.status, 'pending');
          assert.equal(d!.attempts.length, 1);
          assert.equal(d!.attempts[0].httpStatus, 0);
          assert.match(d!.attempts[0].error, new RegExp(`private.*\\(${address!.replace(/\./g, '\\.')}\\)`));
        } finally {
          answers['hooks.example'] = ANSWERS['hooks.example']!;
          await admin.delete(`${hooks}/${created.body.id}`);
        }
      });
    }
  });

  describe('delivery', () => {
    it('delivers an outbox event signed per Standard Webhooks, verified by the standardwebhooks package', async () => {
      const r = await receiver();
      try {
        const created = await admin.post(hooks, { url: r.url, eventTypes: ['user.deleted'] });
        const user = await admin.post(`/api/admin/realms/${REALM}/users`, { email: 'gone@example.com' });
        assert.equal((await admin.delete(`/api/admin/realms/${REALM}/users/${user.body.id}`)).status, 200);
        await runQueue();
        assert.equal(r.received.length, 1, 'one event subscribed to: user.deleted, not session.revoked');
        const [got] = r.received;
        const verified = verifyAt(created.body.secret, got!.body, got!.headers) as Record<string, any>;
        assert.equal(verified.type, 'user.deleted');
        assert.equal(verified.realmId, REALM);
        assert.equal(verified.data.userId, user.body.id);
        assert.equal(got!.headers['webhook-id'], verified.id);
        assert.match(verified.id, /^evt_/);
        const [d] = (await deliveries(created.body.id)).deliveries;
        assert.equal(d!.status, 'delivered');
        assert.equal(d!.attempts[0].httpStatus, 204);
        assert.equal(d!.attempts[0].error, '');
        await admin.delete(`${hooks}/${created.body.id}`);
      } finally {
        await r.close();
      }
    });

    it('signs with both secrets for 24 hours after a rotation, then with the new one alone', async () => {
      const r = await receiver();
      try {
        const created = await admin.post(hooks, { url: r.url, eventTypes: ['webhook.test'] });
        const rotated = await admin.post(`${hooks}/${created.body.id}/rotate-secret`, {});
        assert.equal(rotated.status, 200, rotated.text);
        assert.notEqual(rotated.body.secret, created.body.secret);
        await admin.post(`${hooks}/${created.body.id}/test`, {});
        await runQueue();
        const got = r.received.at(-1)!;
        assert.equal(got.headers['webhook-signature']!.split(' ').length, 2);
        verifyAt(created.body.secret, got.body, got.headers);
        verifyAt(rotated.body.secret, got.body, got.headers);
        assert.equal(JSON.parse(got.body).type, 'webhook.test');
        clock.advance(DAY);
        try {
          await admin.post(`${hooks}/${created.body.id}/test`, {});
          await runQueue();
          const later = r.received.at(-1)!;
          assert.equal(later.headers['webhook-signature']!.split(' ').length, 1);
          // The new secret alone: the old one no longer verifies it.
          verifyAt(rotated.body.secret, later.body, later.headers);
          assert.throws(() => verifyAt(created.body.secret, later.body, later.headers), /No matching signature/);
        } finally {
          clock.advance(-DAY);
        }
        await admin.delete(`${hooks}/${created.body.id}`);
      } finally {
        await r.close();
      }
    });

    for (const mode of ['500', 'hang', 'redirect', 'huge', 'reset'] as const) {
      it(`retries a receiver that ${mode === '500' ? 'answers 500' : mode === 'hang' ? 'never answers' : mode === 'redirect' ? 'redirects' : mode === 'huge' ? 'sends 10 MiB' : 'resets the connection'}, without holding up another endpoint`, async () => {
        const bad = await receiver();
        const good = await receiver();
        bad.mode = mode;
        try {
          const badHook = await admin.post(hooks, { url: bad.url, eventTypes: ['user.deleted'] });
          const goodHook = await admin.post(hooks, { url: good.url, eventTypes: ['user.deleted'] });
          const user = await admin.post(`/api/admin/realms/${REALM}/users`, { email: `${mode}@example.com` });
          await admin.delete(`/api/admin/realms/${REALM}/users/${user.body.id}`);
          await runQueue();
          assert.equal(good.received.length, 1);
          assert.equal(bad.received.length, 1);
          if (mode === 'redirect') assert.equal(bad.received.length, 1, 'the redirect is not followed');
          const [first] = (await deliveries(badHook.body.id)).deliveries;
          assert.equal(first!.status, 'pending');
          assert.notEqual(first!.attempts[0].error, '');
          const next = Date.parse(first!.nextAttemptAt);
          assert.ok(next - clock.now() <= 10_000, 'the first retry comes within 10 s');
          bad.mode = 'ok';
          clock.set(next);
          await runQueue();
          assert.equal(bad.received.length, 2);
          assert.equal(bad.received[0]!.headers['webhook-id'], bad.received[1]!.headers['webhook-id'], 'the same webhook-id on every retry');
          const [second] = (await deliveries(badHook.body.id)).deliveries;
          assert.equal(second!.status, 'delivered');
          assert.equal(second!.attempts.length, 2);
          await admin.delete(`${hooks}/${badHook.body.id}`);
          await admin.delete(`${hooks}/${goodHook.body.id}`);
        } finally {
          await bad.close();
          await good.close();
        }
      });
    }

    for (const status of [302, 307, 308]) {
      it(`follows no redirect (HTTP ${status}) to another loopback receiver: it receives nothing, and the attempt fails naming the redirect`, async () => {
        const redirecting = await receiver();
        const target = await receiver();
        redirecting.mode = 'redirect';
        redirecting.redirect.status = status;
        redirecting.redirect.location = target.url;
        try {
          const hook = await admin.post(hooks, { url: redirecting.url, eventTypes: ['webhook.test'] });
          assert.equal(hook.status, 200, hook.text);
          assert.equal((await admin.post(`${hooks}/${hook.body.id}/test`, {})).status, 200);
          await runQueue();
          const [first] = (await deliveries(hook.body.id)).deliveries;
          clock.set(Date.parse(first!.nextAttemptAt));
          await runQueue(); // the retry is not followed either
          assert.equal(redirecting.received.length, 2);
          assert.deepEqual(target.received, [], 'the redirect target was never sent anything');
          const [d] = (await deliveries(hook.body.id)).deliveries;
          assert.equal(d!.status, 'pending');
          assert.deepEqual(
            d!.attempts.map((a: Record<string, unknown>) => [a.httpStatus, a.error]),
            [
              [status, `redirect (HTTP ${status}) not followed`],
              [status, `redirect (HTTP ${status}) not followed`],
            ],
          );
          await admin.delete(`${hooks}/${hook.body.id}`);
        } finally {
          clock.set(T0);
          await redirecting.close();
          await target.close();
        }
      });
    }

    it('gives a delivery up after 3 days of failures, and redelivers it on request', async () => {
      const r = await receiver();
      r.mode = '500';
      try {
        const hook = await admin.post(hooks, { url: r.url, eventTypes: ['webhook.test'] });
        const test = await admin.post(`${hooks}/${hook.body.id}/test`, {});
        const start = clock.now();
        await runQueue();
        for (;;) {
          const [d] = (await deliveries(hook.body.id)).deliveries;
          if (d!.status !== 'pending') break;
          clock.set(Date.parse(d!.nextAttemptAt));
          await runQueue();
        }
        const [given] = (await deliveries(hook.body.id, '?status=failed')).deliveries;
        assert.equal(given!.id, test.body.deliveryId);
        assert.ok(clock.now() - start >= 3 * DAY && clock.now() - start < 3 * DAY + 60_000);
        r.mode = 'ok';
        const again = await admin.post(`${hooks}/${hook.body.id}/deliveries/${given!.id}/redeliver`, {});
        assert.equal(again.status, 200, again.text);
        await runQueue();
        const [latest] = (await deliveries(hook.body.id, '?status=delivered')).deliveries;
        assert.equal(latest!.id, again.body.id);
        assert.equal(r.received.at(-1)!.headers['webhook-id'], test.body.eventId);
        await admin.delete(`${hooks}/${hook.body.id}`);
      } finally {
        clock.set(T0);
        await r.close();
      }
    });
  });

  describe('deliveries API', () => {
    it("pages an endpoint's deliveries newest first with pageToken, refuses a bad token, and gives each attempt its time and duration", async () => {
      const r = await receiver();
      r.delayMs = 300;
      const start = clock.now();
      try {
        const hook = await admin.post(hooks, { url: r.url, eventTypes: ['webhook.test'] });
        const made: string[] = [];
        for (let i = 0; i < 3; i++) {
          clock.set(start + i * 60_000);
          made.push((await admin.post(`${hooks}/${hook.body.id}/test`, {})).body.deliveryId);
          await runQueue();
          r.delayMs = 0;
        }
        assert.equal(r.received.length, 3);
        const page1 = await deliveries(hook.body.id, '?pageSize=2');
        assert.deepEqual(
          page1.deliveries.map((d) => d.id),
          [made[2], made[1]],
        );
        assert.notEqual(page1.nextPageToken, '');
        const page2 = await deliveries(hook.body.id, `?pageSize=2&pageToken=${page1.nextPageToken}`);
        assert.deepEqual(
          page2.deliveries.map((d) => d.id),
          [made[0]],
        );
        assert.equal(page2.nextPageToken, '', 'the last page has no token');
        const whole = await deliveries(hook.body.id, '?pageSize=3');
        assert.equal(whole.nextPageToken, '', 'a page holding the rest exactly is the last');

        // Each attempt at the time it was sent, as the receiver's webhook-timestamp says (the
        // server's clock, in seconds), and lasting at least the receiver's delay.
        const attemptOf = (id: string) => [...page1.deliveries, ...page2.deliveries].find((d) => d.id === id)!.attempts[0];
        made.forEach((id, i) => {
          const attempt = attemptOf(id);
          const sentAt = Number(r.received[i]!.headers['webhook-timestamp']) * 1000;
          const at = Date.parse(attempt.at);
          assert.ok(at >= sentAt && at < sentAt + 1000, `${attempt.at} is the sending time ${sentAt}`);
          assert.equal(at, start + i * 60_000);
          assert.equal(attempt.httpStatus, 204);
        });
        assert.ok(attemptOf(made[0]!).durationMs >= 300, `the delayed answer took ${attemptOf(made[0]!).durationMs} ms`);

        const otherListing = (await deliveries(hook.body.id, '?status=delivered&pageSize=1')).nextPageToken;
        assert.notEqual(otherListing, '');
        for (const token of ['nonsense!', 'bm9wZQ', otherListing, page1.nextPageToken.slice(0, -2)]) {
          const bad = await admin.get(`${hooks}/${hook.body.id}/deliveries?pageSize=2&pageToken=${token}`);
          assert.equal(bad.status, 400, `${token}: ${bad.text}`);
          assert.equal(bad.body.error, 'bad_request');
          assert.equal(bad.body.status, 400);
          assert.equal(bad.body.field, 'pageToken');
          assert.equal(typeof bad.body.message, 'string');
          assert.match(bad.body.requestId, /\S/);
        }
        await admin.delete(`${hooks}/${hook.body.id}`);
      } finally {
        clock.set(T0);
        await r.close();
      }
    });
  });

  describe('endpoint health', () => {
    it('disables an endpoint that has failed everything for 5 days, with a webhook.disable audit record by gatehouse', async () => {
      const r = await receiver();
      r.mode = '500';
      const start = clock.now();
      try {
        const hook = await admin.post(hooks, { url: r.url, eventTypes: ['webhook.test'] });
        await admin.post(`${hooks}/${hook.body.id}/test`, {});
        let second = false;
        await runQueue();
        while ((await admin.get(`${hooks}/${hook.body.id}`)).body.enabled) {
          if (!second && clock.now() - start > 2.5 * DAY) {
            second = true; // a delivery that outlives the first one's 3 days
            await admin.post(`${hooks}/${hook.body.id}/test`, {});
          }
          const pending = (await deliveries(hook.body.id, '?status=pending')).deliveries;
          assert.ok(pending.length > 0, 'something still to attempt');
          clock.set(Math.min(...pending.map((d) => Date.parse(d.nextAttemptAt))));
          await runQueue();
        }
        assert.ok(clock.now() - start >= 5 * DAY && clock.now() - start < 5 * DAY + 7 * 3_600_000);
        const audit = await admin.get(`/api/admin/realms/${REALM}/audit?action=webhook.disable&targetId=${hook.body.id}`);
        assert.equal(audit.body.records.length, 1);
        assert.deepEqual(audit.body.records[0].actor, { type: 'system', id: 'gatehouse' });
        assert.deepEqual(JSON.parse(audit.body.records[0].changesJson).enabled, { before: true, after: false });
        const sent = r.received.length;
        await admin.post(`${hooks}/${hook.body.id}/test`, {});
        await runQueue();
        assert.equal(r.received.length, sent, 'nothing sent to a disabled endpoint');
        await admin.delete(`${hooks}/${hook.body.id}`);
      } finally {
        clock.set(T0);
        await r.close();
      }
    });
  });

  describe('/metrics', () => {
    it('shows the outbox depth, its oldest pending age and attempts by outcome and endpoint', async () => {
      const r = await receiver();
      try {
        const hook = await admin.post(hooks, { url: r.url, eventTypes: ['user.deleted'] });
        const user = await admin.post(`/api/admin/realms/${REALM}/users`, { email: 'metrics@example.com' });
        await admin.delete(`/api/admin/realms/${REALM}/users/${user.body.id}`);
        const metricValue = (text: string, name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1]);
        clock.advance(30_000);
        const waiting = (await admin.get('/metrics')).text;
        assert.ok(metricValue(waiting, 'gatehouse_outbox_depth') >= 1, waiting.slice(0, 200));
        assert.ok(metricValue(waiting, 'gatehouse_outbox_oldest_pending_age_seconds') >= 30);
        await runQueue();
        const after = (await admin.get('/metrics')).text;
        assert.equal(metricValue(after, 'gatehouse_outbox_depth'), 0);
        assert.equal(metricValue(after, 'gatehouse_outbox_oldest_pending_age_seconds'), 0);
        assert.match(after, new RegExp(`gatehouse_webhook_deliveries_total\\{outcome="delivered",webhook_id="${hook.body.id}"\\} 1`));
        await admin.delete(`${hooks}/${hook.body.id}`);
      } finally {
        await r.close();
      }
    });
  });

  describe('/metrics by outcome', () => {
    it('counts each failed attempt of a delivery as retry and the last one, given up, as failed', async () => {
      const r = await receiver();
      r.mode = '500';
      try {
        const hook = await admin.post(hooks, { url: r.url, eventTypes: ['webhook.test'] });
        const counted = async (outcome: string) => {
          const text = (await admin.get('/metrics')).text;
          const m = new RegExp(`^gatehouse_webhook_deliveries_total\\{outcome="${outcome}",webhook_id="${hook.body.id}"\\} (\\d+)$`, 'm').exec(text);
          return m ? Number(m[1]) : 0;
        };
        await admin.post(`${hooks}/${hook.body.id}/test`, {});
        await runQueue();
        assert.equal(await counted('retry'), 1);
        assert.equal(await counted('failed'), 0);
        for (;;) {
          const [d] = (await deliveries(hook.body.id)).deliveries;
          if (d!.status !== 'pending') break;
          clock.set(Date.parse(d!.nextAttemptAt));
          await runQueue();
        }
        const [given] = (await deliveries(hook.body.id)).deliveries;
        assert.equal(given!.status, 'failed');
        assert.equal(await counted('failed'), 1);
        assert.equal(await counted('retry'), given!.attempts.length - 1);
        assert.equal(await counted('delivered'), 0);
        await admin.delete(`${hooks}/${hook.body.id}`);
      } finally {
        clock.set(T0);
        await r.close();
      }
    });
  });

  describe('--webhooks-allow-private', () => {
    it('accepts a host resolving to a private address, still only over https', async () => {
      const open = await startInProcess({ backend, config: { webhooksAllowPrivate: true }, tuning: { jobIntervalMs: 3_600_000, resolveHost } });
      try {
        const client = api(open.http, open.adminKey);
        await client.post('/api/admin/realms', { id: REALM, name: 'Hooks' });
        const res = await client.post(`/api/admin/realms/${REALM}/webhooks`, { url: 'https://metadata.test/in', eventTypes: ['*'] });
        assert.equal(res.status, 200, res.text);
        assert.equal((await client.post(`/api/admin/realms/${REALM}/webhooks`, { url: 'http://internal.test/in', eventTypes: ['*'] })).status, 400);
      } finally {
        await open.stop();
      }
    });
  });

  describe('audit API', () => {
    it('lists webhook changes newest first with the secret redacted, filtered and paged', async () => {
      const hook = await admin.post(hooks, { url: 'https://hooks.example/audit', eventTypes: ['*'] });
      await admin.patch(`${hooks}/${hook.body.id}`, { description: 'changed' });
      await admin.post(`${hooks}/${hook.body.id}/rotate-secret`, {});
      const all = await admin.get(`/api/admin/realms/${REALM}/audit?targetId=${hook.body.id}`);
      assert.equal(all.status, 200, all.text);
      const actions = all.body.records.map((r: { action: string }) => r.action);
      assert.deepEqual(actions, ['webhook.rotate_secret', 'webhook.update', 'webhook.create']);
      const create = all.body.records[2];
      assert.equal(JSON.parse(create.changesJson).secret.after, '[redacted]');
      assert.ok(!all.text.includes(hook.body.secret), 'no secret in the audit log');
      assert.equal(create.actor.type, 'api_key');
      const page1 = await admin.get(`/api/admin/realms/${REALM}/audit?targetId=${hook.body.id}&pageSize=2`);
      assert.equal(page1.body.records.length, 2);
      const page2 = await admin.get(`/api/admin/realms/${REALM}/audit?targetId=${hook.body.id}&pageSize=2&pageToken=${page1.body.nextPageToken}`);
      assert.deepEqual(
        page2.body.records.map((r: { action: string }) => r.action),
        ['webhook.create'],
      );
      assert.equal(page2.body.nextPageToken, '');
      const onlyUpdates = await admin.get(`/api/admin/realms/${REALM}/audit?action=webhook.update&targetId=${hook.body.id}`);
      assert.equal(onlyUpdates.body.records.length, 1);
      const future = '2100-01-01T00:00:00Z';
      assert.equal((await admin.get(`/api/admin/realms/${REALM}/audit?since=${future}`)).body.records.length, 0);
      const bad = await admin.get(`/api/admin/realms/${REALM}/audit?since=yesterday`);
      assert.equal(bad.status, 400);
      assert.equal(bad.body.field, 'since');
      assert.equal((await admin.get(`/api/admin/realms/${REALM}/audit?pageToken=nonsense!`)).status, 400);
    });
  });
  describe('retention', () => {
    it('prunes handed-out events with their deliveries after 30 days, keeping pending ones, and audit records after 400 days', async () => {
      const r = await receiver();
      const start = clock.now();
      try {
        const hook = await admin.post(hooks, { url: r.url, eventTypes: ['webhook.test'] });
        await admin.post(`${hooks}/${hook.body.id}/test`, {});
        await runQueue();
        assert.equal((await deliveries(hook.body.id, '?status=delivered')).deliveries.length, 1);
        clock.set(start + 29 * DAY);
        r.mode = '500';
        await admin.post(`${hooks}/${hook.body.id}/test`, {});
        await runQueue(); // a second delivery, still pending
        await server.running.sweeper.runOnce();
        assert.equal((await deliveries(hook.body.id)).deliveries.length, 2, 'nothing is 30 days old yet');
        clock.set(start + 31 * DAY);
        const swept = await server.running.sweeper.runOnce();
        assert.ok(swept.events! >= 1);
        const left = (await deliveries(hook.body.id)).deliveries;
        assert.deepEqual(
          left.map((d) => d.status),
          ['pending'],
        );
        assert.equal((await admin.get(`/api/admin/realms/${REALM}/audit?targetId=${hook.body.id}`)).body.records.length, 1);
        clock.set(start + 401 * DAY);
        assert.ok((await server.running.sweeper.runOnce()).audit! >= 1);
        assert.equal((await admin.get(`/api/admin/realms/${REALM}/audit?targetId=${hook.body.id}`)).body.records.length, 0);
        await admin.delete(`${hooks}/${hook.body.id}`);
      } finally {
        clock.set(T0);
        await r.close();
      }
    });
  });
});
