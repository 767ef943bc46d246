// gatehouse provider: identity-provider configuration of a realm. Reads never show secrets.
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { PROVIDERS } from '../../server/auth/providers/registry.ts';
import { collect, globals, parseBool, realmOf, rpc, show } from '../context.ts';
import { CliError, record, table, usageError } from '../output.ts';

/** The flags of `provider set`, as commander parses them. */
interface SetFlags {
  clientId?: string;
  enabled?: boolean;
  additionalClientId: string[];
  clearAdditionalClientIds?: boolean;
  clientSecret?: string;
  teamId?: string;
  keyId?: string;
  privateKeyFile?: string;
  webClientId?: string;
  requireNonce?: boolean;
}

export function providerCommand(): Command {
  const cmd = new Command('provider').description(`identity providers of a realm (${PROVIDERS.kinds.join(', ')})`);
  cmd
    .command('set <provider>')
    .description('configure a provider; a field not given keeps its stored value (secrets included)')
    .option('--client-id <id>', 'audience of native ID tokens (Apple: the bundle id); required the first time')
    .option('--enabled <bool>', 'true | false (default true for a new provider)', parseBool('--enabled'))
    .option(
      '--additional-client-id <id>',
      'another accepted audience of native ID tokens, e.g. another bundle id (repeatable; replaces the stored list)',
      collect,
      [],
    )
    .option('--clear-additional-client-ids', 'remove the additional audiences')
    .option('--client-secret <secret>', 'client secret (write-only; "" removes it)')
    .option('--team-id <id>', 'Apple team id (web flow)')
    .option('--key-id <id>', 'Apple key id (web flow)')
    .option('--private-key-file <path>', 'Apple .p8 private key file (web flow)')
    .option('--web-client-id <id>', 'Apple Services ID used by the web-redirect login ("" removes it)')
    .option(
      '--require-nonce <bool>',
      'true | false: refuse native logins without a nonce, the defence against a replayed ID token (default false for a new provider)',
      parseBool('--require-nonce'),
    )
    .action(async (provider: string, o: SetFlags, c: Command) => {
      const g = globals(c);
      if (o.additionalClientId.length && o.clearAdditionalClientIds)
        throw usageError('--additional-client-id and --clear-additional-client-ids contradict each other');
      let privateKey: string | undefined;
      if (typeof o.privateKeyFile === 'string') {
        try {
          privateKey = readFileSync(o.privateKeyFile, 'utf8');
        } catch (e) {
          throw usageError(`--private-key-file: ${(e as Error).message}`);
        }
      }
      // PutProvider replaces `enabled` and `additionalClientIds`: carry the stored ones over. The
      // server itself keeps the secrets, team, key and web client id when they are absent.
      const current = await rpc(g, 'AdminService', 'GetProvider', { realmId: realmOf(g), provider }).catch((e: unknown) => {
        if (e instanceof CliError && e.code === 'not_found' && /provider/i.test(e.message)) return null;
        throw e;
      });
      if (!current && o.clientId === undefined) throw usageError(`--client-id: required to configure ${provider} for the first time`);
      const additionalClientIds = o.clearAdditionalClientIds ? [] : o.additionalClientId.length ? o.additionalClientId : (current?.additionalClientIds ?? []);
      const res = await rpc(g, 'AdminService', 'PutProvider', {
        realmId: realmOf(g),
        provider,
        clientId: o.clientId ?? current!.clientId,
        enabled: o.enabled ?? current?.enabled ?? true,
        additionalClientIds,
        clientSecret: o.clientSecret,
        teamId: o.teamId,
        keyId: o.keyId,
        privateKey,
        webClientId: o.webClientId,
        requireNonce: o.requireNonce,
      });
      show(g, res, () => record(res));
    });
  cmd
    .command('get <provider>')
    .description('show a provider configuration')
    .action(async (provider: string, _o: object, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'AdminService', 'GetProvider', { realmId: realmOf(g), provider });
      show(g, res, () => record(res));
    });
  cmd
    .command('list')
    .description('list provider configurations')
    .action(async (_o: object, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'AdminService', 'ListProviders', { realmId: realmOf(g) });
      show(g, res, () =>
        table(
          ['PROVIDER', 'CLIENT ID', 'ENABLED', 'SECRET'],
          res.providers.map((r) => [r.provider, r.clientId, r.enabled, r.hasClientSecret ? 'stored' : 'none']),
        ),
      );
    });
  return cmd;
}
