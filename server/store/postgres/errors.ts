// PostgreSQL's failures that are ours to explain, translated at the store's edge (the twin of
// sqlite/errors.ts and sqlite/error-kind.ts), so errors.ts knows no database. SQLSTATE
// classes: PostgreSQL's "Appendix A. Error Codes".
import type { GatehouseError } from '../../errors.ts';
import type { DbErrorKind } from '../../lib/metrics.ts';
import { errorOfKind } from '../errors.ts';

/** The driver's own messages for a connection that is gone or never came (they carry no code). */
const CONNECTION_LOST =
  /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect|Cannot use a pool after calling end|The server does not support SSL|There was an error establishing an SSL connection|timeout expired)/;

/** Errors of the socket under a connection (Node's errno codes). */
const SOCKET = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOENT', 'EACCES']);

function sqlState(err: unknown): string | null {
  if (err === null || typeof err !== 'object') return null;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : null;
}

/** Whether the transaction failed because another one won a race the database detected
 *  (serialization failure, deadlock): the whole use case may run again, rules re-read. */
export function isRetryableConflict(err: unknown): boolean {
  const s = sqlState(err);
  return s === '40001' || s === '40P01';
}

/** Whether the connection itself failed (the database stopped, restarted, ended the session, or
 *  cannot be reached): nothing of a transaction it carried was committed unless COMMIT was sent. */
export function isConnectionFailure(err: unknown): boolean {
  if (err === null || typeof err !== 'object') return false;
  const s = sqlState(err);
  // 08: connection exception; 57P01–57P03: the server is shutting down, crashed or starting;
  // 53300: too many connections; 3D000: the database does not exist (dropped); 28: login refused.
  if (s) return s.startsWith('08') || s === '57P01' || s === '57P02' || s === '57P03' || s === '53300' || s === '3D000' || s.startsWith('28');
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && SOCKET.has(code)) return true;
  return err instanceof Error && (CONNECTION_LOST.test(err.message) || (err.cause !== undefined && isConnectionFailure(err.cause)));
}

/** busy: a lock or statement timeout, or a conflict still lost after the retries; unavailable:
 *  the database cannot be used (unreachable, stopped, out of disk or memory, read-only); other:
 *  any other database error; null: not a database error. */
export function postgresErrorKind(err: unknown): DbErrorKind | null {
  if (isConnectionFailure(err)) return 'unavailable';
  const s = sqlState(err);
  if (s === null) return null;
  // 55P03: lock_timeout; 57014: statement_timeout (query_canceled); 40: a lost race, retried already.
  if (s === '55P03' || s === '57014' || s.startsWith('40')) return 'busy';
  // 53: insufficient resources (disk full, out of memory); 58: system error (I/O); 25006: a
  // read-only server (a standby after a failover).
  // XX001/XX002: a damaged table or index.
  if (s.startsWith('53') || s.startsWith('58') || s === '25006' || s === 'XX001' || s === 'XX002') return 'unavailable';
  return 'other';
}

/** Our error for a PostgreSQL failure that is not a bug, or null (a bug: the caller's 500). */
export function postgresError(err: unknown): GatehouseError | null {
  return errorOfKind(postgresErrorKind(err), err);
}
