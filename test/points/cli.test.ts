// `gatehouse points show|grant|consume|hold|settle|release|refund|history` and
// `gatehouse subscriptions create|cancel` against a real server.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { api } from '../helpers/http.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';
import { createMapping, createRealm, createUser, w } from './helpers.ts';

describe('points and subscriptions commands', () => {
  let srv: InProcessServer;
  let env: Record<string, string>;
  before(async () => {
    srv = await startInProcess();
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

    const ranFrom = Date.now();
    const grant = await runCli(['points', 'grant', user, '--kind', 'topup_credit', '--amount', '15', '--expires', '30d', '--json'], { env });
    const ranTo = Date.now();
    assert.equal(grant.code, 0, grant.stderr);
    assert.equal(grant.json().amount, 15);
    // 30 days from when the command ran, however long it took.
    const expiresAt = Date.parse(grant.json().expiresAt);
    assert.ok(expiresAt >= ranFrom + 30 * 86_400_000 - 1000 && expiresAt <= ranTo + 30 * 86_400_000, grant.json().expiresAt);

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

  it('holds, settles, releases, refunds and lists the history, as text and as JSON', async () => {
    const h = api(srv.http, srv.adminKey);
    await createRealm(h, 'ledger');
    const env = { GATEHOUSE_SERVER: srv.grpc, GATEHOUSE_API_KEY: srv.adminKey, GATEHOUSE_REALM: 'ledger' };
    const user = await createUser(h, 'ledger', 'ledger-cli@example.com');
    assert.equal((await runCli(['points', 'grant', user, '--kind', 'topup_credit', '--amount', '100'], { env })).code, 0);

    const held = await runCli(['points', 'hold', user, '--amount', '30', '--ttl', '5m', '--description', 'render', '--idempotency-key', 'job-1', '--json'], {
      env,
    });
    assert.equal(held.code, 0, held.stderr);
    const hold = held.json();
    assert.deepEqual([hold.status, hold.amount, hold.description], ['open', 30, 'render']);
    assert.equal(Date.parse(hold.expiresAt) - Date.parse(hold.createdAt), 300_000);
    const shown = await runCli(['points', 'show', user], { env });
    assert.match(shown.stdout, new RegExp(`^held: +30 in ${hold.holdId} \\(30 until `, 'm'));
    assert.match(shown.stdout, /total: +70 /);

    const tooMuch = await runCli(['points', 'settle', hold.holdId, '--amount', '500'], { env });
    assert.equal(tooMuch.code, 1);
    assert.match(tooMuch.stderr, /not enough points: have 70, need 470; the hold stays open/);
    assert.equal(tooMuch.stdout, '');

    const settled = await runCli(['points', 'settle', hold.holdId, '--amount', '12'], { env });
    assert.equal(settled.code, 0, settled.stderr);
    assert.match(settled.stdout, new RegExp(`^settled ${hold.holdId} at 12 \\(ptx_\\S+\\); left 88 \\(quota 0, balances 88\\)$`, 'm'));
    assert.match(settled.stdout, /^topup_credit +\S+ +12$/m);
    const closed = await runCli(['points', 'release', hold.holdId, '--json'], { env });
    assert.equal(closed.code, 1);
    assert.equal(JSON.parse(closed.stderr).error, 'hold_closed');

    const second = await runCli(['points', 'hold', user, '--amount', '5'], { env });
    assert.equal(second.code, 0, second.stderr);
    const secondId = /\((hld_\S+)\)/.exec(second.stdout)![1]!;
    assert.match(second.stdout, /^held 5 of \S+ \(hld_\S+\) until \S+; left 83 \(quota 0, balances 83\)$/m);
    const released = await runCli(['points', 'release', secondId], { env });
    assert.equal(released.code, 0, released.stderr);
    assert.match(released.stdout, new RegExp(`^hold ${secondId} released: 5 back, \\S+; left 88 `, 'm'));

    const settleId = /\((ptx_\S+)\)/.exec(settled.stdout)![1]!;
    const refunded = await runCli(['points', 'refund', settleId, '--amount', '2', '--reason', 'cut off'], { env });
    assert.equal(refunded.code, 0, refunded.stderr);
    assert.match(refunded.stdout, new RegExp(`^refunded 2 of ${settleId} \\(rfd_\\S+\\): 2 went back; left 90 `, 'm'));
    assert.match(refunded.stdout, /^KIND +SOURCE +AMOUNT +RETURNED$/m);
    const exceeds = await runCli(['points', 'refund', settleId, '--amount', '11', '--json'], { env });
    assert.equal(exceeds.code, 1);
    assert.equal(JSON.parse(exceeds.stderr).error, 'refund_exceeds');

    const all = await runCli(['points', 'history', user, '--json'], { env });
    assert.equal(all.code, 0, all.stderr);
    assert.deepEqual(
      all
        .json()
        .transactions.map((t: any) => t.kind)
        .sort(),
      ['grant', 'hold', 'hold', 'refund', 'release', 'settle'],
    );
    assert.equal(all.json().nextPageToken, '');
    const page = await runCli(['points', 'history', user, '--page-size', '4'], { env });
    assert.equal(page.code, 0, page.stderr);
    assert.match(page.stdout, /^TIME +KIND +AMOUNT +ID +RELATED +DESCRIPTION$/m);
    assert.equal(page.stdout.trim().split('\n').length, 1 + 4 + 2, 'header, four rows, a blank line and the next page');
    const token = /^more: --page-token (\S+)$/m.exec(page.stdout)![1]!;
    const rest = await runCli(['points', 'history', user, '--page-size', '4', '--page-token', token, '--json'], { env });
    assert.equal(rest.json().transactions.length, 2);
    const holds = await runCli(['points', 'history', user, '--kind', 'hold', '--json'], { env });
    assert.deepEqual(
      holds
        .json()
        .transactions.map((t: any) => t.transactionId)
        .sort(),
      [hold.holdId, secondId].sort(),
    );
    assert.equal((await runCli(['points', 'history', user, '--kind', 'bogus'], { env })).code, 2);
    assert.equal((await runCli(['points', 'history', user, '--page-size', '0'], { env })).code, 2);
    const badToken = await runCli(['points', 'history', user, '--page-token', 'nope'], { env });
    assert.equal(badToken.code, 1);
    assert.match(badToken.stderr, /pageToken/);
    assert.equal((await runCli(['points', 'settle', hold.holdId], { env })).code, 2, '--amount is required');
  });
});
