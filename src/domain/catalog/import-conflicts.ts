import type { Product } from './product.js';

/** What makes a product import refused: the row, the field, and why (a 422 names them). */
export interface ImportConflict {
  index: number;
  path: string;
  message: string;
}

/** Who holds a handle or a variant id in the store now. */
export interface CurrentOwners {
  handles: ReadonlyMap<string, number>;
  variants: ReadonlyMap<number, number>;
}

/**
 * The first conflict of a product import, or null. A handle or a variant id names one product of
 * a shop: within the import, and against the store, unless the product holding it now is in the
 * import too (it gives the handle or the variant up there, or the import says twice who has it).
 */
export function firstImportConflict(products: readonly Product[], owners: CurrentOwners): ImportConflict | null {
  const importing = new Set(products.map((p) => p.id));
  const elsewhere = (owner: number | undefined, id: number) =>
    owner !== undefined && owner !== id && !importing.has(owner);
  const handles = new Map<string, number>();
  const variants = new Map<number, number>();
  for (const [index, product] of products.entries()) {
    const sameHandle = handles.get(product.handle);
    if (sameHandle !== undefined && sameHandle !== product.id)
      return {
        index,
        path: 'handle',
        message: `"${product.handle}" is used by product ${sameHandle} in the same request`,
      };
    const owner = owners.handles.get(product.handle);
    if (elsewhere(owner, product.id))
      return { index, path: 'handle', message: `"${product.handle}" is already the handle of product ${owner}` };
    handles.set(product.handle, product.id);
    const listed = new Set<number>();
    for (const [v, variant] of product.variants.entries()) {
      const path = `variants[${v}].id`;
      // Stored as sent on SQLite, a repeat failed the whole import on PostgreSQL (one row updated twice).
      if (listed.has(variant.id)) return { index, path, message: `variant ${variant.id} is listed twice` };
      listed.add(variant.id);
      const other = variants.get(variant.id);
      if (other !== undefined && other !== product.id)
        return { index, path, message: `variant ${variant.id} also belongs to product ${other} in the same request` };
      const holder = owners.variants.get(variant.id);
      if (elsewhere(holder, product.id))
        return { index, path, message: `variant ${variant.id} is already a variant of product ${holder}` };
      variants.set(variant.id, product.id);
    }
  }
  return null;
}
