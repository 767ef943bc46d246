// What both backends' failures mean to us. Each backend tells the kind of one of its database's
// errors (sqlite/error-kind.ts, postgres/errors.ts) and hands back our error for it at its edge;
// the metrics count them by the same kinds (lib/metrics.ts).
import { GatehouseError } from '../errors.ts';
import type { DbErrorKind } from '../lib/metrics.ts';

/** The database named by `--db` cannot be opened, created or migrated (the message says why). */
export class StoreOpenError extends Error {}

/** Our error for a database failure of either backend by its kind. Busy or locked past the busy
 *  timeout (--busy-timeout-ms) is a transient overload; a database that cannot be used (closed,
 *  unreadable, full, unreachable) is an outage: both 503, retry. Any other failure is a bug: null,
 *  the caller's 500. */
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
