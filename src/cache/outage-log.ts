/**
 * The shared cache's failures logged once a minute (docs/operations.md, "Logging"), with how many the
 * minute held: while Redis is down every request and every reconnection fails, and a line each was
 * dozens a second of the same stack trace.
 */
export function outageLog(
  warn: (error: unknown, failuresSinceLast: number) => void,
  now: () => number = Date.now,
  intervalMs = 60_000,
): (error: unknown) => void {
  let last = Number.NEGATIVE_INFINITY;
  let held = 0;
  return (error) => {
    const at = now();
    if (at - last < intervalMs) {
      held++;
      return;
    }
    warn(error, held);
    last = at;
    held = 0;
  };
}
