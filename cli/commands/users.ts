// gatehouse users: the accounts of a realm — user-level controls (docs/concepts.md): disable and
// enable an account, sign it out everywhere. One subcommand per action.
import { Command } from 'commander';
import { globals, realmOf, rpc, show } from '../context.ts';

export function usersCommand(): Command {
  const cmd = new Command('users').description('accounts of a realm');

  cmd
    .command('disable <userId>')
    .description("refuse the user's logins on every path and revoke every session (access and refresh tokens stop working)")
    .action(async (userId: string, _o: object, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'AdminService', 'DisableUser', { realmId: realmOf(g), userId });
      show(g, res, () => `disabled ${res.id} (${res.email}) at ${res.disabledAt}; every session of it is revoked`);
    });

  cmd
    .command('enable <userId>')
    .description('let a disabled user log in again (revoked sessions stay revoked)')
    .action(async (userId: string, _o: object, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'AdminService', 'EnableUser', { realmId: realmOf(g), userId });
      show(g, res, () => `enabled ${res.id} (${res.email})`);
    });

  cmd
    .command('sign-out <userId>')
    .description('revoke every session of the user: refresh and access tokens stop working from the next call')
    .action(async (userId: string, _o: object, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'AdminService', 'SignOutUser', { realmId: realmOf(g), userId });
      show(g, res, () => `signed out ${userId} everywhere: ${res.revokedSessions} session(s) revoked`);
    });

  return cmd;
}
