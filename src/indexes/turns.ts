/**
 * Resolves at the event loop's next turn, after the I/O already waiting: a long piece of work
 * (a shop's load, a search index) awaits it between its parts, so that every shop's requests
 * are answered meanwhile.
 */
export const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/** Work done between two turns of `mapInTurns` at most (past it by one item's work). */
export const TURN_MS = 10;

/**
 * `each` applied to every item, a turn of the event loop after every `size` of them or TURN_MS of
 * work, whichever comes first: for the work an import does per row (thousands of rows, a few to
 * tens of microseconds each, but a product at the platform's bounds, 250 long tags checked by a
 * pattern, about a hundred: a thousand of them held every shop 90 ms).
 */
export async function mapInTurns<T, R>(
  items: readonly T[],
  each: (item: T, index: number) => R,
  size = 1000,
  now: () => number = () => performance.now(),
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let started = now();
  for (let i = 0, done = 0; i < items.length; i++, done++) {
    if (done === size || (done > 0 && now() - started >= TURN_MS)) {
      await nextTurn();
      started = now();
      done = 0;
    }
    out[i] = each(items[i]!, i);
  }
  return out;
}
