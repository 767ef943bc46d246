// `gatehouse points show|grant|consume` and `gatehouse subscriptions create|cancel`
// against a real server.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { api } from '../helpers/http.ts';
import { type SpawnedServer, spawnServer } from '../helpers/server.ts';
import { createMapping, createRealm, createUser, w } from './helpers.ts';

describe('points and subscriptions commands', () => {
  let srv: SpawnedServer;
  let env: Record<string, string>;
  before(async () => {
    srv = await spawnServer();
    env = { GATEHOUSE_SERVER: srv.grpc, GATEHOUSE_API_KEY: srv.adminKey, GATEHOUSE_REALM: 'cli' };
  });
  after(async () => {
    await srv.stop();
  });

  it('subscribes, grants, consumes and shows, as text and as JSON', async () => {
    const h = api(srv.http, srv.adminKey);
    await createRealm(h, 'cli');
    const user = await createUser(h, 'cli', 'cli@example.com');
    const m = await createMapping(h, 'cli', { entitlementKey: 'cli', quotaWindows: [w(18000, 10)] }, 'cli');

    const sub = await runCli(['subscriptions', 'create', '--user', user, '--mapping', m.mappingId, '--json'], { env });
    assert.equal(sub.code, 0, sub.stderr);
    const subId = sub.json().subscriptionId;
    assert.equal(sub.json().entitlement, 'window');

    const grant = await runCli(['points', 'grant', user, '--kind', 'topup_credit', '--amount', '15', '--expires', '30d', '--json'], { env });
    assert.equal(grant.code, 0, grant.stderr);
    assert.equal(grant.json().amount, 15);
    assert.ok(Date.parse(grant.json().expiresAt) > Date.now() + 29 * 86_400_000);

    const used = await runCli(['points', 'consume', user, '--amount', '12', '--idempotency-key', 'cli-1', '--json'], { env });
    assert.equal(used.code, 0, used.stderr);
    assert.deepEqual(
      used.json().allocations.map((a: any) => [a.creditKind, a.amount]),
      [
        ['subscription_credit', 10],
        ['topup_credit', 2],
      ],
    );

    const tooMuch = await runCli(['points', 'consume', user, '--amount', '100'], { env });
    assert.equal(tooMuch.code, 1);
    assert.match(tooMuch.stderr, /have 13, need 100; nothing was deducted/);
    assert.equal(tooMuch.stdout, '');

    const text = await runCli(['points', 'show', user], { env });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /total: +13 \(quota 0, balances 13\)/);
    assert.match(text.stdout, /subscription_credit +5h +10 +10 +0/);

    const cancel = await runCli(['subscriptions', 'cancel', subId, '--json'], { env });
    assert.equal(cancel.code, 0, cancel.stderr);
    assert.equal(cancel.json().status, 'canceled');
    const shown = await runCli(['points', 'show', user, '--json'], { env });
    assert.deepEqual(shown.json().windows, []);

    const bad = await runCli(['points', 'consume', user, '--amount', '0'], { env });
    assert.equal(bad.code, 2);
  });
});
