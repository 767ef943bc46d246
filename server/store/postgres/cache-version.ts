// Caches of rows every call reads and operators change rarely (API keys, clients, providers), kept
// exact across replicas. A trigger moves cache_version (001_core.sql) in the transaction of any
// change to those tables, whichever process makes it. A cached row is tagged with the version read
// in the same statement as the row; it is used only while the version read for the current call
// is the same. That version is read once per turn of the event loop and shared by every cached
// read of the turn: one small read answers all the calls that arrived together, and a call never
// uses a version read before it started, so a change committed before it (a revoked key, a
// disabled client) is seen by every replica on its next call. A database that cannot be reached
// fails the read, so nothing cached outlives an outage unchecked.
import type pg from 'pg';
import { query } from './tx.ts';

export class CacheVersion {
  private turn: Promise<number> | null = null;

  constructor(private readonly pool: pg.Pool) {}

  /** The version as of a read sent in this turn. */
  current(): Promise<number> {
    if (!this.turn) {
      this.turn = query<{ version: number }>(this.pool, CACHE_VERSION_SQL, []).then((r) => r[0]!.version);
      this.turn.catch(() => {}); // each caller handles it
      setImmediate(() => {
        this.turn = null;
      });
    }
    return this.turn;
  }
}

/** The read of the version alone. */
export const CACHE_VERSION_SQL = 'SELECT version FROM cache_version';

/** The SQL expression of the version, for a statement that reads it with its row. */
export const VERSION_SQL = `(${CACHE_VERSION_SQL})`;

interface Entry<V> {
  version: number;
  value: V;
}

/** Rows of one kind by key, each valid while the version it was read with is current. */
export class VersionedCache<V extends object> {
  private readonly map = new Map<string, Entry<V>>();

  constructor(
    private readonly version: CacheVersion,
    private readonly max: number,
  ) {}

  /** The row under `key`: from the cache when its version is current, else from `load` (which
   *  reads the row and the version in one statement, so both are of one snapshot). Only found
   *  rows are kept: one created elsewhere is found on the next call. */
  async get(key: string, load: () => Promise<{ version: number; value: V | null }>): Promise<V | null> {
    const hit = this.map.get(key);
    if (hit) {
      if ((await this.version.current()) === hit.version) return hit.value;
      this.map.delete(key);
    }
    const { version, value } = await load();
    if (value !== null) {
      if (this.map.size >= this.max) this.map.clear();
      this.map.set(key, { version, value: Object.freeze(value) });
    }
    return value;
  }

  clear(): void {
    this.map.clear();
  }
}
