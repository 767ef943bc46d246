// gatehouse secrets rotate: every secret at rest (server/crypto/secrets.ts) sealed anew under a new
// key, in one transaction: interrupted, it changed nothing, and run again it finishes (what is
// under the new key already is left alone). The servers are then started with the new key.
import { existsSync } from 'node:fs';
import { Command } from 'commander';
import { moduleLoader } from '../../server/lib/load-module.ts';
import { globals, show } from '../context.ts';
import { CliError, EXIT, record, usageError } from '../output.ts';

// Loaded when first needed (server/lib/load-module.ts).
const load = moduleLoader(import.meta.url);

export function secretsCommand(): Command {
  const cmd = new Command('secrets').description('the key encrypting secrets at rest (provider secrets, signing keys)');
  cmd
    .command('rotate')
    .description('re-encrypt every secret in the database under a new key, all in one transaction')
    .requiredOption('--db <path|url>', 'the database (a SQLite file or a postgres:// URL)')
    .option('--old-key-file <path>', 'the key the secrets are sealed under now (default: the one `serve --db` would use)')
    .requiredOption('--new-key-file <path>', 'the new key (generated, mode 0600, when the file does not exist)')
    .action(async (o: { db: string; oldKeyFile?: string; newKeyFile: string }, c: Command) => {
      const g = globals(c);
      const { SecretBox, SecretsKeyError } = await load<typeof import('../../server/crypto/secrets.ts')>('../../server/crypto/secrets.ts');
      const { readKeyFile, readOrCreateKeyFile, secretsOfDatabase } = await load<typeof import('../../server/secrets-key.ts')>('../../server/secrets-key.ts');
      const { createLogger } = await load<typeof import('../../server/lib/log.ts')>('../../server/lib/log.ts');
      const { openStorage } = await load<typeof import('../../server/backend.ts')>('../../server/backend.ts');
      const log = createLogger({ level: 'warn' });
      if (o.oldKeyFile !== undefined && !existsSync(o.oldKeyFile)) throw usageError(`--old-key-file: no key at ${o.oldKeyFile}`);
      let box: InstanceType<typeof SecretBox>;
      let previousKid: string;
      try {
        const old = o.oldKeyFile !== undefined ? new SecretBox(readKeyFile(o.oldKeyFile) ?? Buffer.alloc(0)) : secretsOfDatabase(o.db, log);
        // Written (or read) before the database is touched: no secret is ever sealed under a key
        // that is not on disk.
        const next = readOrCreateKeyFile(o.newKeyFile, log);
        box = new SecretBox(next, [old.currentKey()]);
        previousKid = old.kid;
      } catch (e) {
        if (e instanceof SecretsKeyError) throw usageError(e.message);
        throw e;
      }
      if (box.kid === previousKid) throw usageError('--new-key-file holds the key the secrets are sealed under already');
      const storage = await openStorage(o.db, box).catch((e: Error) => {
        throw new CliError(e.message, EXIT.failed, 'db_open_failed');
      });
      let resealed: number;
      try {
        resealed = await storage.stores.secrets.rewriteSecrets((column, stored) => box.reseal(column, stored));
      } catch (e) {
        if (e instanceof SecretsKeyError) throw new CliError(`nothing was changed: ${e.message}`, EXIT.failed, 'secrets_key_mismatch');
        throw e;
      } finally {
        await storage.close();
      }
      const result = { resealed, kid: box.kid, previousKid, newKeyFile: o.newKeyFile };
      show(g, result, () => `${record(result)}\n\nStart the servers with --secrets-key-file ${o.newKeyFile} (or its content in GATEHOUSE_SECRETS_KEY).`);
    });
  return cmd;
}
