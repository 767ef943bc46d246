// What kind of database failure an error is: `busy` (the lock stayed taken past the busy timeout),
// `unavailable` (the database cannot be used: closed, unreadable, unwritable, full, damaged) or
// `other` (any other SQLite error); null when it is not a database error. better-sqlite3 reports
// SQLite's extended result codes (SQLITE_IOERR_WRITE, SQLITE_BUSY_SNAPSHOT…): the prefix decides.
import type { DbErrorKind } from '../../lib/metrics.ts';

const UNAVAILABLE = /^SQLITE_(CANTOPEN|IOERR|FULL|NOTADB|CORRUPT|READONLY|PROTOCOL|NOMEM)(_|$)/;

export function dbErrorKind(err: unknown): DbErrorKind | null {
  if (err === null || typeof err !== 'object') return null;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('SQLITE_')) {
    if (/^SQLITE_(BUSY|LOCKED)(_|$)/.test(code)) return 'busy';
    return UNAVAILABLE.test(code) ? 'unavailable' : 'other';
  }
  // better-sqlite3's answer to any statement on a closed connection (it carries no code).
  if (err instanceof TypeError && err.message === 'The database connection is not open') return 'unavailable';
  return null;
}
