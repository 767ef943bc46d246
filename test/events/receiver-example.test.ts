// The receiver README.md and docs/events.md give, run as written: it accepts what a real server
// delivers (signed per Standard Webhooks) and refuses a body altered on the way or signed with
// another secret.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { freePort } from '../helpers/free-port.ts';
import { api } from '../helpers/http.ts';
import { type SpawnedServer, spawnServer } from '../helpers/server.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The first ```js block after `heading` in the Markdown file `file`. */
function receiverOf(file: string, heading: RegExp): string {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const at = text.search(heading);
  assert.ok(at >= 0, `${file} has the heading ${heading}`);
  const block = /```js\n([\s\S]*?)```/.exec(text.slice(at));
  assert.ok(block, `${file} has a receiver after ${heading}`);
  return block[1]!;
}

async function listening(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '' }).then(
      () => true,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listens on ${port}`);
}

describe('the documented webhook receiver', () => {
  let srv: SpawnedServer;
  // Inside the repository, so the snippet's `standardwebhooks` resolves from its node_modules.
  mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, 'test-artifacts', 'receiver-'));
  const children: ChildProcess[] = [];
  before(async () => {
    srv = await spawnServer();
    assert.equal((await api(srv.http, srv.adminKey).post('/api/admin/realms', { id: 'docs', name: 'docs' })).status, 200);
  });
  after(async () => {
    for (const c of children) c.kill();
    await srv.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [file, heading] of [
    ['README.md', /^## Events and webhooks$/m],
    ['docs/events.md', /^### A receiver$/m],
  ] as const) {
    it(`${file}'s accepts a real delivery and refuses a body altered or signed with another secret`, async () => {
      const admin = api(srv.http, srv.adminKey);
      const port = await freePort();
      const hook = await admin.post('/api/admin/realms/docs/webhooks', { url: `http://127.0.0.1:${port}/hooks`, eventTypes: ['*'] });
      assert.equal(hook.status, 200, hook.text);
      const path = join(dir, `${file.replace(/\W/g, '-')}.mjs`);
      writeFileSync(path, receiverOf(file, heading));
      const child = spawn(process.execPath, [path], { env: { ...process.env, WEBHOOK_SECRET: hook.body.secret, PORT: String(port) }, stdio: 'ignore' });
      children.push(child);
      await listening(port);

      // A real delivery: the server records it delivered only on the receiver's 2xx.
      assert.equal((await admin.post(`/api/admin/realms/docs/webhooks/${hook.body.id}/test`, {})).status, 200);
      let delivered = 0;
      for (let i = 0; i < 200 && delivered === 0; i++) {
        await new Promise((r) => setTimeout(r, 50));
        delivered = (await admin.get(`/api/admin/realms/docs/webhooks/${hook.body.id}/deliveries?status=delivered`)).body.deliveries.length;
      }
      assert.equal(delivered, 1, 'the test event, accepted');

      // Straight to the receiver: signed right, then altered, then signed with another secret.
      const body = JSON.stringify({ id: 'evt_docs', type: 'webhook.test', realmId: 'docs', createdAt: new Date().toISOString(), data: {} });
      const signed = (secret: string, payload: string) => {
        const at = new Date();
        return {
          'content-type': 'application/json',
          'webhook-id': 'evt_docs',
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': new Webhook(secret).sign('evt_docs', at, payload),
        };
      };
      const send = (headers: Record<string, string>, payload: string) =>
        fetch(`http://127.0.0.1:${port}/hooks`, { method: 'POST', headers, body: payload }).then((r) => r.status);
      assert.equal(await send(signed(hook.body.secret, body), body), 204);
      assert.equal(await send(signed(hook.body.secret, body), body.replace('"data":{}', '"data":{"userId":"usr_x"}')), 400);
      const other = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
      assert.equal(await send(signed(other, body), body), 400);
    });
  }
});
