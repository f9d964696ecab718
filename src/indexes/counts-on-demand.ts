import type { EventCounts } from './event-counts.js';

/**
 * A shop's views and adds of the last 30 days, read from the store the first time they are asked
 * for, not at the shop's load. Only smart sort (`smart_sort=yes`) and the admin insights read
 * them, and a shop of the long tail is loaded for an answer or two that mostly do not: reading
 * the kept sum and today's counts and merging them was the largest part of a load after its
 * snapshot, about 7% of a node's CPU under `npm run bench:tenants` (docs/scaling.md).
 *
 * Generations of a shop's catalog that differ in something else (a ruleset saved, a product
 * patched) share one: counts read through one are read for all.
 */
export class CountsOnDemand {
  private counts: EventCounts | null;
  private reading: Promise<EventCounts> | null = null;

  constructor(
    private readonly read: () => Promise<EventCounts>,
    /** Told once the counts are read (the read model's estimate of the shop grows by them). */
    private readonly onRead?: () => void,
    counts: EventCounts | null = null,
  ) {
    this.counts = counts;
  }

  /** Counts read already, for the same shop with the same reader: a refresh's. */
  withCounts(counts: EventCounts): CountsOnDemand {
    return new CountsOnDemand(this.read, this.onRead, counts);
  }

  /** The counts when they have been read, else null. */
  get now(): EventCounts | null {
    return this.counts;
  }

  /**
   * The counts, read now when they have not been: callers asking meanwhile share the read, and a
   * failed read is not kept (the next ask reads again).
   */
  get(): Promise<EventCounts> {
    if (this.counts) return Promise.resolve(this.counts);
    this.reading ??= this.read().then(
      (counts) => {
        this.counts = counts;
        this.reading = null;
        this.onRead?.();
        return counts;
      },
      (error: unknown) => {
        this.reading = null;
        throw error;
      },
    );
    return this.reading;
  }
}
