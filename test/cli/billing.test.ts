// `gatehouse billing …` against a real server with App Store root certificates
// (--app-store-root-certs), the CLI a child process: provider settings (the Stripe secret never
// printed), a notification listed as unmatched and replayed once its mapping exists.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeSigningChain, notificationPayload, signJws, transactionPayload } from '../helpers/app-store.ts';
import { runCli } from '../helpers/cli.ts';
import { api, http } from '../helpers/http.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';

const SECRET = 'whsec_Y2xpLXRlc3Qtc2VjcmV0LXZhbHVl';

describe('gatehouse billing', () => {
  const chain = makeSigningChain();
  let srv: InProcessServer;
  let env: Record<string, string>;
  let admin: ReturnType<typeof api>;

  before(async () => {
    srv = await startInProcess({ config: { appStoreRootCerts: chain.rootFile } });
    env = { GATEHOUSE_SERVER: srv.grpc, GATEHOUSE_API_KEY: srv.adminKey, GATEHOUSE_REALM: 'cli-bill' };
    admin = api(srv.http, srv.adminKey);
    assert.equal((await admin.post('/api/admin/realms', { id: 'cli-bill', name: 'CLI billing' })).status, 200);
  });
  after(() => srv.stop());

  it('sets the App Store and Stripe settings; no read shows the secret', async () => {
    const a = await runCli(
      ['billing', 'app-store', 'set', '--bundle-id', 'com.example.cli', '--app-apple-id', '42', '--environment', 'Production', '--environment', 'Sandbox'],
      {
        env,
      },
    );
    assert.equal(a.code, 0, a.stderr);
    assert.match(a.stdout, /bundle id com\.example\.cli, app Apple id 42, environments Production, Sandbox/);
    const s = await runCli(['billing', 'stripe', 'set', '--webhook-secret', SECRET, '--json'], { env });
    assert.equal(s.code, 0, s.stderr);
    assert.deepEqual(s.json().stripe, { webhookSecretSet: true });
    const shown = await runCli(['billing', 'providers'], { env });
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /endpoint secret set/);
    assert.ok(!`${s.stdout}${shown.stdout}`.includes(SECRET));
    const bad = await runCli(['billing', 'app-store', 'set', '--environment', 'Staging'], { env });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /environments/);
  });

  it('lists an unmatched notification and replays it once the mapping exists', async () => {
    const user = await admin.post('/api/admin/realms/cli-bill/users', { email: 'cli-bill@example.com' });
    const token = user.body.appAccountToken as string;
    const tx = signJws(chain, transactionPayload({ bundleId: 'com.example.cli', environment: 'Sandbox', productId: 'cli.pro', appAccountToken: token }));
    const signedPayload = signJws(
      chain,
      notificationPayload({ notificationType: 'SUBSCRIBED', bundleId: 'com.example.cli', environment: 'Sandbox', signedTransactionInfo: tx }),
    );
    const sent = await http(srv.http, 'POST', '/api/bill/cli-bill/app-store/notifications', { body: { signedPayload } });
    assert.equal(sent.body.status, 'unmatched', sent.text);
    const listed = await runCli(['billing', 'notifications', 'list', '--status', 'unmatched', '--json'], { env });
    assert.equal(listed.code, 0, listed.stderr);
    const [n] = listed.json().notifications;
    assert.equal(n.notificationId, sent.body.notificationId);
    assert.match(n.reason, /cli\.pro/);
    const mapped = await admin.put('/api/bill/cli-bill/entitlement-mappings/batch', {
      paymentProvider: 'app_store',
      externalProductId: 'cli.pro',
      updates: [{ entitlementKey: 'pro', quotaWindows: [{ windowSeconds: 3600, limit: 10 }] }],
    });
    assert.equal(mapped.status, 200, mapped.text);
    const replayed = await runCli(['billing', 'notifications', 'replay', n.notificationId], { env });
    assert.equal(replayed.code, 0, replayed.stderr);
    assert.match(replayed.stdout, /^status:\s+applied$/m);
    const table = await runCli(['billing', 'notifications', 'list'], { env });
    assert.match(table.stdout, new RegExp(`${n.notificationId}.*SUBSCRIBED.*applied`));
  });
});
