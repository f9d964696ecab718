/**
 * The value under `key`, created and stored first when the map has none (the one get-or-insert idiom of the code base).
 */
export function getOrCreate<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}

const ONE = () => 1;

/**
 * LRUCache options bounding a cache to `entries` entries without allocating them up front.
 * With `max`, lru-cache allocates its arrays for every entry at construction (about 24 bytes an
 * entry, 40 with a TTL): the node's 100,000- and 200,000-entry caches took 18 MB of a fresh
 * process that holds no entry yet. Counted by size instead, the arrays grow with use.
 */
export function boundedEntries(entries: number): { maxSize: number; sizeCalculation: () => number } {
  return { maxSize: entries, sizeCalculation: ONE };
}
