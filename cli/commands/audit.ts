// gatehouse audit: a realm's audit log (docs/events.md), newest first.
import { Command } from 'commander';
import { globals, parseIntArg, realmOf, rpc, show } from '../context.ts';
import { table } from '../output.ts';

interface ListFlags {
  action?: string;
  target?: string;
  actor?: string;
  since?: string;
  until?: string;
  pageSize?: number;
  pageToken?: string;
}

export function auditCommand(): Command {
  const cmd = new Command('audit').description("a realm's audit log");
  cmd
    .command('list')
    .description('audit records, newest first')
    .option('--action <action>', 'e.g. webhook.create, user.delete')
    .option('--target <id>', 'the record changed')
    .option('--actor <id>', 'the API key, user… that made the change')
    .option('--since <time>', 'RFC 3339, inclusive')
    .option('--until <time>', 'RFC 3339, exclusive')
    .option('--page-size <n>', '1–200 (default 50)', parseIntArg('--page-size', 1))
    .option('--page-token <token>', 'nextPageToken of the previous page')
    .action(async (o: ListFlags, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'AdminService', 'ListAuditRecords', {
        realmId: realmOf(g),
        action: o.action ?? '',
        targetId: o.target ?? '',
        actorId: o.actor ?? '',
        since: o.since ?? '',
        until: o.until ?? '',
        pageSize: o.pageSize,
        pageToken: o.pageToken ?? '',
      });
      show(g, res, () => {
        const text = table(
          ['AT', 'ACTION', 'TARGET', 'ACTOR', 'CHANGES'],
          res.records.map((r) => [r.at, r.action, r.targetId, `${r.actor?.type}:${r.actor?.id}`, r.changesJson]),
        );
        return res.nextPageToken ? `${text}\nnext page: --page-token ${res.nextPageToken}` : text;
      });
    });
  return cmd;
}
