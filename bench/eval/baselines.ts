/** Appends `fallback` ids not already present (nor in `skip`) until the list holds `k`. */
export function fill(
  list: number[],
  fallback: readonly number[],
  k: number,
  skip: ReadonlySet<number> = new Set(),
): number[] {
  const out = [...list];
  for (const id of fallback) {
    if (out.length >= k) break;
    if (!out.includes(id) && !skip.has(id)) out.push(id);
  }
  return out;
}
