import type { Logger } from 'pino';
import { isCommandTimeout, REDIS_COMMAND_TIMEOUT_MS } from './redis.js';

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

/**
 * Whether this process has just held its event loop longer than `ms` (a demo seed, a large import
 * parsed in one go). A Redis command's timeout is a timer: when the loop comes back, timers run
 * before the socket is read, so a command Redis answered in time times out all the same. Such a
 * timeout is the loop's, not an outage. An unref'd timer ticks every `periodMs`; the answer holds
 * for a second after a late tick.
 */
export function stallWatch(ms: number, periodMs = 100): { stalled(): boolean; stop(): void } {
  let last = performance.now();
  let stalledUntil = Number.NEGATIVE_INFINITY;
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last > ms) stalledUntil = now + 1000;
    last = now;
  }, periodMs);
  timer.unref();
  return {
    stalled: () => performance.now() < stalledUntil,
    stop: () => clearInterval(timer),
  };
}

/**
 * What the shared cache's failures leave in the log: an outage once a minute (outageLog); a command
 * that timed out while this process held its event loop (stallWatch) at debug level only.
 */
export function redisFailureLog(log: Logger | undefined): { warn(error: unknown): void; stop(): void } {
  const outage = outageLog((error, failuresSinceLast) =>
    log?.warn({ err: error, failuresSinceLast }, 'redis unavailable: serving without the shared cache'),
  );
  const stall = stallWatch(REDIS_COMMAND_TIMEOUT_MS * 0.8);
  return {
    warn(error) {
      if (isCommandTimeout(error) && stall.stalled())
        log?.debug({ err: error }, 'a redis command timed out while this process held its event loop');
      else outage(error);
    },
    stop: () => stall.stop(),
  };
}
