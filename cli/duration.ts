// Lengths of time as operators type them: 5h, 90m, 1d, 1w, 30d, plain seconds, and the window
// names the server reports (day, week, month), so a name shown by one command can be typed to another.
const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };
const NAMES: Record<string, number> = { day: 86_400, week: 604_800, month: 2_592_000 };

/** Seconds, or an error message fit to show under a prompt or after a flag name and a colon. */
export function parseDuration(text: string): number | string {
  const named = NAMES[text.trim().toLowerCase()];
  if (named) return named;
  const m = /^\s*(\d+)\s*([smhdw]?)\s*$/i.exec(text);
  if (!m) return 'expected a length like 5h, 90m, 1d, 1w, 30d or a number of seconds';
  const seconds = Number(m[1]) * UNITS[(m[2] || 's').toLowerCase()]!;
  if (!Number.isSafeInteger(seconds)) return 'too long';
  if (seconds <= 0) return 'must be longer than 0 seconds';
  return seconds;
}

/** `5h=500` (the --window flag) → a window. */
export function parseWindowFlag(text: string): { windowSeconds: number; limit: number } | string {
  const m = /^([^=]+)=(.*)$/.exec(text);
  if (!m) return `--window ${text}: expected LENGTH=LIMIT, e.g. 5h=500`;
  const seconds = parseDuration(m[1]!);
  if (typeof seconds === 'string') return `--window ${text}: length: ${seconds}`;
  const limit = parseLimit(m[2]!);
  if (limit === null) return `--window ${text}: limit: must be a whole number ≥ 0`;
  return { windowSeconds: seconds, limit };
}

/** A window's limit as typed (a whole number, 0 or more), or null. */
export function parseLimit(text: string): number | null {
  return /^\s*\d+\s*$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : null;
}
