// gatehouse keys: API keys. `keys create --db PATH` bootstraps the first key with no server.
import { Command } from 'commander';
import { type CliAnswer, collect, globals, rpc, show } from '../context.ts';
import { record, table, usageError } from '../output.ts';

export function keysCommand(): Command {
  const cmd = new Command('keys').description('admin API keys');

  cmd
    .command('create')
    .description('create an API key (shown once)')
    .requiredOption('--permission <perm>', 'permission to grant (repeatable; * for all)', collect)
    .option('--key-realm <id>', 'realm the key is bound to, or * for all (defaults to --realm)')
    .option('--name <name>', 'a label for the key', '')
    .option('--db <path>', 'write straight into this database file, without a server (bootstrap)')
    .action(async (opts: { permission: string[]; keyRealm?: string; name: string; db?: string }, c: Command) => {
      const g = globals(c);
      const realm = opts.keyRealm ?? g.realm;
      if (!realm) throw usageError('which realm? pass --realm <id> (or --key-realm) — * binds the key to all realms');
      let created: CliAnswer<'AdminService', 'CreateApiKey'>;
      if (opts.db) {
        const { openDatabase } = await import('../../server/store/open.ts');
        const { sqliteStores } = await import('../../server/store/stores.ts');
        const { createApiKey } = await import('../../server/admin/api-keys.ts');
        const db = openDatabase(opts.db);
        try {
          const { record: rec, key } = await createApiKey(sqliteStores(db).admin, { realm, permissions: opts.permission, name: opts.name }, Date.now());
          created = { id: rec.id, key, realm: rec.realm, permissions: rec.permissions, name: rec.name };
        } catch (e) {
          const err = e as { code?: string; message: string };
          throw usageError(err.message);
        } finally {
          db.close();
        }
      } else {
        created = await rpc(g, 'AdminService', 'CreateApiKey', { realm, permissions: opts.permission, name: opts.name });
      }
      show(g, created, () => `${record(created)}\n\nStore the key now: it is not shown again.`);
    });

  cmd
    .command('list')
    .description('list API keys (never the keys themselves)')
    .action(async (_o: object, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'AdminService', 'ListApiKeys', {});
      show(g, res, () =>
        table(
          ['ID', 'REALM', 'PERMISSIONS', 'NAME', 'REVOKED'],
          res.keys.map((k) => [k.id, k.realm, k.permissions.join(','), k.name, k.revokedAt ?? '']),
        ),
      );
    });

  cmd
    .command('revoke <keyId>')
    .description('revoke an API key')
    .action(async (keyId: string, _o: object, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'AdminService', 'RevokeApiKey', { keyId });
      show(g, res, () => `revoked ${keyId}`);
    });
  return cmd;
}
