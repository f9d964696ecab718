import { utcDay } from '../domain/events.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Keeps the once-per-day tracking records (`track_counted`) to the last few days. Tracked events are
 * stamped when they arrive, so a record of a day before yesterday can never match again; without this
 * the table would grow by every visitor's every product, every day. Run by the periodic refresh; it
 * deletes at most once a UTC day per process (a second node's delete finds nothing left).
 */
export class TrackCountedPruner {
  private prunedOn = 0;

  constructor(
    private readonly forgetBefore: (day: number) => Promise<number>,
    private readonly keepDays = 2,
  ) {}

  /** Deletes the records older than `keepDays` days, once a day; returns how many went. */
  async run(now = Date.now()): Promise<number> {
    const today = utcDay(now);
    if (today === this.prunedOn) return 0;
    const removed = await this.forgetBefore(utcDay(now - this.keepDays * DAY_MS));
    this.prunedOn = today;
    return removed;
  }
}
