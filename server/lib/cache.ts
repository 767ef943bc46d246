// A cache of rows a store reads often and others change rarely (a realm's points configuration, API
// keys, clients, providers). Each store passes its own invalidation signal, asked on every read:
// true when another writer (another process, another connection) may have changed the rows since
// the signal last answered; the cache then starts again. The store clears it around its own writes.
// A signal must be cheap to ask: the SQLite stores' reads PRAGMA data_version at most once per turn
// of the event loop, and once after each BEGIN of a write transaction (store/sqlite/other-commits.ts).

export interface Cache<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  clear(): void;
}

export interface CacheOptions {
  /** Most entries held; past it the cache starts again (bounded memory whatever the keys). */
  max: number;
  /** True when others have committed changes since it last answered. */
  invalidation: () => boolean;
}

class SignalledCache<V> implements Cache<V> {
  private readonly map = new Map<string, V>();

  constructor(
    private readonly max: number,
    private readonly invalidation: () => boolean,
  ) {}

  get(key: string): V | undefined {
    if (this.invalidation()) this.map.clear();
    return this.map.get(key);
  }

  set(key: string, value: V): void {
    if (this.map.size >= this.max) this.map.clear();
    this.map.set(key, value);
  }

  clear(): void {
    this.map.clear();
  }
}

export function createCache<V>({ max, invalidation }: CacheOptions): Cache<V> {
  return new SignalledCache<V>(max, invalidation);
}
