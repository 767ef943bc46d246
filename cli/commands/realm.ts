// gatehouse realm: create, list and show realms.
import { Command } from 'commander';
import { globals, rpc, show } from '../context.ts';
import { record, table } from '../output.ts';

export function realmCommand(): Command {
  const cmd = new Command('realm').description('realms');
  cmd
    .command('create <id>')
    .description('create a realm')
    .requiredOption('--name <name>', 'display name')
    .action(async (id: string, o: { name: string }, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'AdminService', 'CreateRealm', { id, name: o.name });
      show(g, res, () => record(res));
    });
  cmd
    .command('list')
    .description('list realms')
    .action(async (_o: object, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'AdminService', 'ListRealms', {});
      show(g, res, () =>
        table(
          ['ID', 'NAME', 'CREATED'],
          res.realms.map((r) => [r.id, r.name, r.createdAt]),
        ),
      );
    });
  cmd
    .command('get <id>')
    .description('show a realm')
    .action(async (id: string, _o: object, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'AdminService', 'GetRealm', { realmId: id });
      show(g, res, () => record(res));
    });
  return cmd;
}
