// gatehouse webhooks: a realm's webhook endpoints, their deliveries and attempts (docs/events.md).
import { Command } from 'commander';
import { collect, globals, parseBool, parseIntArg, realmOf, rpc, show } from '../context.ts';
import { record, table } from '../output.ts';

interface EndpointFlags {
  url?: string;
  event?: string[];
  description?: string;
  enabled?: boolean;
}

/** The endpoint as text; its secret, when the answer carries one, with the warning that it is shown once. */
function endpointText(w: Record<string, unknown>): string {
  const { secret, ...rest } = w;
  const text = record({ ...rest, eventTypes: (w.eventTypes as string[]).join(', ') });
  return secret ? `${text}\nsecret: ${String(secret)}\n(shown once: keep it now)` : text;
}

export function webhooksCommand(): Command {
  const cmd = new Command('webhooks').description('webhook endpoints of a realm, their deliveries and attempts');
  cmd
    .command('create <url>')
    .description('register an endpoint; prints its signing secret once')
    .option('--event <type>', 'an event type to send (repeatable; * = every type)', collect, [])
    .option('--description <text>', 'what the endpoint is for')
    .option('--enabled <bool>', 'true | false (default true)', parseBool('--enabled'))
    .action(async (url: string, o: EndpointFlags, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'AdminService', 'CreateWebhook', {
        realmId: realmOf(g),
        url,
        eventTypes: o.event?.length ? o.event : ['*'],
        description: o.description ?? '',
        enabled: o.enabled,
      });
      show(g, res, () => endpointText(res));
    });
  cmd
    .command('list')
    .description("list the realm's endpoints")
    .action(async (_o: object, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'AdminService', 'ListWebhooks', { realmId: realmOf(g) });
      show(g, res, () =>
        table(
          ['ID', 'URL', 'EVENTS', 'ENABLED', 'DESCRIPTION'],
          res.webhooks.map((w) => [w.id, w.url, w.eventTypes.join(','), w.enabled, w.description]),
        ),
      );
    });
  cmd
    .command('update <webhookId>')
    .description('change some settings of an endpoint')
    .option('--url <url>', 'where events go')
    .option('--event <type>', 'replace the event types (repeatable; * = every type)', collect)
    .option('--description <text>', 'what the endpoint is for')
    .option('--enabled <bool>', 'true | false', parseBool('--enabled'))
    .action(async (webhookId: string, o: EndpointFlags, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'AdminService', 'UpdateWebhook', {
        realmId: realmOf(g),
        webhookId,
        url: o.url,
        eventTypes: o.event ? { values: o.event } : null,
        description: o.description,
        enabled: o.enabled,
      });
      show(g, res, () => endpointText(res));
    });
  cmd
    .command('delete <webhookId>')
    .description('remove an endpoint and its delivery records')
    .action(async (webhookId: string, _o: object, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'AdminService', 'DeleteWebhook', { realmId: realmOf(g), webhookId });
      show(g, res, () => `deleted ${res.id}`);
    });
  cmd
    .command('rotate-secret <webhookId>')
    .description('a new signing secret, printed once; the old one also signs for 24 hours')
    .action(async (webhookId: string, _o: object, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'AdminService', 'RotateWebhookSecret', { realmId: realmOf(g), webhookId });
      show(g, res, () => endpointText(res));
    });
  cmd
    .command('test <webhookId>')
    .description('send the endpoint a webhook.test event')
    .action(async (webhookId: string, _o: object, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'AdminService', 'TestWebhook', { realmId: realmOf(g), webhookId });
      show(g, res, () => record(res));
    });
  cmd
    .command('deliveries <webhookId>')
    .description("the endpoint's deliveries, newest first, with each attempt")
    .option('--status <status>', 'pending | running | delivered | failed')
    .option('--page-size <n>', '1–200 (default 50)', parseIntArg('--page-size', 1))
    .option('--page-token <token>', 'nextPageToken of the previous page')
    .action(async (webhookId: string, o: { status?: string; pageSize?: number; pageToken?: string }, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'AdminService', 'ListWebhookDeliveries', {
        realmId: realmOf(g),
        webhookId,
        status: o.status ?? '',
        pageSize: o.pageSize,
        pageToken: o.pageToken ?? '',
      });
      show(g, res, () => {
        const rows = res.deliveries.flatMap((d) => [
          [d.id, d.eventType, d.status, d.attemptCount, d.createdAt, ''],
          ...d.attempts.map((a) => ['', '', '', '', a.at, `${a.httpStatus || '-'} ${a.error || 'ok'} (${a.durationMs} ms)`]),
        ]);
        const text = table(['DELIVERY', 'EVENT', 'STATUS', 'ATTEMPTS', 'AT', 'ANSWER'], rows);
        return res.nextPageToken ? `${text}\nnext page: --page-token ${res.nextPageToken}` : text;
      });
    });
  cmd
    .command('redeliver <webhookId> <deliveryId>')
    .description("send a delivery's event again (a new delivery, same webhook-id)")
    .action(async (webhookId: string, deliveryId: string, _o: object, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'AdminService', 'RedeliverWebhook', { realmId: realmOf(g), webhookId, deliveryId });
      show(g, res, () => record({ id: res.id, eventId: res.eventId, status: res.status }));
    });
  return cmd;
}
