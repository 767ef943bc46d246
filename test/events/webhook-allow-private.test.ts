// --webhooks-allow-private as operators pass it (docs/events.md "Which URLs"): real `gatehouse
// serve` processes, one started with the flag and one without, and an https receiver on a
// loopback address that is not one of the literal loopback hosts (127.0.0.2, so the private-address
// rule applies to it; its self-signed certificate trusted by the servers through
// NODE_EXTRA_CA_CERTS). With the flag the URL is taken and the event delivered; without it the same
// URL is refused at registration and nothing is stored. (The check at delivery, which the flag
// lifts too, is test/events/webhooks.test.ts "refuses at delivery …".)
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { api } from '../helpers/http.ts';
import { type SpawnedServer, spawnServer, tempDir } from '../helpers/server.ts';
import { selfSignedCertificate } from '../helpers/tls.ts';

const REALM = 'private';
const ADDRESS = '127.0.0.2';

describe('--webhooks-allow-private', () => {
  const dir = tempDir('gatehouse-private-');
  const received: Array<{ headers: Record<string, string>; body: string }> = [];
  let https: Server;
  let url: string;
  let env: Record<string, string>;

  before(async () => {
    const { key, cert, certFile } = selfSignedCertificate(dir, ADDRESS, `IP:${ADDRESS}`);
    https = createServer({ key, cert }, (req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (d: string) => (body += d));
      req.on('end', () => {
        received.push({ headers: req.headers as Record<string, string>, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => https.listen(0, ADDRESS, r));
    url = `https://${ADDRESS}:${(https.address() as AddressInfo).port}/hook`;
    env = { NODE_EXTRA_CA_CERTS: certFile };
  });
  after(async () => {
    https.closeAllConnections();
    await new Promise<void>((r) => https.close(() => r()));
    rmSync(dir, { recursive: true, force: true });
  });

  async function serve(args: string[]): Promise<{ server: SpawnedServer; admin: ReturnType<typeof api> }> {
    const server = await spawnServer({ args, env });
    const admin = api(server.http, server.adminKey);
    assert.equal((await admin.post('/api/admin/realms', { id: REALM, name: 'Private' })).status, 200);
    return { server, admin };
  }

  it('with the flag, takes an https URL to a loopback address and delivers to it', async () => {
    const { server, admin } = await serve(['--webhooks-allow-private']);
    try {
      const hook = await admin.post(`/api/admin/realms/${REALM}/webhooks`, { url, eventTypes: ['webhook.test'] });
      assert.equal(hook.status, 200, hook.text);
      const test = await admin.post(`/api/admin/realms/${REALM}/webhooks/${hook.body.id}/test`, {});
      assert.equal(test.status, 200, test.text);
      // Its first attempt, once recorded (asked every 100 ms): delivered, not refused.
      let delivery: { status: string; attempts: Array<{ httpStatus: number; error: string }> } | undefined;
      while (!delivery?.attempts.length) {
        await sleep(100);
        [delivery] = (await admin.get(`/api/admin/realms/${REALM}/webhooks/${hook.body.id}/deliveries`)).body.deliveries;
      }
      assert.deepEqual([delivery.status, delivery.attempts[0]!.httpStatus, delivery.attempts[0]!.error], ['delivered', 204, '']);
      const [got] = received;
      const event = new Webhook(hook.body.secret).verify(got!.body, got!.headers) as { id: string; type: string };
      assert.equal(event.id, test.body.eventId);
      assert.equal(event.type, 'webhook.test');
    } finally {
      await server.stop();
    }
  });

  it('without it, refuses the same URL at registration with a 400 naming url, and stores nothing', async () => {
    const { server, admin } = await serve([]);
    try {
      const res = await admin.post(`/api/admin/realms/${REALM}/webhooks`, { url, eventTypes: ['webhook.test'] });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.error, 'bad_request');
      assert.equal(res.body.field, 'url');
      assert.match(res.body.message, /private, loopback/);
      assert.deepEqual((await admin.get(`/api/admin/realms/${REALM}/webhooks`)).body.webhooks, []);
      assert.equal((await admin.get(`/api/admin/realms/${REALM}/audit?action=webhook.create`)).body.records.length, 0);
    } finally {
      await server.stop();
    }
  });
});
