/**
 * Resolves at the event loop's next turn, after the I/O already waiting: a long piece of work
 * (a shop's load, a search index) awaits it between its parts, so that every shop's requests
 * are answered meanwhile.
 */
export const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * `each` applied to every item, a turn of the event loop after every `size` of them: for the
 * work an import does per row (thousands of rows, a few to tens of microseconds each).
 */
export async function mapInTurns<T, R>(
  items: readonly T[],
  each: (item: T, index: number) => R,
  size = 1000,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % size === 0) await nextTurn();
    out[i] = each(items[i]!, i);
  }
  return out;
}
