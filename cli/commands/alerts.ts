// gatehouse alerts: the realm's points alerts (docs/events.md): get, and set, which
// replaces the whole configuration (what is not given is off).
import { Command } from 'commander';
import { type CliAnswer, collect, globals, parseIntArg, realmOf, rpc, show } from '../context.ts';
import { record } from '../output.ts';

type Alerts = CliAnswer<'PointsService', 'GetAlerts'>;

const describe = (a: Alerts) => record({ ...a, lowBalanceThresholds: a.lowBalanceThresholds.length ? a.lowBalanceThresholds.join(', ') : 'none' });

export function alertsCommand(): Command {
  const cmd = new Command('alerts').description('the realm points alerts sent as events (points.balance_low, points.quota_exhausted, points.quota_recovered)');

  cmd
    .command('get')
    .description('show the configuration')
    .action(async (_o: object, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'PointsService', 'GetAlerts', { realmId: realmOf(g) });
      show(g, res, () => describe(res));
    });

  cmd
    .command('set')
    .description('replace the configuration: what is not given is off')
    .option('--low-balance <points>', 'a low balance threshold (repeatable, at most 8)', collect, [])
    .option('--quota-exhausted', 'send points.quota_exhausted when a window runs out')
    .option('--quota-recovered', 'send points.quota_recovered when an exhausted window has quota again')
    .action(async (o: { lowBalance: string[]; quotaExhausted?: boolean; quotaRecovered?: boolean }, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'PointsService', 'PutAlerts', {
        realmId: realmOf(g),
        lowBalanceThresholds: o.lowBalance.map(parseIntArg('--low-balance', 1)),
        quotaExhausted: o.quotaExhausted === true,
        quotaRecovered: o.quotaRecovered === true,
      });
      show(g, res, () => `saved\n${describe(res)}`);
    });

  return cmd;
}
