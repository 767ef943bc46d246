// JSON lines on stderr (README.md). Callers pass only safe fields: never a token or a secret.
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
let exitHooked = false;

/** The most bytes one write(2) to a pipe keeps whole (PIPE_BUF on Linux): the workers of
 *  `serve --workers N` share one stderr, and a longer write may interleave with another's. */
const ATOMIC_WRITE = 4096;

/** `lines` as texts of whole lines, each at most `max` bytes unless a single line is longer. */
export function chunkLines(lines: readonly string[], max = ATOMIC_WRITE): string[] {
  const chunks: string[] = [];
  let chunk = '';
  let bytes = 0;
  for (const line of lines) {
    const n = Buffer.byteLength(line) + 1;
    if (bytes > 0 && bytes + n > max) {
      chunks.push(chunk);
      chunk = '';
      bytes = 0;
    }
    chunk += line + '\n';
    bytes += n;
  }
  if (bytes > 0) chunks.push(chunk);
  return chunks;
}

/** The pending lines (emptied), chunked. */
function takeChunks(): string[] {
  const chunks = chunkLines(stderrLines);
  stderrLines = [];
  return chunks;
}

function flushStderr(): void {
  stderrScheduled = false;
  for (const chunk of takeChunks()) process.stderr.write(chunk);
}

/** Lines written to stderr once per turn of the event loop, not one write(2) each: a pipe to a log
 *  collector is synchronous in Node, and at thousands of requests a second the per-line writes
 *  cost as much as a login's database work. Whatever is pending is written on exit. Each write
 *  holds whole lines and at most ATOMIC_WRITE bytes, so lines of several processes never mix. */
export function stderrLineWriter(line: string): void {
  if (!exitHooked) {
    exitHooked = true;
    process.once('exit', () => {
      try {
        for (const chunk of takeChunks()) writeSync(2, chunk);
      } catch {
        // stderr is gone: nothing left to tell.
      }
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
  return new JsonLogger(ORDER[opts.level ?? 'info'], opts.write ?? stderrLineWriter, opts.base ?? {});
}

// A class, not closures: every request makes a child logger, and methods on the prototype cost
// nothing per child.
class JsonLogger implements Logger {
  constructor(
    private readonly min: number,
    private readonly write: (line: string) => void,
    private readonly base: LogFields,
  ) {}

  debug(msg: string, fields?: LogFields): void {
    if (ORDER.debug >= this.min) this.emit('debug', msg, fields);
  }
  info(msg: string, fields?: LogFields): void {
    if (ORDER.info >= this.min) this.emit('info', msg, fields);
  }
  warn(msg: string, fields?: LogFields): void {
    if (ORDER.warn >= this.min) this.emit('warn', msg, fields);
  }
  error(msg: string, fields?: LogFields): void {
    if (ORDER.error >= this.min) this.emit('error', msg, fields);
  }
  child(fields: LogFields): Logger {
    return new JsonLogger(this.min, this.write, { ...this.base, ...fields });
  }

  /** The base fields as JSON members without braces, made on the first line; null when a base
   *  field's key is one the text cannot take as it is (isLineKey): the line is then one object. */
  private baseMembers: string | null | undefined;

  private emit(level: LogLevel, msg: string, fields?: LogFields): void {
    if (this.baseMembers === undefined) this.baseMembers = Object.keys(this.base).some(isLineKey) ? null : JSON.stringify(this.base).slice(1, -1);
    const base = this.baseMembers;
    if (base === null || (fields !== undefined && !this.apart(fields))) {
      this.write(JSON.stringify({ time: isoNow(), level, msg, ...this.base, ...fields }));
      return;
    }
    // The same text as that object's, without building it: the base's members are serialised once
    // per logger, not once per line (a login writes two lines).
    const own = fields === undefined ? '{}' : JSON.stringify(fields);
    this.write(`{"time":"${isoNow()}","level":"${level}","msg":${JSON.stringify(msg)}${base && `,${base}`}${own.length > 2 ? `,${own.slice(1)}` : '}'}`);
  }

  /** Whether no field of `fields` would replace a base field or one of the line's own (or sort
   *  before them). */
  private apart(fields: LogFields): boolean {
    for (const key of Object.keys(fields)) if (isLineKey(key) || Object.hasOwn(this.base, key)) return false;
    return true;
  }
}

/** A key the text cannot take as it is: one of the line's own, or one that starts with a digit (an
 *  array-index key comes first in an object, before the line's own). */
const isLineKey = (key: string): boolean => key === 'time' || key === 'level' || key === 'msg' || (key.charCodeAt(0) >= 48 && key.charCodeAt(0) <= 57);

// The time of the last line, kept while the millisecond lasts: several lines share one. A new
// millisecond of the same second changes only its last digits: the text up to them is kept while
// the second lasts (one Date and toISOString a second, not one a line).
let isoMs = Number.NaN;
let isoText = '';
let isoSecond = Number.NaN;
let isoUpToMs = '';
function isoNow(): string {
  const ms = Date.now();
  if (ms !== isoMs) {
    isoMs = ms;
    const second = Math.floor(ms / 1000);
    if (second !== isoSecond) {
      isoSecond = second;
      const text = new Date(second * 1000).toISOString();
      isoUpToMs = text.slice(0, text.length - 4); // without "000Z"
    }
    const milli = ms - second * 1000;
    isoText = `${isoUpToMs}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
  }
  return isoText;
}

export const silentLogger: Logger = createLogger({ write: () => {} });

/** The log fields of an error: its code and, for internal errors, the cause's message and stack. */
export function errorFields(err: { code?: string; message: string; cause?: unknown }): LogFields {
  const cause = err.cause as { message?: string; stack?: string } | undefined;
  return { error: err.code, message: err.message, ...(cause ? { cause: cause.message, stack: cause.stack } : {}) };
}
