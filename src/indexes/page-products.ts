import { sortedIndexOf } from '../domain/models/build.js';
import type { IndexedProduct } from './shop-catalog.js';

/**
 * A loaded page's products by id: the page's own ids (in ascending order, as pages are read)
 * searched by halves, not a map. A map of a shop's 150 products was a hash table and a heap
 * number a key (their ids are past 31 bits): a tenth of the objects a resident shop kept, each
 * copied by the young collections after its load and marked by every full one while it stayed.
 */
export class PageProducts implements ReadonlyMap<number, IndexedProduct> {
  private constructor(
    private readonly ids: Float64Array,
    private readonly products: readonly IndexedProduct[],
  ) {}

  /** The products by id: searched in their ids when those ascend, else in a map. */
  static of(ids: Float64Array, products: readonly IndexedProduct[]): ReadonlyMap<number, IndexedProduct> {
    for (let i = 1; i < ids.length; i++) {
      if (ids[i - 1]! >= ids[i]!) return new Map(products.map((p) => [p.id, p]));
    }
    return new PageProducts(ids, products);
  }

  get size(): number {
    return this.products.length;
  }

  private indexOf(id: number): number {
    return sortedIndexOf(this.ids, id);
  }

  get(id: number): IndexedProduct | undefined {
    const i = this.indexOf(id);
    return i < 0 ? undefined : this.products[i];
  }

  has(id: number): boolean {
    return this.indexOf(id) >= 0;
  }

  *entries(): MapIterator<[number, IndexedProduct]> {
    for (let i = 0; i < this.products.length; i++) yield [this.ids[i]!, this.products[i]!];
  }

  // The arrays' own iterators: a loop over them makes no object a step, as over a map's.
  keys(): MapIterator<number> {
    return this.ids.values() as MapIterator<number>;
  }

  values(): MapIterator<IndexedProduct> {
    return this.products.values() as MapIterator<IndexedProduct>;
  }

  [Symbol.iterator](): MapIterator<[number, IndexedProduct]> {
    return this.entries();
  }

  forEach(
    callback: (value: IndexedProduct, key: number, map: ReadonlyMap<number, IndexedProduct>) => void,
    self?: unknown,
  ): void {
    for (let i = 0; i < this.products.length; i++) callback.call(self, this.products[i]!, this.ids[i]!, this);
  }
}
