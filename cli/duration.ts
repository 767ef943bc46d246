// Window lengths as operators type them: 5h, 90m, 1d, 1w, 30d, or plain seconds.
const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** Seconds, or an error message fit to show under a prompt. */
export function parseDuration(text: string): number | string {
  const m = /^\s*(\d+)\s*([smhdw]?)\s*$/i.exec(text);
  if (!m) return 'a length like 5h, 90m, 1d, 1w, 30d or a number of seconds';
  const seconds = Number(m[1]) * UNITS[(m[2] || 's').toLowerCase()]!;
  if (!Number.isSafeInteger(seconds)) return 'too long';
  if (seconds <= 0) return 'must be longer than 0 seconds';
  return seconds;
}

/** The shortest exact spelling: 18000 → 5h, 604800 → 1w, 2592000 → 30d, 5400 → 90m. */
export function formatDuration(seconds: number): string {
  for (const unit of ['w', 'd', 'h', 'm'] as const) {
    const size = UNITS[unit]!;
    if (seconds >= size && seconds % size === 0) return `${seconds / size}${unit}`;
  }
  return `${seconds}s`;
}

/** `5h=500` (the --window flag) → a window. */
export function parseWindowFlag(text: string): { windowSeconds: number; limit: number } | string {
  const m = /^([^=]+)=(.*)$/.exec(text);
  if (!m) return `--window ${text}: expected LENGTH=LIMIT, e.g. 5h=500`;
  const seconds = parseDuration(m[1]!);
  if (typeof seconds === 'string') return `--window ${text}: length is ${seconds}`;
  if (!/^\d+$/.test(m[2]!.trim()) || !Number.isSafeInteger(Number(m[2]))) return `--window ${text}: limit must be a whole number ≥ 0`;
  return { windowSeconds: seconds, limit: Number(m[2]) };
}
