// gatehouse keys: API keys (`keys create --db PATH` bootstraps the first key with no server), and
// the rotation of a realm's access-token signing key.
import { Command } from 'commander';
import { moduleLoader } from '../../server/lib/load-module.ts';
import { type CliAnswer, collect, globals, realmOf, rpc, show } from '../context.ts';
import { CliError, EXIT, record, table, usageError } from '../output.ts';

// Loaded when first needed (server/lib/load-module.ts).
const load = moduleLoader(import.meta.url);

export function keysCommand(): Command {
  const cmd = new Command('keys').description('admin API keys');

  cmd
    .command('create')
    .description('create an API key (shown once)')
    .requiredOption('--permission <perm>', 'permission to grant (repeatable; * for all)', collect)
    .option('--key-realm <id>', 'realm the key is bound to, or * for all (defaults to --realm)')
    .option('--name <name>', 'a label for the key', '')
    .option('--db <path|url>', 'write straight into this database (a SQLite file or a postgres:// URL), without a server (bootstrap)')
    .action(async (opts: { permission: string[]; keyRealm?: string; name: string; db?: string }, c: Command) => {
      const g = globals(c);
      const realm = opts.keyRealm ?? g.realm;
      if (!realm) throw usageError('which realm? pass --realm <id> (or --key-realm) — * binds the key to all realms');
      let created: CliAnswer<'AdminService', 'CreateApiKey'>;
      if (opts.db) {
        const { openStorage } = await load<typeof import('../../server/backend.ts')>('../../server/backend.ts');
        const { createApiKey } = await load<typeof import('../../server/admin/api-keys.ts')>('../../server/admin/api-keys.ts');
        const { secretsOfDatabase } = await load<typeof import('../../server/secrets-key.ts')>('../../server/secrets-key.ts');
        const { createLogger } = await load<typeof import('../../server/lib/log.ts')>('../../server/lib/log.ts');
        // A database with no schema yet (a new PostgreSQL database) is migrated on opening; its
        // secrets key is made beside it when missing, as `serve` would.
        const storage = await openStorage(opts.db, secretsOfDatabase(opts.db, createLogger({ level: 'warn' }))).catch((e: Error) => {
          throw new CliError(e.message, EXIT.failed, 'db_open_failed');
        });
        try {
          const { record: rec, key } = await createApiKey(storage.stores.admin, { realm, permissions: opts.permission, name: opts.name }, Date.now());
          created = { id: rec.id, key, realm: rec.realm, permissions: rec.permissions, name: rec.name };
        } catch (e) {
          const err = e as { code?: string; message: string };
          throw usageError(err.message);
        } finally {
          await storage.close();
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

  cmd
    .command('rotate-signing')
    .description("give the realm (--realm) a new access-token signing key; the old one keeps verifying until the realm's tokens signed by it have expired")
    .option('--alg <algorithm>', "the new key's algorithm, ES256 or EdDSA (default: the replaced key's)")
    .action(async (o: { alg?: string }, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'AdminService', 'RotateSigningKey', { realmId: realmOf(g), algorithm: o.alg });
      show(g, res, () =>
        res.previousKid
          ? `${res.kid} (${res.algorithm}) signs from now on; ${res.previousKid} stays in the JWKS until ${res.previousRetiresAt}`
          : `${res.kid} (${res.algorithm}) signs from now on`,
      );
    });
  return cmd;
}
