// SQLite's errors that are ours to explain, translated at the stores' edge (stores.ts), as
// PostgreSQL's are (postgres/tx.ts): the call chain and errors.ts know no database.
import { GatehouseError } from '../../errors.ts';
import { errorOfKind } from '../errors.ts';
import { dbErrorKind } from './error-kind.ts';

/** Our error for a better-sqlite3 error that is not a bug, or null (a bug: the caller's 500). */
export function sqliteError(err: unknown): GatehouseError | null {
  return errorOfKind(dbErrorKind(err), err);
}

/** `store` whose every method hands back our error for SQLite's (busy, unavailable → 503), thrown
 *  or rejected; our own errors and bugs pass through as they are. The methods are wrapped once,
 *  here (a Proxy would run its trap on every call); anything else is read through to the store. */
export function withSqliteErrors<T extends object>(store: T): T {
  const translate = (e: unknown) => (e instanceof GatehouseError ? e : (sqliteError(e) ?? e));
  const wrapped = Object.create(store) as Record<PropertyKey, unknown>;
  for (let o: object | null = store; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const key of Reflect.ownKeys(o)) {
      const value: unknown = Reflect.get(store, key);
      if (key === 'constructor' || typeof value !== 'function' || Object.hasOwn(wrapped, key)) continue;
      wrapped[key] = (...args: unknown[]) => {
        let result: unknown;
        try {
          result = value.apply(store, args);
        } catch (e) {
          throw translate(e);
        }
        return result instanceof Promise ? result.catch((e: unknown) => Promise.reject(translate(e))) : result;
      };
    }
  }
  return wrapped as T;
}
