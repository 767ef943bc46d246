// gatehouse default-config: the realm default points configuration (the console page
// /manage/points/default-config): get, set with flags (scripts), edit interactively.
import { Command } from 'commander';
import { collect, globals, parseIntArg, realmOf, rpc, show, type Globals } from '../context.ts';
import { formatDuration } from '../duration.ts';
import { record, usageError } from '../output.ts';
import { canPrompt } from '../prompts.ts';
import { windowTable, type Window } from '../window-editor.ts';

const PERIOD_TYPES = ['once', 'daily', 'weekly', 'monthly'];

export function describeConfig(cfg: Record<string, unknown>): string {
  const windows = cfg.freePeriodicQuotaWindows as Window[] | null;
  const { freePeriodicQuotaWindows: _w, ...rest } = cfg;
  return `${record(rest)}\nfreePeriodicQuotaWindows: ${windows === null ? 'not set' : windows.length === 0 ? 'none (cleared)' : ''}${windows?.length ? '\n' + windowTable(windows) : ''}`;
}

async function put(g: Globals, body: Record<string, unknown>) {
  const res = await rpc(g, 'PointsService', 'PutDefaultConfig', { realmId: realmOf(g), ...body });
  show(g, res, () => `saved\n${describeConfig(res)}`);
}

export function defaultConfigCommand(): Command {
  const cmd = new Command('default-config').description('the realm default points configuration (registration bonus, free periodic grant and its windows)');

  cmd
    .command('get')
    .description('show the configuration')
    .action(async (_o: object, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'PointsService', 'GetDefaultConfig', { realmId: realmOf(g) });
      show(g, res, () => describeConfig(res));
    });

  cmd
    .command('set')
    .description('change some fields (a partial update); windows as --window 5h=500 --window 1w=5000')
    .option('--registration-bonus <n>', 'registration_credit given once to each new user', parseIntArg('--registration-bonus'))
    .option('--free-amount <n>', 'points of each free periodic grant', parseIntArg('--free-amount'))
    .option('--free-period-type <type>', PERIOD_TYPES.join(' | '))
    .option('--free-validity-days <n>', 'days a free grant stays valid (0 = never expires)', parseIntArg('--free-validity-days'))
    .option('--window <length=limit>', 'a free periodic quota window (repeatable; replaces the stored windows)', collect, [])
    .option('--clear-free-windows', 'remove the free periodic quota windows')
    .action(async (o: { registrationBonus?: number; freeAmount?: number; freePeriodType?: string; freeValidityDays?: number; window: string[]; clearFreeWindows?: boolean }, c: Command) => {
      const g = globals(c);
      if (o.window.length && o.clearFreeWindows) throw usageError('--window and --clear-free-windows contradict each other');
      if (o.freePeriodType !== undefined && !PERIOD_TYPES.includes(o.freePeriodType)) throw usageError(`--free-period-type: one of ${PERIOD_TYPES.join(', ')}`);
      const { windowsFromFlags } = await import('../window-rules.ts');
      const windows = o.clearFreeWindows ? [] : o.window.length ? windowsFromFlags(o.window, 'freePeriodicQuotaWindows') : null;
      const body = {
        registrationBonusPoints: o.registrationBonus,
        freePeriodicPointsAmount: o.freeAmount,
        freePeriodicGrantPeriodType: o.freePeriodType,
        freePeriodicValidityDays: o.freeValidityDays,
        freePeriodicQuotaWindows: windows === null ? null : { windows },
      };
      if (Object.values(body).every((v) => v === undefined || v === null)) throw usageError('nothing to set: pass at least one option (see --help)');
      await put(g, body);
    });

  cmd
    .command('edit')
    .description('edit the free periodic quota windows interactively, with a preview before saving')
    .action(async (_o: object, c: Command) => {
      const g = globals(c);
      if (!canPrompt()) throw usageError('edit needs a terminal; in scripts use `default-config set --window 5h=500 …`');
      const current = await rpc(g, 'PointsService', 'GetDefaultConfig', { realmId: realmOf(g) });
      const { editWindows } = await import('../window-editor.ts');
      const { windowRules } = await import('../window-rules.ts');
      const before = (current.freePeriodicQuotaWindows as Window[] | null) ?? [];
      const after = await editWindows(`Free periodic quota windows of realm ${realmOf(g)}`, before, windowRules('freePeriodicQuotaWindows'));
      if (after === null) {
        process.stderr.write('cancelled; nothing was saved\n');
        return;
      }
      await put(g, { freePeriodicQuotaWindows: { windows: after } });
      if (!g.json) process.stderr.write(`windows now: ${after.map((w) => `${formatDuration(w.windowSeconds)}=${w.limit}`).join(' ') || 'none'}\n`);
    });
  return cmd;
}
