// The multi-window editor (the console's "advanced configuration" of a price row): add, change,
// remove and reorder rows, lengths typed as 5h / 90m / 1d / 1w / 30d / seconds, every answer
// checked as it is typed with the server's own window rules, and a preview before saving.
import { MAX_WINDOWS } from '../server/points/windows.ts';
import { parseDuration, parseLimit } from './duration.ts';
import { promptModule } from './prompts.ts';
import { windowKey, windowTable } from './window-text.ts';

/** A quota window as the server answers it: both fields set (proto/ makes them `optional` only so
 *  that a request missing one is refused rather than read as 0). */
export interface Window {
  windowSeconds: number;
  limit: number;
}

/** The server's rules for a whole list: returns the first problem, or null. */
export type WindowRules = (windows: Window[]) => string | null;

type Action = 'add' | 'change' | 'remove' | 'up' | 'down' | 'clear' | 'done' | 'cancel';

/** Runs the editor; resolves with the list to save, or null when the operator cancels. */
export async function editWindows(title: string, initial: Window[], rules: WindowRules): Promise<Window[] | null> {
  const prompt = await promptModule();
  const say = (text: string) => process.stderr.write(text + '\n');
  let rows = initial.map((w) => ({ ...w }));

  const lengthQuestion = (except: number | null, current?: number) => ({
    type: 'input' as const,
    name: 'length',
    message: 'Window length (5h, 90m, 1d, 1w, 30d or seconds):',
    default: current === undefined ? undefined : windowKey(current),
    validate: (text: string) => {
      const s = parseDuration(text);
      if (typeof s === 'string') return s;
      if (rows.some((w, i) => i !== except && w.windowSeconds === s)) return `a ${windowKey(s)} window exists already`;
      const trial = rows.map((w, i) => (i === except ? { ...w, windowSeconds: s } : w));
      if (except === null) trial.push({ windowSeconds: s, limit: 0 });
      return rules(trial) ?? true;
    },
  });
  const limitQuestion = (current?: number) => ({
    type: 'input' as const,
    name: 'limit',
    message: 'Limit (points in the window, 0 or more):',
    default: current === undefined ? undefined : String(current),
    validate: (text: string) => (parseLimit(text) === null ? 'a whole number, 0 or more' : true),
  });
  /** Asks for a row among `offered` (indexes into rows). */
  const pickRow = async (message: string, offered = rows.map((_, i) => i)) => {
    const { row } = await prompt([
      {
        type: 'select',
        name: 'row',
        message,
        pageSize: MAX_WINDOWS,
        choices: offered.map((i) => ({ name: `${i + 1}. ${windowKey(rows[i]!.windowSeconds)} — limit ${rows[i]!.limit}`, value: i })),
      },
    ]);
    return row as number;
  };

  for (;;) {
    say(`\n${title}\n${windowTable(rows)}`);
    const full = rows.length >= MAX_WINDOWS;
    const choices: Array<{ name: string; value: Action; disabled?: string }> = [
      { name: 'Add a window', value: 'add', ...(full ? { disabled: `(maximum ${MAX_WINDOWS} windows: remove one first)` } : {}) },
    ];
    if (rows.length > 0) {
      choices.push({ name: 'Change a window', value: 'change' }, { name: 'Remove a window', value: 'remove' });
      if (rows.length > 1) choices.push({ name: 'Move a window up', value: 'up' }, { name: 'Move a window down', value: 'down' });
      choices.push({ name: 'Clear all windows', value: 'clear' });
    }
    choices.push({ name: 'Done: preview and save', value: 'done' }, { name: 'Cancel without saving', value: 'cancel' });
    const { action } = (await prompt([{ type: 'select', name: 'action', message: 'What now?', choices, pageSize: 10 }])) as { action: Action };

    if (action === 'cancel') return null;
    if (action === 'add') {
      const a = (await prompt([lengthQuestion(null), limitQuestion()])) as { length: string; limit: string };
      rows.push({ windowSeconds: parseDuration(a.length) as number, limit: parseLimit(a.limit)! });
    } else if (action === 'change') {
      const i = await pickRow('Change which window?');
      const a = (await prompt([lengthQuestion(i, rows[i]!.windowSeconds), limitQuestion(rows[i]!.limit)])) as { length: string; limit: string };
      rows[i] = { windowSeconds: parseDuration(a.length) as number, limit: parseLimit(a.limit)! };
    } else if (action === 'remove') {
      const i = await pickRow('Remove which window?');
      rows.splice(i, 1);
    } else if (action === 'up' || action === 'down') {
      // The first row cannot go up nor the last down: they are not offered.
      const offered = rows.map((_, i) => i).filter((i) => (action === 'up' ? i > 0 : i < rows.length - 1));
      const i = await pickRow(`Move which window ${action}?`, offered);
      const j = action === 'up' ? i - 1 : i + 1;
      [rows[i], rows[j]] = [rows[j]!, rows[i]!];
    } else if (action === 'clear') {
      rows = [];
    } else if (action === 'done') {
      const problem = rows.length ? rules(rows) : null;
      if (problem) {
        say(`Cannot save yet: ${problem}`);
        continue;
      }
      say(`\nPreview — ${title}\n  before:\n${windowTable(initial)}\n  after:\n${windowTable(rows)}`);
      // Entitlements keep the snapshot of the windows they were granted with (docs/points.md, "Snapshot rule").
      say('Changes apply to grants made from now on; quota already granted keeps the windows it was granted with.');
      const { save } = (await prompt([
        rows.length
          ? { type: 'confirm', name: 'save', message: `Save these ${rows.length} window(s)?`, default: true }
          : { type: 'confirm', name: 'save', message: 'Save with no windows (clears the window configuration)?', default: false },
      ])) as { save: boolean };
      if (save) return rows;
    }
  }
}
