/**
 * How much each shop has been asked for lately: a count of requests per shop, every count halved
 * once the node has counted `period()` more requests, so that a shop's popularity of an hour ago
 * fades within a few periods (least-frequently-used with aging).
 *
 * Eviction picks the shop used least lately rather than the one used least recently. Under
 * storefront traffic, where a few shops take most requests and a long tail of shops one request
 * each, recency alone lets every tail shop's load push out a popular shop that happened not to be
 * asked for in the last few hundred requests: in a simulation of 400 shops of Zipf 1.1 traffic with
 * 46 resident, 37% of requests loaded a shop by recency and 28% by these counts (26% is the least
 * possible, the 46 most popular always resident; docs/scaling.md).
 */
export class ShopUses {
  private readonly counts = new Map<number, number>();
  private sinceAging = 0;

  /** `period`: requests counted between two halvings, read at every request counted (it follows the resident shops). */
  constructor(private readonly period: () => number) {}

  /** Counts one request for the shop. */
  add(shopId: number): void {
    this.counts.set(shopId, (this.counts.get(shopId) ?? 0) + 1);
    if (++this.sinceAging >= this.period()) this.age();
  }

  /** Requests for the shop lately (halved at every period since they were counted). */
  of(shopId: number): number {
    return this.counts.get(shopId) ?? 0;
  }

  /** The shop is gone (deleted): nothing of it is kept. */
  forget(shopId: number): void {
    this.counts.delete(shopId);
  }

  /**
   * Of the shops given (least recently used first), the one with the fewest uses, the first of those
   * tied; a scan, for a load that evicts one shop.
   */
  fewest(shops: Iterable<number>): number | undefined {
    let found: number | undefined;
    let fewest = Infinity;
    for (const shopId of shops) {
      const uses = this.of(shopId);
      if (uses < fewest) {
        found = shopId;
        fewest = uses;
        if (uses === 0) break; // none fewer, and the first of those with none
      }
    }
    return found;
  }

  /** The shops given (least recently used first) in eviction order: fewest uses first, then as given. */
  fewestFirst(shops: Iterable<number>): number[] {
    // Array sort is stable: shops with as many uses keep their recency order.
    return [...shops].sort((a, b) => this.of(a) - this.of(b));
  }

  /** Shops with a count: those asked for within the last few periods. */
  get size(): number {
    return this.counts.size;
  }

  /** Halves every count; a shop whose count reaches 0 is dropped, so the map holds only recent shops. */
  private age(): void {
    this.sinceAging = 0;
    for (const [shopId, count] of this.counts) {
      if (count < 2) this.counts.delete(shopId);
      else this.counts.set(shopId, count >>> 1);
    }
  }
}
