/** Every list is scored on its first K products. */
export const K = 10;

/** A deterministic sample of at most `n` items (seeded Fisher–Yates), in the input's order. */
export function sample<T>(items: readonly T[], n: number, seed: number): T[] {
  if (items.length <= n) return [...items];
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const index = items.map((_, i) => i);
  for (let i = index.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [index[i], index[j]] = [index[j]!, index[i]!];
  }
  return index
    .slice(0, n)
    .sort((a, b) => a - b)
    .map((i) => items[i]!);
}
