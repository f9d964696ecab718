/**
 * Resolves at the event loop's next turn, after the I/O already waiting: a long piece of work
 * (a shop's load, a search index) awaits it between its parts, so that every shop's requests
 * are answered meanwhile.
 */
export const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
