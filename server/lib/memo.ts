// Work done once per object: names of a protobuf field, the index of a message type, the
// statements of a database connection. Computed on first use, kept as long as the object lives.
export function perObject<K extends object, V>(compute: (k: K) => V): (k: K) => V {
  const cache = new WeakMap<K, V>();
  return (k) => {
    let v = cache.get(k);
    if (v === undefined && !cache.has(k)) cache.set(k, (v = compute(k)));
    return v as V;
  };
}
