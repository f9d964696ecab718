import { plainText } from '../domain/catalog/text.js';
import { formatMoney } from '../domain/catalog/money.js';
import type { CatalogIndex } from '../indexes/catalog-index.js';
import type { KeyIndex } from '../indexes/key-index.js';
import type { IndexedProduct, ShopCatalog } from '../indexes/shop-catalog.js';

/** The product the demo page shows, in display terms. */
export interface DemoProduct {
  id: number;
  handle: string;
  title: string;
  vendor: string;
  /** Plain text of body_html, shortened. */
  description: string;
  image: { src: string; alt: string } | null;
  /** Decimal strings of the first in-stock variant (or the first variant). */
  price: string;
  compareAtPrice: string | null;
  inStock: boolean;
  variantId: number | null;
}

export type WidgetDemoLookup =
  | { kind: 'unknown' }
  | { kind: 'private' }
  | {
      kind: 'shop';
      shop: { name: string; handle: string; currency: string };
      product: DemoProduct | null;
      rulesetId: number | null;
    };

interface ProductJsonShape {
  body_html?: string | null;
  image?: { src?: string; alt?: string | null } | null;
  variants?: { id: number; compare_at_price?: string | null }[];
}

function describe(product: IndexedProduct): DemoProduct {
  const json = JSON.parse(product.json.plain.toString('utf8')) as ProductJsonShape;
  const variant = product.variants.find((v) => v.inStock) ?? product.variants[0];
  const compare = json.variants?.find((v) => v.id === variant?.id)?.compare_at_price ?? null;
  return {
    id: product.id,
    handle: product.handle,
    title: product.title,
    vendor: product.vendor,
    // Plain text (the page escapes it again when it renders).
    description: plainText(json.body_html ?? '', 598),
    image: json.image?.src ? { src: json.image.src, alt: json.image.alt || product.title } : null,
    price: variant ? formatMoney(variant.price) : '0.00',
    compareAtPrice: compare,
    inStock: product.inStock,
    variantId: variant?.id ?? null,
  };
}

/**
 * The asked-for product when it is listable; else the best seller in stock; else the first listable in-stock product.
 */
function pickProduct(catalog: ShopCatalog, handle: string | null): IndexedProduct | null {
  const asked = handle === null ? undefined : catalog.byHandle.get(handle);
  if (asked?.listable) return asked;
  for (const id of catalog.sales.topSellers) {
    const product = catalog.products.get(id);
    if (product?.listable && product.inStock) return product;
  }
  let first: IndexedProduct | null = null;
  for (const product of catalog.products.values()) {
    if (product.listable && product.inStock && (first === null || product.id < first.id)) first = product;
  }
  return first;
}

/** What the storefront widget demo page (`/widget-demo`) shows for a public key. */
export function createWidgetDemoService(deps: {
  keys: Pick<KeyIndex, 'lookupFresh'>;
  catalog: Pick<CatalogIndex, 'ensure'>;
}) {
  return {
    async lookup(key: string, productHandle: string | null = null): Promise<WidgetDemoLookup> {
      const owner = await deps.keys.lookupFresh(key);
      if (!owner) return { kind: 'unknown' };
      // The page embeds its key in HTML: a private key must never end up there.
      if (owner.kind !== 'public') return { kind: 'private' };
      const catalog = await deps.catalog.ensure(owner.shopId);
      if (!catalog) return { kind: 'unknown' };
      const product = pickProduct(catalog, productHandle);
      const ruleset = [...catalog.rulesets.values()]
        .map((r) => r.ruleset)
        .filter((r) => r.enabled)
        .sort((a, b) => a.id - b.id)[0];
      return {
        kind: 'shop',
        shop: { name: catalog.shop.name, handle: catalog.shop.handle, currency: catalog.shop.currency },
        product: product ? describe(product) : null,
        rulesetId: ruleset?.id ?? null,
      };
    },
  };
}

export type WidgetDemoService = ReturnType<typeof createWidgetDemoService>;
