// `gatehouse webhooks …` and `gatehouse audit list` against a real server, the CLI a child process:
// create prints the secret once, list/update/test/deliveries/redeliver/rotate-secret/delete, --json
// on each; an unknown event type is the server's 400 (exit 1); the audit log lists the changes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { api } from '../helpers/http.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';
import { receiver } from '../helpers/webhook-receiver.ts';

describe('gatehouse webhooks and audit', () => {
  let srv: InProcessServer;
  let env: Record<string, string>;
  let r: Awaited<ReturnType<typeof receiver>>;

  before(async () => {
    srv = await startInProcess();
    r = await receiver();
    env = { GATEHOUSE_SERVER: srv.grpc, GATEHOUSE_API_KEY: srv.adminKey, GATEHOUSE_REALM: 'cli-hooks' };
    assert.equal((await api(srv.http, srv.adminKey).post('/api/admin/realms', { id: 'cli-hooks', name: 'CLI hooks' })).status, 200);
  });
  after(async () => {
    await r.close();
    await srv.stop();
  });

  it('manages an endpoint from create to delete, and the audit log lists the changes', async () => {
    const created = await runCli(['webhooks', 'create', r.url, '--event', 'webhook.test', '--description', 'from the CLI'], { env });
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /secret: whsec_\S+/);
    assert.match(created.stdout, /shown once/);
    const id = /id\s*:?\s+(whk_\S+)/.exec(created.stdout)?.[1];
    assert.ok(id, created.stdout);

    const listed = await runCli(['webhooks', 'list', '--json'], { env });
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(
      listed.json().webhooks.map((w: { id: string; secret: string }) => [w.id, w.secret]),
      [[id, '']],
    );

    const updated = await runCli(['webhooks', 'update', id, '--event', 'webhook.test', '--event', 'user.deleted', '--json'], { env });
    assert.equal(updated.code, 0, updated.stderr);
    assert.deepEqual(updated.json().eventTypes, ['webhook.test', 'user.deleted']);

    const tested = await runCli(['webhooks', 'test', id, '--json'], { env });
    assert.equal(tested.code, 0, tested.stderr);
    const { deliveryId, eventId } = tested.json();
    // The server's own poll delivers it: wait for the receiver, then for the delivery's record
    // (written once the answer is in), asked in turn.
    await r.receivedCount(1);
    const delivered = async () => (await runCli(['webhooks', 'deliveries', id, '--status', 'delivered', '--json'], { env })).json().deliveries.length;
    while ((await delivered()) !== 1);
    const deliveries = await runCli(['webhooks', 'deliveries', id, '--json'], { env });
    const [d] = deliveries.json().deliveries;
    assert.equal(d.id, deliveryId);
    assert.equal(d.status, 'delivered');
    assert.equal(d.attempts[0].httpStatus, 204);
    assert.equal(r.received[0]!.headers['webhook-id'], eventId);
    const text = await runCli(['webhooks', 'deliveries', id], { env });
    assert.match(text.stdout, /204 ok/);

    const again = await runCli(['webhooks', 'redeliver', id, deliveryId, '--json'], { env });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.json().eventId, eventId);

    const rotated = await runCli(['webhooks', 'rotate-secret', id, '--json'], { env });
    assert.match(rotated.json().secret, /^whsec_/);

    const refused = await runCli(['webhooks', 'create', r.url, '--event', 'user.exploded'], { env });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /eventTypes/);
    assert.equal(refused.stdout, '');

    assert.equal((await runCli(['webhooks', 'delete', id], { env })).code, 0);

    const audit = await runCli(['audit', 'list', '--target', id, '--json'], { env });
    assert.equal(audit.code, 0, audit.stderr);
    assert.deepEqual(
      audit.json().records.map((x: { action: string }) => x.action),
      ['webhook.delete', 'webhook.rotate_secret', 'webhook.update', 'webhook.create'],
    );
    const auditText = await runCli(['audit', 'list', '--action', 'webhook.create'], { env });
    assert.match(auditText.stdout, new RegExp(`webhook.create\\s+${id}`));
    assert.ok(!auditText.stdout.includes('whsec_'));
  });

  it('prints JSON a script can use for create and delete --json: the endpoint with its secret, then the endpoint removed', async () => {
    const created = await runCli(['webhooks', 'create', r.url, '--event', 'webhook.test', '--event', 'user.deleted', '--json'], { env });
    assert.equal(created.code, 0, created.stderr);
    const made = created.json();
    assert.match(made.id, /^whk_/);
    assert.equal(made.url, r.url);
    assert.deepEqual(made.eventTypes, ['webhook.test', 'user.deleted']);
    assert.match(made.secret, /^whsec_/, 'the secret, shown this once (docs/events.md)');
    assert.equal(made.enabled, true);

    const deleted = await runCli(['webhooks', 'delete', made.id, '--json'], { env });
    assert.equal(deleted.code, 0, deleted.stderr);
    const gone = deleted.json();
    assert.equal(gone.id, made.id);
    assert.equal(gone.url, r.url);
    assert.deepEqual(gone.eventTypes, ['webhook.test', 'user.deleted']);
    assert.equal(gone.secret, '', 'no secret but at create and rotate-secret');
    const listed = await runCli(['webhooks', 'list', '--json'], { env });
    assert.ok(!listed.json().webhooks.some((w: { id: string }) => w.id === made.id));
  });
});
