// gatehouse users: accounts. `delete` removes an account as DELETE
// /api/admin/realms/{realmId}/users/{userId} does (docs/login.md "Deleting an account"); it asks on a
// terminal first, `--yes` skips the question (and is needed without a terminal).
import { Command } from 'commander';
import { globals, realmOf, rpc, show } from '../context.ts';
import { record } from '../output.ts';
import { confirmOrFail } from '../prompts.ts';

export function usersCommand(): Command {
  const cmd = new Command('users').description('accounts');

  cmd
    .command('delete <userId>')
    .description('delete an account: its sessions end, its points and history are erased, its Apple tokens revoked')
    .option('--yes', 'do not ask for confirmation')
    .action(async (userId: string, o: { yes?: boolean }, c: Command) => {
      const g = globals(c);
      const realmId = realmOf(g);
      await confirmOrFail(`Delete user ${userId} of realm ${realmId}? This cannot be undone`, o.yes);
      const res = await rpc(g, 'AdminService', 'DeleteUser', { realmId, userId });
      show(g, res, () => record(res));
    });
  return cmd;
}
