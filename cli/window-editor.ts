// The multi-window editor (the console's "advanced configuration" of a price row): add, change,
// remove and reorder rows, lengths typed as 5h / 90m / 1d / 1w / 30d / seconds, every answer
// checked as it is typed with the server's own window rules, and a preview before saving.
import { formatDuration, parseDuration } from './duration.ts';
import { promptModule } from './prompts.ts';
import { table } from './output.ts';

export interface Window {
  windowSeconds: number;
  limit: number;
}

/** The server's rules for a whole list: returns the first problem, or null. */
export type WindowRules = (windows: Window[]) => string | null;

export function windowTable(windows: Window[]): string {
  if (windows.length === 0) return '  (no windows)';
  return table(
    ['#', 'LENGTH', 'SECONDS', 'LIMIT'],
    windows.map((w, i) => [i + 1, formatDuration(w.windowSeconds), w.windowSeconds, w.limit]),
  )
    .split('\n')
    .map((l) => '  ' + l)
    .join('\n');
}

type Action = 'add' | 'change' | 'remove' | 'up' | 'down' | 'clear' | 'done' | 'cancel';

/** Runs the editor; resolves with the list to save, or null when the operator cancels. */
export async function editWindows(title: string, initial: Window[], rules: WindowRules): Promise<Window[] | null> {
  const prompt = promptModule();
  const say = (text: string) => process.stderr.write(text + '\n');
  let rows = initial.map((w) => ({ ...w }));

  const lengthQuestion = (except: number | null, current?: number) => ({
    type: 'input' as const,
    name: 'length',
    message: 'Window length (5h, 90m, 1d, 1w, 30d or seconds):',
    default: current === undefined ? undefined : formatDuration(current),
    validate: (text: string) => {
      const s = parseDuration(text);
      if (typeof s === 'string') return s;
      if (rows.some((w, i) => i !== except && w.windowSeconds === s)) return `a ${formatDuration(s)} window exists already`;
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
    validate: (text: string) => (/^\s*\d+\s*$/.test(text) && Number.isSafeInteger(Number(text)) ? true : 'a whole number, 0 or more'),
  });
  const pickRow = async (message: string) => {
    const { row } = await prompt([
      { type: 'select', name: 'row', message, choices: rows.map((w, i) => ({ name: `${i + 1}. ${formatDuration(w.windowSeconds)} — limit ${w.limit}`, value: i })) },
    ]);
    return row as number;
  };

  for (;;) {
    say(`\n${title}\n${windowTable(rows)}`);
    const choices: Array<{ name: string; value: Action }> = [];
    if (rows.length < 8) choices.push({ name: 'Add a window', value: 'add' });
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
      rows.push({ windowSeconds: parseDuration(a.length) as number, limit: Number(a.limit) });
    } else if (action === 'change') {
      const i = await pickRow('Change which window?');
      const a = (await prompt([lengthQuestion(i, rows[i]!.windowSeconds), limitQuestion(rows[i]!.limit)])) as { length: string; limit: string };
      rows[i] = { windowSeconds: parseDuration(a.length) as number, limit: Number(a.limit) };
    } else if (action === 'remove') {
      const i = await pickRow('Remove which window?');
      rows.splice(i, 1);
    } else if (action === 'up' || action === 'down') {
      const i = await pickRow(`Move which window ${action}?`);
      const j = action === 'up' ? i - 1 : i + 1;
      if (j >= 0 && j < rows.length) [rows[i], rows[j]] = [rows[j]!, rows[i]!];
    } else if (action === 'clear') {
      rows = [];
    } else if (action === 'done') {
      const problem = rows.length ? rules(rows) : null;
      if (problem) {
        say(`Cannot save yet: ${problem}`);
        continue;
      }
      say(`\nPreview — ${title}\n  before:\n${windowTable(initial)}\n  after:\n${windowTable(rows)}`);
      const { save } = (await prompt([{ type: 'confirm', name: 'save', message: rows.length ? `Save these ${rows.length} window(s)?` : 'Save with no windows (clears the configuration)?', default: true }])) as { save: boolean };
      if (save) return rows;
    }
  }
}
