// gatehouse serve: one process serving gRPC and the HTTP adapter over one SQLite database.
import { Command, Option } from 'commander';
import { type Config, ConfigError, loadConfig, OPTIONS } from '../../server/config.ts';
import { CliError } from '../output.ts';

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
    const { startServer } = await import('../../server/main.ts');
    const running = await startServer(config).catch((e: Error) => {
      throw new CliError(e.message, 1, 'start_failed');
    });
    process.stdout.write(JSON.stringify({ event: 'ready', grpc: running.grpcAddr, http: running.httpAddr }) + '\n');
    running.app.log.info('gatehouse started', { grpc: running.grpcAddr, http: running.httpAddr, db: config.db });
    await new Promise<void>((resolve) => {
      const shutdown = (signal: string) => {
        running.app.log.info('shutting down', { signal });
        void running.stop().then(resolve);
      };
      process.once('SIGTERM', () => shutdown('SIGTERM'));
      process.once('SIGINT', () => shutdown('SIGINT'));
    });
    running.app.log.info('stopped');
  });
  return cmd;
}
