import type { IndexedCollection } from './collection-index.js';
import type { IndexedProduct } from './shop-catalog.js';

/** The lookups a catalog generation makes of its products on first use (shop-catalog.ts). */

/** Tags a product may have before duplicates are found with a Set rather than by scanning (quadratic). */
const FEW_TAGS = 16;

export function productsByHandle(products: Iterable<IndexedProduct>): Map<string, IndexedProduct> {
  const byHandle = new Map<string, IndexedProduct>();
  for (const product of products) byHandle.set(product.handle, product);
  return byHandle;
}

/** Products by lower-cased tag, in the order given; a tag listed twice on a product counts once. */
export function productsByTag(products: Iterable<IndexedProduct>): Map<string, IndexedProduct[]> {
  const byTag = new Map<string, IndexedProduct[]>();
  for (const product of products) {
    const tags = product.tagsLower;
    const seen = tags.length > FEW_TAGS ? new Set<string>() : undefined;
    for (let i = 0; i < tags.length; i++) {
      const tag = tags[i]!;
      if (seen ? seen.size === seen.add(tag).size : tags.indexOf(tag) < i) continue;
      const list = byTag.get(tag);
      if (list) list.push(product);
      else byTag.set(tag, [product]);
    }
  }
  return byTag;
}

/** Each collection's members that are in the catalog, in the collection's order. */
export function collectionProducts(
  collections: Iterable<IndexedCollection>,
  products: ReadonlyMap<number, IndexedProduct>,
): Map<number, readonly IndexedProduct[]> {
  const byCollection = new Map<number, readonly IndexedProduct[]>();
  for (const collection of collections) {
    const members: IndexedProduct[] = [];
    for (const id of collection.members) {
      const product = products.get(id);
      if (product !== undefined) members.push(product);
    }
    byCollection.set(collection.id, members);
  }
  return byCollection;
}
