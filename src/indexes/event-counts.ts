import type { EventTotal } from '../store/kysely/event-totals.js';

/** A product handle's views and adds over the last 30 days. */
export interface EventCount {
  readonly views: number;
  readonly adds: number;
}

/**
 * A shop's views and adds of the last 30 days by product handle, as the read model keeps them:
 * each handle's position in a map and its two counts in one typed array. An object a handle was
 * 146 of the 2,000 heap objects a resident shop of the multi-tenant benchmark kept, each copied by
 * the young collections after its load and marked by every full one while it stayed. Smart sort
 * reads a product's views (`viewsOf`, no object made), the insights every handle; `get` makes the
 * count's object on each call.
 */
export class EventCounts implements ReadonlyMap<string, EventCount> {
  /** Views of handle i at 2i, its adds at 2i + 1. */
  private readonly counts: Float64Array;
  private totalViews = -1;

  private constructor(
    /** Each handle's position, in the order the sums first named it. */
    private readonly positions: ReadonlyMap<string, number>,
    counts: Float64Array,
  ) {
    this.counts = counts;
  }

  /** The sums added up handle by handle (the past days' and today's). */
  static sum(...sums: readonly (readonly EventTotal[])[]): EventCounts {
    const positions = new Map<string, number>();
    for (const totals of sums)
      for (const { handle } of totals) if (!positions.has(handle)) positions.set(handle, positions.size);
    const counts = new Float64Array(2 * positions.size);
    for (const totals of sums)
      for (const { handle, views, adds } of totals) {
        const at = 2 * positions.get(handle)!;
        counts[at] = counts[at]! + views;
        counts[at + 1] = counts[at + 1]! + adds;
      }
    return new EventCounts(positions, counts);
  }

  get size(): number {
    return this.positions.size;
  }

  has(handle: string): boolean {
    return this.positions.has(handle);
  }

  /** The handle's views (0 for a handle without any). */
  viewsOf(handle: string): number {
    const at = this.positions.get(handle);
    return at === undefined ? 0 : this.counts[2 * at]!;
  }

  /** Every handle's views summed. */
  get views(): number {
    if (this.totalViews < 0) {
      let views = 0;
      for (let i = 0; i < this.counts.length; i += 2) views += this.counts[i]!;
      this.totalViews = views;
    }
    return this.totalViews;
  }

  get(handle: string): EventCount | undefined {
    const at = this.positions.get(handle);
    return at === undefined ? undefined : this.countAt(at);
  }

  private countAt(at: number): EventCount {
    return { views: this.counts[2 * at]!, adds: this.counts[2 * at + 1]! };
  }

  *entries(): MapIterator<[string, EventCount]> {
    for (const [handle, at] of this.positions) yield [handle, this.countAt(at)];
  }

  keys(): MapIterator<string> {
    return this.positions.keys();
  }

  *values(): MapIterator<EventCount> {
    for (const at of this.positions.values()) yield this.countAt(at);
  }

  [Symbol.iterator](): MapIterator<[string, EventCount]> {
    return this.entries();
  }

  forEach(callback: (value: EventCount, key: string, map: ReadonlyMap<string, EventCount>) => void, self?: unknown) {
    for (const [handle, count] of this.entries()) callback.call(self, count, handle, this);
  }
}
