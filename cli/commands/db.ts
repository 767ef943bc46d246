// gatehouse db copy: moves a deployment from one database to another (a SQLite file or a
// postgres:// URL either side), every row in one transaction on the target, checked before it is
// committed (server/store/copy.ts). Exit codes as every command: 1 when the copy failed or did not
// check out (the target is left as it was), 2 for a usage error, which includes a target that
// already holds data without --force and a source file that does not exist.
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { Command } from 'commander';
import { moduleLoader } from '../../server/lib/load-module.ts';
import { shownDatabase } from '../../server/lib/redact.ts';
import type { CopySource, CopyTarget } from '../../server/store/copy.ts';
import { globals, parseIntArg, show } from '../context.ts';
import { CliError, EXIT, table, usageError } from '../output.ts';
import { progressOn } from '../progress.ts';

// Loaded when first needed (server/lib/load-module.ts).
const load = moduleLoader(import.meta.url);

const isUrl = (db: string) => /^postgres(ql)?:\/\//i.test(db);

/** A file's path with every symbolic link resolved (for one that does not exist yet, its
 *  folder's), so two names of one file compare equal. */
function realPath(path: string): string {
  const absolute = resolve(path);
  if (existsSync(absolute)) return realpathSync(absolute);
  const folder = dirname(absolute);
  return existsSync(folder) ? join(realpathSync(folder), basename(absolute)) : absolute;
}

/** The database `db` names, for comparing two: a file's real path, or a URL's server and
 *  database name. Throws a usage error for a URL that does not parse. */
function identity(flag: string, db: string): string {
  if (!isUrl(db)) return `file:${realPath(db)}`;
  try {
    const u = new URL(db);
    return `pg:${u.hostname}:${u.port || '5432'}${decodeURIComponent(u.pathname)}`;
  } catch {
    throw usageError(`${flag}: not a valid postgres:// URL`);
  }
}

export function dbCommand(): Command {
  const cmd = new Command('db').description('database tools');
  cmd
    .command('copy')
    .description('copy every row of a gatehouse database into another, SQLite or PostgreSQL, and check the copy before it is committed')
    .requiredOption('--from <path|url>', 'the database copied: a SQLite file or a postgres:// URL (only read, as of one consistent snapshot)')
    .requiredOption('--to <path|url>', 'the database copied into: a SQLite file (created when missing) or a postgres:// URL; migrated first')
    .option('--force', 'replace the data a target already holds (emptied in the same transaction as the copy)')
    .option('--batch-rows <n>', 'rows read and written per statement', parseIntArg('--batch-rows', 1), 5000)
    .addHelpText(
      'after',
      `
Stop the servers on the source first: the copy holds what was written before it started.
Exit codes: 0 copied and checked; 1 failed or did not check out (the target is left as it was);
2 usage, including a target that holds data without --force; 130 interrupted (nothing copied).`,
    )
    .action(async (o: { from: string; to: string; force?: boolean; batchRows: number }, c: Command) => {
      const g = globals(c);
      const same = usageError('--from and --to name the same database');
      if (identity('--from', o.from) === identity('--to', o.to)) throw same;
      const { CopyError, copyDatabase, secondsSince } = await load<typeof import('../../server/store/copy.ts')>('../../server/store/copy.ts');
      const { openSqliteSource, openSqliteTarget } = await load<typeof import('../../server/store/sqlite/copy.ts')>('../../server/store/sqlite/copy.ts');
      const { openPostgresSource, openPostgresTarget, postgresIdentity } =
        await load<typeof import('../../server/store/postgres/copy.ts')>('../../server/store/postgres/copy.ts');
      if (isUrl(o.from) && isUrl(o.to)) {
        // Two addresses of one server (localhost and 127.0.0.1, a DNS alias) look different.
        const [from, to] = await Promise.all([postgresIdentity(o.from), postgresIdentity(o.to)]);
        if (from !== null && from === to) throw same;
      }

      const progress = progressOn(process.stderr);
      const stop = new AbortController();
      const onSignal = () => stop.abort(new CopyError('interrupted', 'interrupted: nothing was copied, the target is as it was'));
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      const started = performance.now();
      // The instant both databases' summaries are computed at: when the source's snapshot is taken.
      const now = Date.now();
      let source: CopySource | undefined;
      let target: CopyTarget | undefined;
      let copied = false;
      try {
        source = isUrl(o.from) ? await openPostgresSource(o.from) : await openSqliteSource(o.from, progress);
        target = isUrl(o.to) ? await openPostgresTarget(o.to) : openSqliteTarget(o.to);
        const report = await copyDatabase(source, target, { force: Boolean(o.force), batchRows: o.batchRows, now, progress, signal: stop.signal });
        copied = true;
        const seconds = secondsSince(started);
        const result = { from: shownDatabase(o.from), to: shownDatabase(o.to), ...report, seconds, summariesAt: new Date(now).toISOString() };
        show(g, result, () =>
          [
            table(
              ['TABLE', 'ROWS', 'SECONDS'],
              report.tables.map((t) => [t.name, t.rows, t.seconds]),
            ),
            '',
            `Copied ${report.rows} rows in ${seconds} s${report.emptied ? ' (the target emptied first)' : ''}; the row counts and ${report.usersChecked} users' points summaries (at ${result.summariesAt}) are the same on both.`,
            `Start the servers on the copy with: gatehouse serve --db ${result.to}`,
          ].join('\n'),
        );
      } catch (e) {
        if (e instanceof CopyError) {
          throw new CliError(e.message, e.usage ? EXIT.usage : e.code === 'interrupted' ? EXIT.interrupted : EXIT.failed, e.code);
        }
        throw new CliError(`copy failed, nothing was copied: ${(e as Error).message}`, EXIT.failed, 'copy_failed');
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        await target?.close(copied);
        await source?.close();
      }
    });
  return cmd;
}
