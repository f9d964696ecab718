/**
 * `items` in `compare`'s order: the array itself when it is in that order already (as the store
 * lists rows on every shop's load), else a sorted copy. Checking costs one pass; copying and
 * sorting a list that is already in order costs a copy and a sort for nothing.
 */
export function inOrderOf<T>(items: readonly T[], compare: (a: T, b: T) => number): readonly T[] {
  for (let i = 1; i < items.length; i++) if (compare(items[i - 1]!, items[i]!) > 0) return [...items].sort(compare);
  return items;
}
