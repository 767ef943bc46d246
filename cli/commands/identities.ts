// gatehouse identities: the provider identities linked to an account (docs/login.md "Linking
// providers"). `list` reads them as GET /api/admin/realms/{realmId}/users/{userId} shows them;
// `unlink` removes one as DELETE …/users/{userId}/identities/{provider} does (never the last one).
import { Command } from 'commander';
import { globals, realmOf, rpc, show } from '../context.ts';
import { table } from '../output.ts';

type Identity = { provider?: string; subject?: string; email?: string; emailForwarding?: string; createdAt?: string | null };

const identityTable = (identities: Identity[]) =>
  identities.length === 0
    ? 'no identities'
    : table(
        ['PROVIDER', 'SUBJECT', 'EMAIL', 'FORWARDING', 'LINKED'],
        identities.map((i) => [i.provider, i.subject, i.email || '-', i.emailForwarding ?? '-', i.createdAt]),
      );

export function identitiesCommand(): Command {
  const cmd = new Command('identities').description("an account's linked provider identities");

  cmd
    .command('list <userId>')
    .description('the provider identities linked to an account')
    .action(async (userId: string, _o: unknown, c: Command) => {
      const g = globals(c);
      const user = await rpc(g, 'AdminService', 'GetUser', { realmId: realmOf(g), userId });
      const identities = (user.identities ?? []) as Identity[];
      show(g, { userId, identities }, () => identityTable(identities));
    });

  cmd
    .command('unlink <userId> <provider>')
    .description("unlink the account's identity of a provider (refused for its last identity)")
    .action(async (userId: string, provider: string, _o: unknown, c: Command) => {
      const g = globals(c);
      const user = await rpc(g, 'AdminService', 'UnlinkUserIdentity', { realmId: realmOf(g), userId, provider });
      const identities = (user.identities ?? []) as Identity[];
      show(g, { userId, identities }, () => `unlinked ${provider} from ${userId}\n\n${identityTable(identities)}`);
    });
  return cmd;
}
