// How the CLI names quota windows: the server's own keys (5h, day, week, month, else 14d, 90m, 45s),
// the ones summaries and the simulator report, so every command names a window the same way.
import { windowKey } from '../server/points/windows.ts';
import { table } from './output.ts';
import type { Window } from './window-editor.ts';

export { windowKey };

/** `5h=500 week=5000`, the --window flags that would set the list; `none` for an empty list. */
export function windowsText(windows: Window[]): string {
  return windows.map((w) => `${windowKey(w.windowSeconds)}=${w.limit}`).join(' ') || 'none';
}

export function windowTable(windows: Window[]): string {
  if (windows.length === 0) return '  (no windows)';
  return table(
    ['#', 'WINDOW', 'SECONDS', 'LIMIT'],
    windows.map((w, i) => [i + 1, windowKey(w.windowSeconds), w.windowSeconds, w.limit]),
  )
    .split('\n')
    .map((l) => '  ' + l)
    .join('\n');
}
