// gatehouse default-config: the realm default points configuration (the console page
// /manage/points/default-config): get, set with flags (scripts), edit interactively.
import { Command } from 'commander';
import { moduleLoader } from '../../server/lib/load-module.ts';
import { type CliAnswer, type CliRequest, collect, type Globals, globals, parseIntArg, realmOf, rpc, show } from '../context.ts';
import { record, usageError } from '../output.ts';
import { canPrompt } from '../prompts.ts';
import type { Window } from '../window-editor.ts';

// Loaded when first needed (server/lib/load-module.ts).
const load = moduleLoader(import.meta.url);

const PERIOD_TYPES = ['once', 'daily', 'weekly', 'monthly'];

type Config = CliAnswer<'PointsService', 'GetDefaultConfig'>;

/** The configuration as text. The window helpers load here, not at start, so `--help` stays fast. */
export async function describeConfig(cfg: Config): Promise<string> {
  const { windowTable } = await load<typeof import('../window-text.ts')>('../window-text.ts');
  const windows = cfg.freePeriodicQuotaWindows as Window[] | null;
  const { freePeriodicQuotaWindows: _w, ...rest } = cfg;
  return `${record(rest)}\nfreePeriodicQuotaWindows: ${windows === null ? 'not set' : windows.length === 0 ? 'none (cleared)' : ''}${windows?.length ? '\n' + windowTable(windows) : ''}`;
}

/** With windows the free periodic grant is a window entitlement and its fixed amount is not used
 *  (server/store/sqlite/points-sql.ts materialiseFreePeriodic): say so rather than let an amount look in force. */
async function unusedAmountWarning(cfg: Config): Promise<string | null> {
  const windows = cfg.freePeriodicQuotaWindows as Window[] | null;
  const amount = cfg.freePeriodicPointsAmount;
  if (!windows?.length || amount <= 0) return null;
  const { windowsText } = await load<typeof import('../window-text.ts')>('../window-text.ts');
  return `warning: the free periodic grant uses its windows (${windowsText(windows)}), so freePeriodicPointsAmount ${amount} is not granted; clear the windows (--clear-free-windows) to grant a fixed amount instead`;
}

async function put(g: Globals, body: Omit<CliRequest<'PointsService', 'PutDefaultConfig'>, 'realmId'>) {
  const res = await rpc(g, 'PointsService', 'PutDefaultConfig', { realmId: realmOf(g), ...body });
  const text = g.json ? '' : await describeConfig(res);
  show(g, res, () => `saved\n${text}`);
  return res;
}

export function defaultConfigCommand(): Command {
  const cmd = new Command('default-config').description('the realm default points configuration (registration bonus, free periodic grant and its windows)');

  cmd
    .command('get')
    .description('show the configuration')
    .action(async (_o: object, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'PointsService', 'GetDefaultConfig', { realmId: realmOf(g) });
      const text = g.json ? '' : await describeConfig(res);
      show(g, res, () => text);
    });

  cmd
    .command('set')
    .description('change some fields (a partial update); windows as --window 5h=500 --window week=5000')
    .option('--registration-bonus <n>', 'registration_credit given once to each new user', parseIntArg('--registration-bonus'))
    .option('--free-amount <n>', 'points of each free periodic grant (not used while free windows are set)', parseIntArg('--free-amount'))
    .option('--free-period-type <type>', PERIOD_TYPES.join(' | '))
    .option('--free-validity-days <n>', 'days a free grant stays valid (0 = never expires)', parseIntArg('--free-validity-days'))
    .option('--window <length=limit>', 'a free periodic quota window (repeatable; replaces the stored windows)', collect, [])
    .option('--clear-free-windows', 'remove the free periodic quota windows')
    .action(
      async (
        o: {
          registrationBonus?: number;
          freeAmount?: number;
          freePeriodType?: string;
          freeValidityDays?: number;
          window: string[];
          clearFreeWindows?: boolean;
        },
        c: Command,
      ) => {
        const g = globals(c);
        if (o.window.length && o.clearFreeWindows) throw usageError('--window and --clear-free-windows contradict each other');
        if (o.freePeriodType !== undefined && !PERIOD_TYPES.includes(o.freePeriodType))
          throw usageError(`--free-period-type: one of ${PERIOD_TYPES.join(', ')}`);
        const { windowsFromFlags } = await load<typeof import('../window-rules.ts')>('../window-rules.ts');
        const windows = o.clearFreeWindows ? [] : o.window.length ? windowsFromFlags(o.window, 'freePeriodicQuotaWindows') : null;
        const body = {
          registrationBonusPoints: o.registrationBonus,
          freePeriodicPointsAmount: o.freeAmount,
          freePeriodicGrantPeriodType: o.freePeriodType,
          freePeriodicValidityDays: o.freeValidityDays,
          freePeriodicQuotaWindows: windows === null ? null : { windows },
        };
        if (Object.values(body).every((v) => v === undefined || v === null)) throw usageError('nothing to set: pass at least one option (see --help)');
        const saved = await put(g, body);
        const warning = o.freeAmount !== undefined || windows !== null ? await unusedAmountWarning(saved) : null;
        if (warning) process.stderr.write(warning + '\n');
      },
    );

  cmd
    .command('edit')
    .description('edit the free periodic quota windows interactively, with a preview before saving')
    .action(async (_o: object, c: Command) => {
      const g = globals(c);
      if (!canPrompt()) throw usageError('edit needs a terminal; in scripts use `default-config set --window 5h=500 …`');
      const current = await rpc(g, 'PointsService', 'GetDefaultConfig', { realmId: realmOf(g) });
      const { editWindows } = await load<typeof import('../window-editor.ts')>('../window-editor.ts');
      const { windowRules } = await load<typeof import('../window-rules.ts')>('../window-rules.ts');
      const { windowsText } = await load<typeof import('../window-text.ts')>('../window-text.ts');
      const before = (current.freePeriodicQuotaWindows as Window[] | null) ?? [];
      const after = await editWindows(`Free periodic quota windows of realm ${realmOf(g)}`, before, windowRules('freePeriodicQuotaWindows'));
      if (after === null) {
        process.stderr.write('cancelled; nothing saved\n');
        return;
      }
      const saved = await put(g, { freePeriodicQuotaWindows: { windows: after } });
      if (!g.json) process.stderr.write(`windows now: ${windowsText(after)}\n`);
      const warning = await unusedAmountWarning(saved);
      if (warning) process.stderr.write(warning + '\n');
    });
  return cmd;
}
