import type { SoldLine } from '../store/kysely/commerce.js';

/** What one customer bought of one product. */
export interface Purchase {
  quantity: number;
  last: number;
}

/** Lines of one customer up to which their products are found by a scan rather than a Map. */
const SCANNED_RUN = 16;

/**
 * The positions of the lines that name a customer, by customer id and then in line order: a
 * bucket placement (customers' ids sorted once, numerically), not a sort of every line. Working
 * arrays are plain ones: a typed array's bytes live outside the JS heap, and garbage there raises
 * the process's resident memory, which bounds how many shops a node keeps loaded.
 */
function byCustomer(lines: readonly SoldLine[]): { ids: Float64Array; starts: number[]; order: number[] } {
  const dense = new Map<number, number>();
  const lineCustomer: number[] = new Array(lines.length).fill(-1);
  const counts: number[] = [];
  let named = 0;
  for (let i = 0; i < lines.length; i++) {
    const id = lines[i]!.customerId;
    if (id === null) continue;
    let d = dense.get(id);
    if (d === undefined) {
      d = counts.length;
      dense.set(id, d);
      counts.push(0);
    }
    lineCustomer[i] = d;
    counts[d]!++;
    named++;
  }
  const ids = Float64Array.from(dense.keys()).sort();
  const next: number[] = new Array(ids.length).fill(0); // by dense index: where its next line goes
  const starts: number[] = new Array(ids.length + 1).fill(0);
  for (let c = 0; c < ids.length; c++) {
    const d = dense.get(ids[c]!)!;
    next[d] = starts[c]!;
    starts[c + 1] = starts[c]! + counts[d]!;
  }
  const order: number[] = new Array(named).fill(0);
  for (let i = 0; i < lines.length; i++) if (lineCustomer[i]! >= 0) order[next[lineCustomer[i]!]!++] = i;
  return { ids, starts, order };
}

/**
 * What each customer bought, folded from the order lines, in a few typed arrays instead of a Map
 * of Maps: a customer's purchases are a run of rows, customers in id order, so a lookup is a
 * binary search. A shop's Map of Maps was its largest part after the products (about 120 KB for
 * 300 customers); these arrays take 20 bytes a purchase. A lookup makes the customer's small Map.
 */
export class PurchaseIndex {
  /** Customer ids, ascending; customer i's rows are `starts[i] .. starts[i + 1]`. */
  private readonly customers: Float64Array;
  private readonly starts: Int32Array;
  private readonly products: Float64Array;
  private readonly quantities: Float64Array;
  private readonly last: Float64Array;

  constructor(lines: readonly SoldLine[]) {
    const { ids, starts, order } = byCustomer(lines);
    const products: number[] = [];
    const quantities: number[] = [];
    const last: number[] = [];
    const rowStarts = new Int32Array(ids.length + 1);
    // A long run's row of each product; a short one is scanned (most customers bought a few things).
    const rowOf = new Map<number, number>();
    let row = 0;
    for (let c = 0; c < ids.length; c++) {
      const first = row;
      rowStarts[c] = first;
      const indexed = starts[c + 1]! - starts[c]! > SCANNED_RUN;
      if (indexed) rowOf.clear();
      for (let k = starts[c]!; k < starts[c + 1]!; k++) {
        const line = lines[order[k]!]!;
        let at = -1;
        if (indexed) at = rowOf.get(line.productId) ?? -1;
        else for (let r = first; r < row && at < 0; r++) if (products[r] === line.productId) at = r;
        if (at < 0) {
          // In the order the customer first bought each product, as the lines gave them.
          if (indexed) rowOf.set(line.productId, row);
          products.push(line.productId);
          quantities.push(line.quantity);
          last.push(Math.max(0, line.at));
          row++;
        } else {
          quantities[at]! += line.quantity;
          last[at] = Math.max(last[at]!, line.at);
        }
      }
    }
    rowStarts[ids.length] = row;
    this.customers = ids;
    this.starts = rowStarts;
    this.products = Float64Array.from(products);
    this.quantities = Float64Array.from(quantities);
    this.last = Float64Array.from(last);
  }

  /** Customers with at least one purchase. */
  get size(): number {
    return this.customers.length;
  }

  /** Purchases in all, over every customer. */
  get purchases(): number {
    return this.products.length;
  }

  /** Bytes the arrays hold (the memory budget's estimate). */
  get bytes(): number {
    return this.customers.byteLength + this.starts.byteLength + 3 * this.products.byteLength;
  }

  /** The customer's purchases by product, or undefined for a customer who bought nothing. */
  get(customerId: number): ReadonlyMap<number, Purchase> | undefined {
    let low = 0;
    let high = this.customers.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const id = this.customers[mid]!;
      if (id === customerId) {
        const bought = new Map<number, Purchase>();
        for (let row = this.starts[mid]!; row < this.starts[mid + 1]!; row++)
          bought.set(this.products[row]!, { quantity: this.quantities[row]!, last: this.last[row]! });
        return bought;
      }
      if (id < customerId) low = mid + 1;
      else high = mid - 1;
    }
    return undefined;
  }
}
