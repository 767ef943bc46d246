// Output: results on stdout (text, or JSON with --json), diagnostics on stderr, fixed exit codes.
// 130 = 128 + SIGINT, what a shell reports for a command stopped with Ctrl-C.
export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

export class CliError extends Error {
  /** `extra`: the server's error fields (`status`, `requestId`, `have`, …) as the HTTP error body has them. */
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failed,
    readonly code?: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const usageError = (message: string) => new CliError(message, EXIT.usage, 'usage');

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

export function printLine(text = ''): void {
  process.stdout.write(text + '\n');
}

/** A plain text table: header row, then rows; columns padded to their widest cell. */
export function table(headers: string[], rows: Array<Array<string | number | boolean | null | undefined>>): string {
  const cells = [headers, ...rows.map((r) => r.map((c) => (c === null || c === undefined ? '-' : String(c))))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n');
}

/** key: value lines for one record. */
export function record(obj: Record<string, unknown>): string {
  const keys = Object.keys(obj);
  const w = Math.max(...keys.map((k) => k.length));
  return keys
    .map((k) => {
      const v = obj[k];
      const s = v === null || v === undefined ? '-' : Array.isArray(v) ? v.join(', ') || '-' : typeof v === 'object' ? JSON.stringify(v) : String(v);
      return `${(k + ':').padEnd(w + 1)} ${s}`;
    })
    .join('\n');
}

export function reportError(err: unknown, json: boolean): number {
  // Ctrl-C at a prompt: inquirer rejects with ExitPromptError; nothing was sent after it.
  if ((err as Error | null)?.name === 'ExitPromptError') err = new CliError('cancelled; nothing saved', EXIT.interrupted, 'cancelled');
  if (err instanceof CliError) {
    if (json) process.stderr.write(JSON.stringify({ error: err.code ?? 'failed', message: err.message, ...err.extra }) + '\n');
    else if (err.code === 'cancelled') process.stderr.write(`\n${err.message}\n`);
    else process.stderr.write(`error${err.code && err.code !== 'usage' ? ` (${err.code})` : ''}: ${err.message}\n`);
    return err.exitCode;
  }
  const e = err as { code?: string; message?: string };
  if (e?.code === 'commander.helpDisplayed' || e?.code === 'commander.version') return EXIT.ok;
  if (typeof e?.code === 'string' && e.code.startsWith('commander.')) return EXIT.usage; // commander printed it
  process.stderr.write(`error: ${e?.message ?? String(err)}\n`);
  return EXIT.failed;
}
