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
