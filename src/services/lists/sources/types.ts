import type { ShopModel } from '../../../indexes/model-index.js';
import type { IndexedProduct, ShopCatalog } from '../../../indexes/shop-catalog.js';
import type { Query } from '../../params.js';
import type { ListOptions } from '../options.js';
import type { Picked } from '../select.js';

/** What runs a list: the catalog generation, the shop's model and a way to read a visitor's views. */
export interface ListBase {
  catalog: ShopCatalog;
  viewed(filter: { uuid: string | null; customerId: number | null }): Promise<readonly string[]>;
  /** The shop's learned model, or undefined until its first build is in (the model lists then fall back). */
  model(): ShopModel | undefined;
}

/** What a list knows of its caller, over HTTP or when a ruleset's `endpoint` output runs it in-process. */
export interface ListContext {
  catalog: ShopCatalog;
  /** Input products (shop_product_ids): excluded from most lists, the seeds of recommended and similar. */
  productIds: readonly number[] | null;
  /** The products of shop_variant_ids (the inputs of recommended and viewed_together beside shop_product_ids). */
  variantProductIds: readonly number[];
  customerId: number | null;
  uuid: string | null;
  /** Handles the visitor viewed, most recent first (read lazily: it may need the database). */
  viewedHandles(): Promise<readonly string[]>;
  model(): ShopModel | undefined;
}

/** One endpoint of the list family (product.md §5), declared once for HTTP, rule outputs and /sources. */
export interface ListSource {
  path: string;
  summary: string;
  /** The parameters this list adds to the common ones and the list filters, with their descriptions. */
  params: Record<string, string>;
  limits: { fallback: number; max: number };
  /** Answers that change with every view (viewed products) are never cached. */
  uncached?: boolean;
  /** Candidates in answer order, before the shared filters (listable, market, stock, price, limit). */
  candidates(context: ListContext, query: Query, options: ListOptions): Iterable<IndexedProduct> | Promise<Iterable<IndexedProduct>>;
  /** Extra `metadata` for the answer (purchased quantities). */
  metadata?(context: ListContext, picked: readonly Picked[]): Record<string, unknown>;
}

/** Products by id, unknown ids skipped. */
export function byIds(catalog: ShopCatalog, ids: Iterable<number>): IndexedProduct[] {
  const out: IndexedProduct[] = [];
  for (const id of ids) {
    const product = catalog.products.get(id);
    if (product) out.push(product);
  }
  return out;
}

/** The same, lazily: a ranked list of thousands is read only as far as the answer needs. */
export function* eachById(catalog: ShopCatalog, ids: Iterable<number>, skip?: ReadonlySet<number>): Generator<IndexedProduct> {
  for (const id of ids) {
    if (skip?.has(id)) continue;
    const product = catalog.products.get(id);
    if (product) yield product;
  }
}
