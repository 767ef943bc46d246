// gatehouse serve: one process serving gRPC and the HTTP adapter over one SQLite database, or with
// --workers N a primary and N such processes on the same ports (server/cluster/).
import { Command, Option } from 'commander';
import { type Config, ConfigError, loadConfig, OPTIONS } from '../../server/config.ts';
import { moduleLoader } from '../../server/lib/load-module.ts';
import { shownDatabase } from '../../server/lib/redact.ts';
import { stopSignal } from '../../server/lib/stop-signal.ts';
import { CliError } from '../output.ts';

// Loaded when first needed (server/lib/load-module.ts).
const load = moduleLoader(import.meta.url);

export function serveCommand(): Command {
  const cmd = new Command('serve').description('run the gatehouse server (gRPC + HTTP)');
  for (const o of OPTIONS) {
    const opt = new Option(o.flag, `${o.doc} (env ${o.env}${o.default !== null && o.default !== false ? `, default ${o.default}` : ''})`);
    cmd.addOption(opt);
  }
  cmd.action(async (flags: Record<string, unknown>) => {
    const byKey: Partial<Record<keyof Config, unknown>> = {};
    for (const o of OPTIONS) {
      // commander names options after the flag (--grpc → grpc); map back to config keys
      const flagName = o.flag
        .split(' ')[0]!
        .replace(/^--/, '')
        .replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
      if (flags[flagName] !== undefined) byKey[o.key] = flags[flagName];
    }
    let config: Config;
    try {
      config = loadConfig(byKey);
    } catch (e) {
      if (e instanceof ConfigError) throw new CliError(e.message, 2, 'usage');
      throw e;
    }
    const { workerAssignment, startWorker } = await load<typeof import('../../server/cluster/worker.ts')>('../../server/cluster/worker.ts');
    const assignment = workerAssignment();
    if (assignment === null && config.workers > 1) {
      const { runCluster } = await load<typeof import('../../server/cluster/primary.ts')>('../../server/cluster/primary.ts');
      const clean = await runCluster(config).catch((e: Error) => {
        throw new CliError(e.message, 1, 'start_failed');
      });
      if (!clean) throw new CliError('a worker did not stop cleanly', 1, 'stop_failed');
      return;
    }
    const { startServer } = await load<typeof import('../../server/main.ts')>('../../server/main.ts');
    const start = assignment ? startWorker(assignment) : startServer(config).then((running) => ({ running, log: running.app.log }));
    const { running, log } = await start.catch((e: Error) => {
      throw new CliError(e.message, 1, 'start_failed');
    });
    if (!assignment) {
      process.stdout.write(JSON.stringify({ event: 'ready', grpc: running.grpcAddr, http: running.httpAddr }) + '\n');
      log.info('gatehouse started', { grpc: running.grpcAddr, http: running.httpAddr, db: shownDatabase(config.db) });
    }
    const signal = await stopSignal();
    log.info('shutting down', { signal });
    await running.stop();
    log.info('stopped');
  });
  return cmd;
}
