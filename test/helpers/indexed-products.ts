import type { IndexedProduct } from '../../src/indexes/shop-catalog.js';

/**
 * The index fields of a read model's product, each read through its getter: a loaded product's
 * fields are its page's columns, not own properties a comparison would see.
 */
export const indexFields = (p: IndexedProduct) => ({
  id: p.id,
  handle: p.handle,
  title: p.title,
  vendor: p.vendor,
  productType: p.productType,
  tags: p.tags,
  tagsLower: p.tagsLower,
  listable: p.listable,
  inStock: p.inStock,
  variantCount: p.variantCount,
  variants: p.variants,
});
