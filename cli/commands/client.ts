// gatehouse client: client applications of a realm.
import { Command } from 'commander';
import { collect, globals, parseBool, parseSecondsArg, realmOf, rpc, show } from '../context.ts';
import { record, table } from '../output.ts';

/** The settings `create` and `update` share; `create` requires name and type. */
function settingOptions(cmd: Command, creating: boolean): Command {
  if (creating) cmd.requiredOption('--name <name>', 'display name').requiredOption('--type <type>', 'first_party | third_party');
  else cmd.option('--name <name>', 'display name').option('--type <type>', 'first_party | third_party');
  return cmd
    .option(
      '--redirect-uri <uri>',
      creating ? 'registered redirect URI (repeatable)' : 'replace the redirect URIs (repeatable)',
      collect,
      creating ? [] : undefined,
    )
    .option('--ip-binding <mode>', 'off | exact | subnet')
    .option('--enabled <bool>', 'true | false', parseBool('--enabled'))
    .option('--access-ttl <duration>', 'access token lifetime: 15m, 1h, or seconds', parseSecondsArg('--access-ttl'))
    .option('--refresh-ttl <duration>', 'refresh token lifetime: 30d, 12h, or seconds', parseSecondsArg('--refresh-ttl'));
}

/** The flags settingOptions declares, as commander parses them. */
interface SettingFlags {
  name?: string;
  type?: string;
  redirectUri?: string[];
  ipBinding?: string;
  enabled?: boolean;
  accessTtl?: number;
  refreshTtl?: number;
}

function settings(o: SettingFlags) {
  return {
    name: o.name,
    type: o.type,
    ipBinding: o.ipBinding,
    enabled: o.enabled,
    accessTokenTtlSeconds: o.accessTtl,
    refreshTokenTtlSeconds: o.refreshTtl,
  };
}

export function clientCommand(): Command {
  const cmd = new Command('client').description('client applications of a realm');
  settingOptions(cmd.command('create <clientId>').description('register a client application'), true).action(
    async (clientId: string, o: SettingFlags, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'AdminService', 'CreateClient', { realmId: realmOf(g), clientId, ...settings(o), redirectUris: o.redirectUri });
      show(g, res, () => record(res));
    },
  );
  cmd
    .command('list')
    .description('list client applications')
    .action(async (_o: object, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'AdminService', 'ListClients', { realmId: realmOf(g) });
      show(g, res, () =>
        table(
          ['CLIENT ID', 'NAME', 'TYPE', 'ENABLED', 'IP BINDING'],
          res.clients.map((r) => [r.clientId, r.name, r.type, r.enabled, r.ipBinding]),
        ),
      );
    });
  cmd
    .command('get <clientId>')
    .description('show a client application')
    .action(async (clientId: string, _o: object, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'AdminService', 'GetClient', { realmId: realmOf(g), clientId });
      show(g, res, () => record(res));
    });
  settingOptions(cmd.command('update <clientId>').description('change some settings of a client application'), false).action(
    async (clientId: string, o: SettingFlags, c: Command) => {
      const g = globals(c);
      const redirectUris = o.redirectUri ? { values: o.redirectUri } : null;
      const res = await rpc(g, 'AdminService', 'UpdateClient', { realmId: realmOf(g), clientId, ...settings(o), redirectUris });
      show(g, res, () => record(res));
    },
  );
  return cmd;
}
