// The root program: global options, one command module per concern, one error handler with fixed
// exit codes (0 ok, 1 failed, 2 usage). Diagnostics go to stderr so stdout stays parseable.
import { Command, CommanderError } from 'commander';
import { alertsCommand } from './commands/alerts.ts';
import { auditCommand } from './commands/audit.ts';
import { backupCommand } from './commands/backup.ts';
import { billingCommand } from './commands/billing.ts';
import { clientCommand } from './commands/client.ts';
import { dbCommand } from './commands/db.ts';
import { defaultConfigCommand } from './commands/default-config.ts';
import { identitiesCommand } from './commands/identities.ts';
import { keysCommand } from './commands/keys.ts';
import { mappingsCommand } from './commands/mappings.ts';
import { pointsCommand } from './commands/points.ts';
import { providerCommand } from './commands/provider.ts';
import { realmCommand } from './commands/realm.ts';
import { secretsCommand } from './commands/secrets.ts';
import { serveCommand } from './commands/serve.ts';
import { simulateCommand } from './commands/simulate.ts';
import { subscriptionsCommand } from './commands/subscriptions.ts';
import { usersCommand } from './commands/users.ts';
import { webhooksCommand } from './commands/webhooks.ts';
import { closeConnections } from './context.ts';
import { EXIT, reportError } from './output.ts';

export function buildProgram(): Command {
  const program = new Command('gatehouse')
    .description('Native ID-token login and rolling-window points quotas')
    .option('--server <host:port>', 'gRPC listener of a running gatehouse, e.g. 127.0.0.1:50051 (env GATEHOUSE_SERVER)')
    .option('--api-key <key>', 'admin API key (env GATEHOUSE_API_KEY)')
    .option('--realm <id>', 'realm to act on (env GATEHOUSE_REALM)')
    .option('--json', 'machine-readable output on stdout')
    .showHelpAfterError()
    .exitOverride();
  const commands = [
    serveCommand(),
    keysCommand(),
    realmCommand(),
    clientCommand(),
    providerCommand(),
    backupCommand(),
    dbCommand(),
    secretsCommand(),
    pointsCommand(),
    subscriptionsCommand(),
    billingCommand(),
    usersCommand(),
    webhooksCommand(),
    auditCommand(),
    identitiesCommand(),
    defaultConfigCommand(),
    alertsCommand(),
    mappingsCommand(),
    simulateCommand(),
  ];
  for (const cmd of commands) program.addCommand(cmd);
  // Every subcommand reports usage errors through our handler, not by exiting itself.
  const override = (c: Command) => {
    c.exitOverride();
    c.commands.forEach(override);
  };
  override(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT.ok;
      // Help shown because no subcommand was given (commander writes it to stderr): a usage error.
      if (err.code === 'commander.help') return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
      return EXIT.usage;
    }
    return reportError(err, argv.includes('--json'));
  } finally {
    closeConnections();
  }
}

const isMain = process.argv[1] && /(^|[\\/])(gatehouse|index\.ts)$/.test(process.argv[1]);
if (isMain) {
  main(process.argv).then((code) => {
    process.exitCode = code;
  });
}
