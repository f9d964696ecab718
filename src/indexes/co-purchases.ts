import { sortedIndexOf } from '../domain/models/build.js';
import type { SoldLine } from '../store/kysely/commerce.js';
import { compact, soldProducts, type Numbers, type SoldProducts } from './sold-products.js';

/** Orders read per input product at most (the newest): bounds a request's work whatever the catalog. */
export const CO_PURCHASE_ORDERS_READ = 1000;
/** Order lines read per request at most, over all inputs. */
export const CO_PURCHASE_LINES_READ = 100_000;

/** A CoPurchases' arrays (`columns`, `restore`). */
export interface CoPurchaseColumns {
  orderProducts: Numbers;
  orderOffsets: Numbers;
  productOffsets: Numbers;
  productOrders: Numbers;
}

/**
 * Raw basket co-occurrence straight from the read model (the order lines the sales figures are
 * folded from): what `/products/recommended` serves until the shop's first model is built, so
 * the list is never weaker than plain co-occurrence (§19). Compressed rows: each order's
 * products, and each product's orders, newest first, in the smallest arrays that hold them.
 */
export class CoPurchases {
  private readonly orderProducts: Numbers;
  private readonly orderOffsets: Numbers;
  /** Orders holding product p (by index), newest first: `productOrders[productOffsets[p] .. productOffsets[p + 1])`. */
  private readonly productOffsets: Numbers;
  private readonly productOrders: Numbers;
  /** The sold products' id table, shared with the other sales figures. */
  private readonly productIds: Float64Array;

  /** Lines oldest first, grouped by order (as the store lists them). */
  constructor(lines: readonly SoldLine[], sold: SoldProducts = soldProducts(lines)) {
    this.productIds = sold.ids;
    const count = sold.ids.length;
    // Each order's products once (a product's lines of one order are one purchase).
    const lastOrder: number[] = new Array(count).fill(-1);
    const offsets: number[] = [];
    const products: number[] = [];
    let current: number | null = null;
    for (let i = 0; i < lines.length; i++) {
      if (lines[i]!.orderId !== current) {
        current = lines[i]!.orderId;
        offsets.push(products.length);
      }
      const item = sold.lineProduct[i]!;
      if (lastOrder[item] === offsets.length - 1) continue;
      lastOrder[item] = offsets.length - 1;
      products.push(item);
    }
    offsets.push(products.length);
    this.orderOffsets = compact(offsets);
    this.orderProducts = compact(products);
    // The transpose, counted then filled from the newest order down.
    const starts: number[] = new Array(count + 1).fill(0);
    for (const item of products) starts[item + 1]!++;
    for (let p = 0; p < count; p++) starts[p + 1]! += starts[p]!;
    this.productOffsets = compact(starts);
    const orders: number[] = new Array(products.length);
    for (let order = offsets.length - 2; order >= 0; order--)
      for (let k = offsets[order]!; k < offsets[order + 1]!; k++) orders[starts[products[k]!]!++] = order;
    this.productOrders = compact(orders);
  }

  /** Products by the number of orders holding them with any input (summed over inputs), then by id; inputs left out. */
  top(inputs: readonly number[]): number[] {
    const counts = new Map<number, number>();
    let budget = CO_PURCHASE_LINES_READ;
    for (const input of new Set(inputs)) {
      const p = sortedIndexOf(this.productIds, input);
      if (p < 0) continue;
      const end = Math.min(this.productOffsets[p + 1]!, this.productOffsets[p]! + CO_PURCHASE_ORDERS_READ);
      for (let n = this.productOffsets[p]!; n < end && budget > 0; n++) {
        const order = this.productOrders[n]!;
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

  /** Its arrays, as a load snapshot keeps them (the id table is the sales figures'). */
  columns(): CoPurchaseColumns {
    const { orderProducts, orderOffsets, productOffsets, productOrders } = this;
    return { orderProducts, orderOffsets, productOffsets, productOrders };
  }

  /** The co-purchases of these arrays over the sold products' id table, built by `columns` of another. */
  static restore(columns: CoPurchaseColumns, productIds: Float64Array): CoPurchases {
    return Object.assign(Object.create(CoPurchases.prototype) as CoPurchases, { ...columns, productIds });
  }

  /** Bytes its arrays hold (the id table is counted with the sales figures). */
  get bytes(): number {
    return (
      this.orderProducts.byteLength +
      this.orderOffsets.byteLength +
      this.productOffsets.byteLength +
      this.productOrders.byteLength
    );
  }
}
