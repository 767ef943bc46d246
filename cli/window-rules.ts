// The server's own window rules (server/points/windows.ts), phrased for a prompt or a flag error.
import { windowListProblem } from '../server/points/windows.ts';
import { parseWindowFlag } from './duration.ts';
import { usageError } from './output.ts';
import type { Window } from './window-editor.ts';

export function windowRules(field: string) {
  return (windows: Window[]): string | null => {
    const p = windowListProblem(windows, field);
    return p ? `${p.field}: ${p.message}` : null;
  };
}

/** --window 5h=500 (repeatable) → a checked list; a broken rule is a usage error (exit 2). */
export function windowsFromFlags(flags: string[], field: string): Window[] {
  const windows = flags.map((f) => {
    const w = parseWindowFlag(f);
    if (typeof w === 'string') throw usageError(w);
    return w;
  });
  const problem = windowRules(field)(windows);
  if (problem) throw usageError(problem);
  return windows;
}
