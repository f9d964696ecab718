import type { Collection } from '../domain/catalog/collection.js';
import { sortedIndexOf } from '../domain/models/build.js';
import { inOrderOf } from '../domain/sorted.js';
import { compact, type Numbers } from './sold-products.js';

/**
 * A collection as the read model keeps it: its members' product ids in the collection's order,
 * not the stored membership objects (about 70 bytes a member: the object and its boxed id).
 */
export interface IndexedCollection {
  readonly id: number;
  readonly title: string;
  readonly handle: string;
  /** Product ids by position, then id; products not in the catalog included. */
  readonly members: readonly number[];
}

export function indexCollection(collection: Collection): IndexedCollection {
  // The store lists them in this order already: checked, not copied and sorted again on every load.
  const products = inOrderOf(collection.products, byPosition);
  const members = new Array<number>(products.length);
  for (let i = 0; i < products.length; i++) members[i] = products[i]!.product_id;
  return { id: collection.id, title: collection.title, handle: collection.handle, members };
}

type Member = Collection['products'][number];

const byPosition = (a: Member, b: Member) => a.position - b.position || a.product_id - b.product_id;

/**
 * The collections of each member product, compressed rows over sorted product ids instead of a
 * Map of small arrays (a boxed id, an entry and an array a product: about 125 bytes). A lookup
 * makes the product's array, collections in the order of the shop's collections.
 */
export class ProductCollections {
  private readonly products: Float64Array;
  /** Product i's collections are `collections[starts[i] .. starts[i + 1])`, indexes into collectionIds. */
  private readonly starts: Numbers;
  private readonly collections: Numbers;
  private readonly collectionIds: Float64Array;

  /**
   * Each collection's members that are in the catalog (`inCatalog`), collections in their order:
   * read from the collections' ids, so that a rule's inputs need not make the collections' lists
   * of products.
   */
  constructor(
    collections: Iterable<Pick<IndexedCollection, 'id' | 'members'>>,
    inCatalog: (productId: number) => boolean = () => true,
  ) {
    const listed = [...collections];
    const rows = listed.map((c) => c.members.filter(inCatalog));
    this.collectionIds = Float64Array.from(listed, (c) => c.id);
    let pairs = 0;
    for (const list of rows) pairs += list.length;
    const sorted = new Float64Array(pairs);
    let at = 0;
    for (const list of rows) for (const id of list) sorted[at++] = id;
    sorted.sort();
    let distinct = 0;
    for (let i = 0; i < sorted.length; i++)
      if (distinct === 0 || sorted[i] !== sorted[distinct - 1]) sorted[distinct++] = sorted[i]!;
    this.products = sorted.slice(0, distinct);
    const starts: number[] = new Array(distinct + 1).fill(0);
    for (const list of rows) for (const id of list) starts[sortedIndexOf(this.products, id) + 1]!++;
    for (let p = 0; p < distinct; p++) starts[p + 1]! += starts[p]!;
    this.starts = compact(starts);
    const next = starts.slice(0, distinct);
    const out: number[] = new Array(pairs);
    rows.forEach((list, c) => {
      for (const id of list) out[next[sortedIndexOf(this.products, id)]!++] = c;
    });
    this.collections = compact(out);
  }

  /** Products in at least one collection. */
  get size(): number {
    return this.products.length;
  }

  /** The ids of a product's collections, or undefined for a product in none. */
  get(productId: number): number[] | undefined {
    const p = sortedIndexOf(this.products, productId);
    if (p < 0) return undefined;
    const out: number[] = new Array(this.starts[p + 1]! - this.starts[p]!);
    for (let k = this.starts[p]!; k < this.starts[p + 1]!; k++)
      out[k - this.starts[p]!] = this.collectionIds[this.collections[k]!]!;
    return out;
  }

  /** Bytes its arrays hold. */
  get bytes(): number {
    return (
      this.products.byteLength + this.starts.byteLength + this.collections.byteLength + this.collectionIds.byteLength
    );
  }
}
