// gatehouse backup: an online copy of a (possibly running) server's database through SQLite's
// backup API — consistent even while the server writes — then checked before it is reported.
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { Command } from 'commander';
import { moduleLoader } from '../../server/lib/load-module.ts';
import { shownDatabase } from '../../server/lib/redact.ts';
import { globals, show } from '../context.ts';
import { CliError, record, usageError } from '../output.ts';

// Loaded when first needed (server/lib/load-module.ts).
const load = moduleLoader(import.meta.url);

export function backupCommand(): Command {
  return new Command('backup')
    .description('copy the database of a running (or stopped) gatehouse to a file, online and consistent')
    .requiredOption('--out <file>', 'where to write the copy')
    .option('--db <path>', 'the database to copy (env GATEHOUSE_DB, default ./data/gatehouse.db)')
    .option('--force', 'replace --out if it exists')
    .action(async (o: { out: string; db?: string; force?: boolean }, c: Command) => {
      const g = globals(c);
      const source = o.db ?? process.env.GATEHOUSE_DB ?? './data/gatehouse.db';
      // A PostgreSQL database is backed up with pg_dump (README); its URL is never shown whole.
      if (/^postgres(ql)?:\/\//i.test(source)) throw usageError(`--db: ${shownDatabase(source)} is PostgreSQL: back it up with pg_dump`);
      if (!existsSync(source)) throw usageError(`--db: no database at ${source}`);
      if (existsSync(o.out) && !o.force) throw usageError(`--out: ${o.out} exists; pass --force to replace it`);
      const { default: Database } = await import('better-sqlite3');
      const started = Date.now();
      const tmp = `${o.out}.partial`;
      rmSync(tmp, { force: true });
      const { createOwnerOnlyFile } = await load<typeof import('../../server/lib/owner-only.ts')>('../../server/lib/owner-only.ts');
      // Read-write when allowed, though only read: a read-only connection cannot remove the -wal and
      // -shm files it makes beside a stopped server's database, the last read-write one to close does.
      let db: InstanceType<typeof Database>;
      try {
        db = new Database(source, { fileMustExist: true });
      } catch {
        db = new Database(source, { readonly: true, fileMustExist: true });
      }
      try {
        // A copy of the signing keys and secrets: owner-only before a byte is written to it
        // (SQLite writes into the empty file, and gives its journal the file's mode).
        createOwnerOnlyFile(tmp);
        db.pragma('busy_timeout = 5000');
        await db.backup(tmp);
      } catch (e) {
        rmSync(tmp, { force: true });
        throw new CliError(`backup failed: ${(e as Error).message}`);
      } finally {
        db.close();
      }
      // The copy keeps the source's WAL mode, in which opening it makes -wal and -shm files beside
      // it. A backup is one self-contained file: switch it to a rollback journal, which also removes
      // them when the connection closes.
      const copy = new Database(tmp);
      copy.pragma('journal_mode = DELETE');
      const check = copy.pragma('integrity_check', { simple: true });
      const version = (copy.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number }).v;
      copy.close();
      if (check !== 'ok') {
        rmSync(tmp, { force: true });
        throw new CliError(`the copy failed its integrity check: ${String(check)}`);
      }
      renameSync(tmp, o.out); // the copy appears whole or not at all
      const result = { out: o.out, source, bytes: statSync(o.out).size, schemaVersion: version, ms: Date.now() - started };
      // The secrets in the copy are sealed (server/crypto/secrets.ts): a server on it needs the key.
      const { defaultSecretsKeyFile } = await load<typeof import('../../server/secrets-key.ts')>('../../server/secrets-key.ts');
      const keyFile = process.env.GATEHOUSE_SECRETS_KEY_FILE || defaultSecretsKeyFile(source);
      show(g, result, () => `${record(result)}\n\nStart a server on the copy with: gatehouse serve --db ${o.out} --secrets-key-file ${keyFile}`);
    });
}
