import { sortedIndexOf } from '../domain/models/build.js';
import type { SoldLine } from '../store/kysely/commerce.js';
import { compact, soldProducts, type Numbers, type SoldProducts } from './sold-products.js';

/** A PurchaseIndex's arrays (`columns`, `restore`). */
export interface PurchaseColumns {
  customers: Float64Array;
  starts: Numbers;
  products: Numbers;
  quantities: Numbers;
  last: Float64Array;
}

/** What one customer bought of one product. */
export interface Purchase {
  quantity: number;
  last: number;
}

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
 * binary search. A row's product is its index in the sold products' id table (shared with the
 * other sales figures), and indexes and quantities are kept in the smallest array that holds
 * them: about 14 bytes a purchase. A lookup makes the customer's small Map.
 */
export class PurchaseIndex {
  /** Customer ids, ascending; customer i's rows are `starts[i] .. starts[i + 1]`. */
  private readonly customers: Float64Array;
  private readonly starts: Numbers;
  private readonly productIds: Float64Array;
  /** Each row's product, an index into `productIds`. */
  private readonly products: Numbers;
  private readonly quantities: Numbers;
  private readonly last: Float64Array;

  constructor(lines: readonly SoldLine[], sold: SoldProducts = soldProducts(lines)) {
    const { ids, starts, order } = byCustomer(lines);
    const products: number[] = [];
    const quantities: number[] = [];
    const last: number[] = [];
    const rowStarts: number[] = new Array(ids.length + 1);
    // The row of each product in the current customer's run: valid where owner is that customer.
    const rowOf: number[] = new Array(sold.ids.length).fill(0);
    const owner: number[] = new Array(sold.ids.length).fill(-1);
    for (let c = 0; c < ids.length; c++) {
      rowStarts[c] = products.length;
      for (let k = starts[c]!; k < starts[c + 1]!; k++) {
        const line = lines[order[k]!]!;
        const p = sold.lineProduct[order[k]!]!;
        if (owner[p] !== c) {
          // In the order the customer first bought each product, as the lines gave them.
          owner[p] = c;
          rowOf[p] = products.length;
          products.push(p);
          quantities.push(line.quantity);
          last.push(Math.max(0, line.at));
        } else {
          const at = rowOf[p]!;
          quantities[at]! += line.quantity;
          last[at] = Math.max(last[at]!, line.at);
        }
      }
    }
    rowStarts[ids.length] = products.length;
    this.customers = ids;
    this.starts = compact(rowStarts);
    this.productIds = sold.ids;
    this.products = compact(products);
    this.quantities = compact(quantities);
    this.last = Float64Array.from(last);
  }

  /** Its arrays, as a load snapshot keeps them (the id table is the sales figures'). */
  columns(): PurchaseColumns {
    const { customers, starts, products, quantities, last } = this;
    return { customers, starts, products, quantities, last };
  }

  /** The index of these arrays over the sold products' id table, built by `columns` of another. */
  static restore(columns: PurchaseColumns, productIds: Float64Array): PurchaseIndex {
    return Object.assign(Object.create(PurchaseIndex.prototype) as PurchaseIndex, { ...columns, productIds });
  }

  /** Customers with at least one purchase. */
  get size(): number {
    return this.customers.length;
  }

  /** Purchases in all, over every customer. */
  get purchases(): number {
    return this.products.length;
  }

  /** Bytes the arrays hold (the memory budget's estimate; the id table is counted with the sales figures). */
  get bytes(): number {
    return (
      this.customers.byteLength +
      this.starts.byteLength +
      this.products.byteLength +
      this.quantities.byteLength +
      this.last.byteLength
    );
  }

  /** The customer's purchases by product, or undefined for a customer who bought nothing. */
  get(customerId: number): ReadonlyMap<number, Purchase> | undefined {
    const c = sortedIndexOf(this.customers, customerId);
    if (c < 0) return undefined;
    const bought = new Map<number, Purchase>();
    for (let row = this.starts[c]!; row < this.starts[c + 1]!; row++)
      bought.set(this.productIds[this.products[row]!]!, { quantity: this.quantities[row]!, last: this.last[row]! });
    return bought;
  }
}
