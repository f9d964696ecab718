import { UpstreamError } from './errors.js';

/**
 * At most `limit` calls in flight per lane (a shop's billing provider, a shop's platform): a
 * hostile or slow upstream holds its own shop's calls and never more than its share of the
 * process. A call waits for a slot under its own deadline. Idle lanes are forgotten.
 */
export class Lanes {
  private readonly lanes = new Map<string, { active: number; waiting: (() => void)[] }>();

  constructor(private readonly limit: number) {}

  /** Takes a slot of `lane`, waiting while it is full; the returned function gives it back. */
  async acquire(lane: string, signal: AbortSignal): Promise<() => void> {
    let state = this.lanes.get(lane);
    if (!state) {
      state = { active: 0, waiting: [] };
      this.lanes.set(lane, state);
    }
    const held = state;
    if (held.active < this.limit) held.active++;
    else
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          signal.removeEventListener('abort', give);
          resolve();
        };
        const give = () => {
          held.waiting.splice(held.waiting.indexOf(wake), 1);
          reject(new UpstreamError('deadline', 'timed out waiting for a free connection to the upstream', false));
        };
        signal.addEventListener('abort', give, { once: true });
        held.waiting.push(wake);
      });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = held.waiting.shift();
      // The slot passes to the next waiter as it is; the lane empties only when nobody wants it.
      if (next) return next();
      held.active--;
      if (held.active === 0) this.lanes.delete(lane);
    };
  }
}
