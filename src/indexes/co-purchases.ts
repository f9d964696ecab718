import type { OrderLine } from '../domain/catalog/collection.js';

/** Orders read per input product at most (the newest): bounds a request's work whatever the catalog. */
export const CO_PURCHASE_ORDERS_READ = 1000;
/** Order lines read per request at most, over all inputs. */
export const CO_PURCHASE_LINES_READ = 100_000;

/**
 * Raw basket co-occurrence straight from the read model (the order lines the sales figures are
 * folded from): what `/products/recommended` serves until the shop's first model is built, so
 * the list is never weaker than plain co-occurrence (§19). Compressed rows: each order's
 * products, and each product's orders, newest first.
 */
export class CoPurchases {
  private readonly orderProducts: Int32Array;
  private readonly orderOffsets: Int32Array;
  private readonly productOrders = new Map<number, Int32Array>();
  private readonly productIds: Float64Array;

  /** Lines oldest first, grouped by order (as the store lists them). */
  constructor(lines: readonly OrderLine[]) {
    const ids = [...new Set(lines.map((l) => l.product_id))].sort((a, b) => a - b);
    this.productIds = Float64Array.from(ids);
    const index = new Map(ids.map((id, i) => [id, i]));
    const offsets: number[] = [];
    const products: number[] = [];
    const ordersOf = new Map<number, number[]>();
    let current: number | null = null;
    let seen = new Set<number>();
    for (const line of lines) {
      if (line.order_id !== current) {
        current = line.order_id;
        offsets.push(products.length);
        seen = new Set();
      }
      const item = index.get(line.product_id)!;
      if (seen.has(item)) continue;
      seen.add(item);
      products.push(item);
      const list = ordersOf.get(line.product_id) ?? [];
      list.push(offsets.length - 1);
      ordersOf.set(line.product_id, list);
    }
    offsets.push(products.length);
    this.orderOffsets = Int32Array.from(offsets);
    this.orderProducts = Int32Array.from(products);
    for (const [id, orders] of ordersOf) this.productOrders.set(id, Int32Array.from(orders.reverse()));
  }

  /** Products by the number of orders holding them with any input (summed over inputs), then by id; inputs left out. */
  top(inputs: readonly number[]): number[] {
    const counts = new Map<number, number>();
    let budget = CO_PURCHASE_LINES_READ;
    for (const input of new Set(inputs)) {
      const orders = this.productOrders.get(input);
      if (!orders) continue;
      for (let n = 0; n < Math.min(orders.length, CO_PURCHASE_ORDERS_READ) && budget > 0; n++) {
        const order = orders[n]!;
        for (let k = this.orderOffsets[order]!; k < this.orderOffsets[order + 1]!; k++) {
          const item = this.orderProducts[k]!;
          counts.set(item, (counts.get(item) ?? 0) + 1);
        }
        budget -= this.orderOffsets[order + 1]! - this.orderOffsets[order]!;
      }
    }
    const skip = new Set(inputs);
    return [...counts]
      .map(([item, count]) => [this.productIds[item]!, count] as const)
      .filter(([id]) => !skip.has(id))
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .map(([id]) => id);
  }

  /** Bytes its arrays hold (about; the map's entries at 48 bytes each). */
  get bytes(): number {
    let total = this.orderProducts.byteLength + this.orderOffsets.byteLength + this.productIds.byteLength;
    for (const orders of this.productOrders.values()) total += orders.byteLength + 48;
    return total;
  }
}
