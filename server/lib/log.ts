// JSON lines on stderr (CONTRACT §1). Callers pass only safe fields: never a token or a secret.
import { writeSync } from 'node:fs';
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

let stderrLines: string[] = [];
let stderrScheduled = false;
function flushStderr(): void {
  stderrScheduled = false;
  if (stderrLines.length === 0) return;
  const out = stderrLines.join('\n') + '\n';
  stderrLines = [];
  process.stderr.write(out);
}
let exitHooked = false;

/** Lines written to stderr once per turn of the event loop, not one write(2) each: a pipe to a log
 *  collector is synchronous in Node, and at thousands of requests a second the per-line writes
 *  cost as much as a login's database work. Whatever is pending is written on exit. */
export function stderrLineWriter(line: string): void {
  if (!exitHooked) {
    exitHooked = true;
    process.once('exit', () => {
      if (stderrLines.length === 0) return;
      try {
        writeSync(2, stderrLines.join('\n') + '\n');
      } catch {
        // stderr is gone: nothing left to tell.
      }
      stderrLines = [];
    });
  }
  stderrLines.push(line);
  if (stderrLines.length >= 256) flushStderr();
  else if (!stderrScheduled) {
    stderrScheduled = true;
    setImmediate(flushStderr);
  }
}

export function createLogger(opts: { level?: LogLevel; write?: (line: string) => void; base?: LogFields } = {}): Logger {
  const min = ORDER[opts.level ?? 'info'];
  const write = opts.write ?? stderrLineWriter;
  const base = opts.base ?? {};
  const emit = (level: LogLevel, msg: string, fields?: LogFields) => {
    if (ORDER[level] < min) return;
    write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...base, ...fields }));
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (fields) => createLogger({ level: opts.level, write, base: { ...base, ...fields } }),
  };
}

export const silentLogger: Logger = createLogger({ write: () => {} });

/** The log fields of an error: its code and, for internal errors, the cause's message and stack. */
export function errorFields(err: { code?: string; message: string; cause?: unknown }): LogFields {
  const cause = err.cause as { message?: string; stack?: string } | undefined;
  return { error: err.code, message: err.message, ...(cause ? { cause: cause.message, stack: cause.stack } : {}) };
}
