// SQLite's errors that are ours to explain, translated at the store's edge (stores.ts), so the
// call chain and errors.ts know no database.
import type { GatehouseError } from '../../errors.ts';
import { errorOfKind } from '../errors.ts';
import { dbErrorKind } from './error-kind.ts';

/** Our error for a better-sqlite3 error that is not a bug, or null (a bug: the caller's 500). */
export function sqliteError(err: unknown): GatehouseError | null {
  return errorOfKind(dbErrorKind(err), err);
}
