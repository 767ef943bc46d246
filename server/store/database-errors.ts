// SQLite's errors that are ours to explain, translated at the store's edge: app.ts exposes this as
// App.storeErrors and main.ts hands it to the RPC layer and the sweeper, so errors.ts knows no database.
import { GatehouseError } from '../errors.ts';
import type { DbErrorKind } from '../lib/metrics.ts';
import { dbErrorKind } from './error-kind.ts';

/** Our error for a better-sqlite3 error that is not a bug, or null (a bug: the caller's 500). */
export function sqliteError(err: unknown): GatehouseError | null {
  return errorOfKind(dbErrorKind(err), err);
}

/** Our error for a database failure of either backend by its kind (error-kind.ts,
 *  postgres/errors.ts). Busy or locked past the busy timeout (--busy-timeout-ms) is a transient
 *  overload; a database that cannot be used (closed, unreadable, full, unreachable) is an outage:
 *  both 503, retry. Any other failure is a bug: null, the caller's 500. */
export function errorOfKind(kind: DbErrorKind | null, err: unknown): GatehouseError | null {
  switch (kind) {
    case 'busy':
      return new GatehouseError('service_unavailable', 'Database is busy, try again', { cause: err, headers: { 'retry-after': '1' } });
    case 'unavailable':
      return new GatehouseError('service_unavailable', 'Database unavailable', { cause: err, headers: { 'retry-after': '1' } });
    default:
      return null;
  }
}
