import { UpstreamError } from './errors.js';

/**
 * Lanes whose upstream broke the byte cap, refused at once for a while. Reading up to the cap is
 * the price of learning that an answer is too large, and the process frees those bytes only when
 * the garbage collector next runs: a provider that answers oversized bodies to a flood of calls
 * would otherwise have the process hold tens of megabytes of dropped answers. Resting bounds what
 * one lane can cost to its slots × the cap per rest period.
 */
export class RestingLanes {
  private readonly until = new Map<string, number>();

  constructor(
    private readonly restMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Throws `resting` (nothing is sent) while `lane` rests. */
  check(lane: string): void {
    const end = this.until.get(lane);
    if (end === undefined) return;
    const left = end - this.now();
    if (left <= 0) {
      this.until.delete(lane);
      return;
    }
    const seconds = Math.ceil(left / 1000);
    throw new UpstreamError('resting', `the upstream broke the byte cap; calls resume in ${seconds} s`, false);
  }

  /** Starts a rest of `lane` after `error` when it was an oversized answer. */
  noteFailure(lane: string, error: unknown): void {
    if (this.restMs <= 0 || !(error instanceof UpstreamError) || error.reason !== 'too_large') return;
    const now = this.now();
    // Forget finished rests, so the map holds only lanes resting now.
    for (const [key, end] of this.until) if (end <= now) this.until.delete(key);
    this.until.set(lane, now + this.restMs);
  }
}
