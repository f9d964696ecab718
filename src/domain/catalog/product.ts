/** Products exactly as the public API returns them (docs/api.md, "Products"), plus the internal `status`. */

export interface Metafield {
  id: number;
  owner_id: number;
  namespace: string;
  key: string;
  value: string;
  value_type: string;
  description: string | null;
  owner_resource: string;
  created_at: string;
  updated_at: string;
  admin_graphql_api_id: string;
}

export interface Variant {
  id: number;
  product_id: number;
  title: string;
  price: string;
  compare_at_price: string | null;
  sku: string | null;
  position: number;
  inventory_policy: string;
  inventory_management: string | null;
  inventory_quantity: number;
  old_inventory_quantity: number;
  fulfillment_service: string;
  option1: string | null;
  option2: string | null;
  option3: string | null;
  taxable: boolean;
  requires_shipping: boolean;
  barcode: string;
  grams: number;
  weight: number;
  weight_unit: string;
  image_id: number | null;
  inventory_item_id: number;
  tax_code: string;
  created_at: string;
  updated_at: string;
  admin_graphql_api_id?: string;
  metafields: Metafield[];
}

export interface ProductOption {
  id: number;
  product_id: number;
  name: string;
  position: number;
  values: string[];
}

export interface ProductImage {
  id: number;
  product_id: number;
  position: number;
  created_at: string;
  updated_at: string;
  alt: string | null;
  width: number;
  height: number;
  src: string;
  variant_ids: number[];
  admin_graphql_api_id?: string;
}

export interface Product {
  id: number;
  title: string;
  body_html: string;
  vendor: string;
  product_type: string;
  created_at: string;
  updated_at: string;
  published_at: string | null;
  handle: string;
  template_suffix: string | null;
  published_scope: string;
  tags: string;
  admin_graphql_api_id?: string;
  variants: Variant[];
  options: ProductOption[];
  images: ProductImage[];
  image: ProductImage | null;
  metafields: Metafield[];
  /** active, draft or archived; never returned by the public API. */
  status: string;
}

/** The tag that keeps a product out of every list (docs/api.md, "Products"). */
export const EXCLUDE_TAG = 'exclude_rebound';

/** Tags as a list: comma-separated, trimmed, empties dropped. */
export function splitTags(tags: string): string[] {
  return tags
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
}

/** Whether any list may return the product: published, active and not excluded. */
export function isListable(product: Pick<Product, 'published_at' | 'status' | 'tags'>): boolean {
  if (product.published_at === null || product.status !== 'active') return false;
  return !splitTags(product.tags).some((t) => t.toLowerCase() === EXCLUDE_TAG);
}

/** Out of stock: tracked by inventory, not allowed to oversell, nothing left (docs/api.md, "Products"). */
export function isVariantInStock(
  variant: Pick<Variant, 'inventory_management' | 'inventory_policy' | 'inventory_quantity'>,
): boolean {
  if (variant.inventory_management === null || variant.inventory_management === '') return true;
  if (variant.inventory_policy === 'continue') return true;
  return variant.inventory_quantity > 0;
}

/** A product is out of stock when every one of its variants is. */
export function isProductInStock(product: Pick<Product, 'variants'>): boolean {
  return product.variants.some(isVariantInStock);
}
