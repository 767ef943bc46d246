// A Map for entries that come and go with the calls in flight, over a plain object.
//
// A Map whose storage grows, or fills with deleted entries, moves to a new table and leaves the old
// one linked to it, entries and all, for the iterators still walking it (V8's OrderedHashTable).
// Once one table of a long-lived Map has been promoted to the old generation — the Map sat still
// while the process allocated, long enough to outlive two scavenges — every table after it is
// reachable from an old one, so is every value set in it since, with all the value holds (a call's
// promise, its context, its answer). A scavenge cannot free old objects: it keeps each of those
// values, the next promotes them, and the old space fills with finished calls until a full GC,
// which leaves the newest table old again. A Map that takes an entry when a call starts and drops
// it when the call ends thus turns, after one idle spell, into the promotion of every call
// (README, "Benchmarks", measured). An object's storage leaves nothing linked behind when it grows
// or is rehashed.
//
// Order: numeric keys come in ascending order, then the others in insertion order (an object's).

export class FlatTable<K extends string | number, V> {
  private byKey: Record<string | number, V> = Object.create(null);
  size = 0;

  private constructor(private readonly keyOf: (name: string) => K) {}

  /** A table keyed by numbers (integers: a fraction's text would read back as another key). */
  static byNumber<V>(): FlatTable<number, V> {
    return new FlatTable<number, V>(Number);
  }

  static byString<V>(): FlatTable<string, V> {
    return new FlatTable<string, V>((name) => name);
  }

  get(key: K): V | undefined {
    return this.byKey[key];
  }

  has(key: K): boolean {
    return this.byKey[key] !== undefined;
  }

  /** Sets `value` (not undefined: an entry holding undefined reads as absent). */
  set(key: K, value: V): this {
    if (this.byKey[key] === undefined) this.size++;
    this.byKey[key] = value;
    return this;
  }

  delete(key: K): boolean {
    if (this.byKey[key] === undefined) return false;
    delete this.byKey[key];
    this.size--;
    return true;
  }

  clear(): void {
    this.byKey = Object.create(null);
    this.size = 0;
  }

  // The rest of a Map's reading API, each over the entries there are when it is called, so that a
  // table can stand where a Map was (node's own code reads a session's streams table).

  keys(): IterableIterator<K> {
    return Object.keys(this.byKey).map(this.keyOf)[Symbol.iterator]();
  }

  values(): IterableIterator<V> {
    return Object.values(this.byKey)[Symbol.iterator]();
  }

  entries(): IterableIterator<[K, V]> {
    return Object.entries(this.byKey)
      .map(([name, value]): [K, V] => [this.keyOf(name), value])
      [Symbol.iterator]();
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries();
  }

  /** `f` may delete any entry as it goes: one deleted before its turn is not visited. */
  forEach(f: (value: V, key: K, table: this) => void): void {
    for (const name of Object.keys(this.byKey)) {
      const value = this.byKey[name];
      if (value !== undefined) f(value, this.keyOf(name), this);
    }
  }
}
