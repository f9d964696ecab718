import { sortedIndexOf } from '../domain/models/build.js';
import type { EventTotals } from '../store/kysely/event-totals.js';

/** A product handle's views and adds over the last 30 days. */
export interface EventCount {
  readonly views: number;
  readonly adds: number;
}

/** Totals in code-unit order of their handles: the same lists when they are already (the store's order). */
function inHandleOrder(totals: EventTotals): EventTotals {
  const { handles } = totals;
  let sorted = true;
  for (let i = 1; i < handles.length && sorted; i++) sorted = handles[i - 1]! <= handles[i]!;
  if (sorted) return totals;
  const order = handles
    .map((_, i) => i)
    .sort((a, b) => (handles[a]! < handles[b]! ? -1 : handles[a]! > handles[b]! ? 1 : 0));
  return {
    handles: order.map((i) => handles[i]!),
    views: order.map((i) => totals.views[i]!),
    adds: order.map((i) => totals.adds[i]!),
  };
}

/** Handles in order and each one's views and adds, two numbers a handle. */
interface Summed {
  handles: readonly string[];
  counts: Float64Array;
}

/** Totals (in handle order) as summed counts: a handle twice in them is added up. */
function summedOf(totals: EventTotals): Summed {
  return merge({ handles: [], counts: new Float64Array(0) }, totals);
}

/** Summed counts and totals, both in handle order, merged: a handle in both (or twice in one) is added up. */
function merge(summed: Summed, totals: EventTotals): Summed {
  const { handles, counts } = summed;
  const out = new Array<string>(handles.length + totals.handles.length);
  const sums = new Float64Array(2 * out.length);
  let n = 0;
  const add = (handle: string, views: number, adds: number) => {
    if (n === 0 || out[n - 1] !== handle) out[n++] = handle;
    sums[2 * n - 2] = sums[2 * n - 2]! + views;
    sums[2 * n - 1] = sums[2 * n - 1]! + adds;
  };
  let a = 0;
  let b = 0;
  while (a < handles.length || b < totals.handles.length) {
    if (b === totals.handles.length || (a < handles.length && handles[a]! <= totals.handles[b]!)) {
      add(handles[a]!, counts[2 * a]!, counts[2 * a + 1]!);
      a++;
    } else {
      add(totals.handles[b]!, totals.views[b]!, totals.adds[b]!);
      b++;
    }
  }
  out.length = n;
  return { handles: out, counts: 2 * n === sums.length ? sums : sums.slice(0, 2 * n) };
}

/**
 * A shop's views and adds of the last 30 days by product handle, as the read model keeps them: the
 * handles in order, each one's two counts in one typed array, a handle found by binary search. The
 * sums are merged in order at load (the store reads them in handle order), with no map: a map of a
 * position a handle (and an object a handle before it) was a large part of what a load allocated,
 * and a shop's answers mostly never read the counts. Smart sort reads a product's views
 * (`viewsOf`, no object made), the insights every handle; `get` makes the count's object on each call.
 */
export class EventCounts implements ReadonlyMap<string, EventCount> {
  private totalViews = -1;

  private constructor(
    private readonly handles: readonly string[],
    /** Views of handle i at 2i, its adds at 2i + 1. */
    private readonly counts: Float64Array,
  ) {}

  /** The sums added up handle by handle (the past days' and today's). */
  static sum(...sums: readonly EventTotals[]): EventCounts {
    if (sums.length === 0) return new EventCounts([], new Float64Array(0));
    let summed = summedOf(inHandleOrder(sums[0]!));
    for (let k = 1; k < sums.length; k++) summed = merge(summed, inHandleOrder(sums[k]!));
    return new EventCounts(summed.handles, summed.counts);
  }

  get size(): number {
    return this.handles.length;
  }

  private positionOf(handle: string): number {
    return sortedIndexOf(this.handles, handle);
  }

  has(handle: string): boolean {
    return this.positionOf(handle) >= 0;
  }

  /** The handle's views (0 for a handle without any). */
  viewsOf(handle: string): number {
    const at = this.positionOf(handle);
    return at < 0 ? 0 : this.counts[2 * at]!;
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
    const at = this.positionOf(handle);
    return at < 0 ? undefined : this.countAt(at);
  }

  private countAt(at: number): EventCount {
    return { views: this.counts[2 * at]!, adds: this.counts[2 * at + 1]! };
  }

  *entries(): MapIterator<[string, EventCount]> {
    for (let at = 0; at < this.handles.length; at++) yield [this.handles[at]!, this.countAt(at)];
  }

  *keys(): MapIterator<string> {
    yield* this.handles;
  }

  *values(): MapIterator<EventCount> {
    for (let at = 0; at < this.handles.length; at++) yield this.countAt(at);
  }

  [Symbol.iterator](): MapIterator<[string, EventCount]> {
    return this.entries();
  }

  forEach(callback: (value: EventCount, key: string, map: ReadonlyMap<string, EventCount>) => void, self?: unknown) {
    for (const [handle, count] of this.entries()) callback.call(self, count, handle, this);
  }
}
