import { orderToAttribute } from '../domain/attribution/orders.js';
import type { Collection, Order } from '../domain/catalog/collection.js';
import type { Market } from '../domain/catalog/market.js';
import { firstImportConflict } from '../domain/catalog/import-conflicts.js';
import { rejectLineTotalsPastMoney, rejectRefundsBeyondLines } from '../domain/catalog/refunds.js';
import { normalizeProduct, normalizeTimestamp } from '../domain/catalog/normalize.js';
import type { Product } from '../domain/catalog/product.js';
import { InvalidDocumentError } from '../domain/errors.js';
import {
  CollectionInput,
  CustomerInput,
  InventoryInput,
  MarketInput,
  OrderInput,
  ProductInput,
} from '../domain/inputs/catalog.js';
import {
  bulkRows,
  rejectRepeated,
  rejectRepeatedWithin,
  validateRow,
  validateRows,
} from '../domain/inputs/validate.js';
import { mapInTurns, nextTurn } from '../indexes/turns.js';
import type { CatalogIndex } from '../indexes/catalog-index.js';
import type { CatalogStore } from '../store/kysely/catalog.js';
import type { CollectionPageStore } from '../store/kysely/collection-pages.js';
import type { CommerceStore } from '../store/kysely/commerce.js';
import type { PrivacyStore } from '../store/kysely/privacy.js';
import { predatesErasure } from '../domain/erasure.js';
import type { AttributionService } from './attribution.js';

function reject(index: number, path: string, message: string, what: string): never {
  throw new InvalidDocumentError(`Row ${index} of the ${what}: ${path}: ${message}.`, [{ index, path, message }]);
}

function tagList(tags: string | string[] | undefined): string[] {
  const list = Array.isArray(tags) ? tags : (tags ?? '').split(',');
  return [...new Set(list.map((t) => t.trim()).filter((t) => t !== ''))];
}

/** A product listed twice in one membership: the first position wins. */
function firstOccurrences(
  members: { product_id: number; position: number }[],
): { product_id: number; position: number }[] {
  const seen = new Set<number>();
  return members.filter((m) => !seen.has(m.product_id) && seen.add(m.product_id) !== undefined);
}

/** Members a page of the collection listing holds at most (one collection may hold 100,000). */
export const LISTED_MEMBERS = 100_000;

/**
 * Catalog imports (docs/api.md, "Admin API"): validated whole before anything is written, written in one
 * transaction, idempotent by id, then patched into the read model.
 */
export function createCatalogService(deps: {
  store: CatalogStore & CollectionPageStore & CommerceStore & Pick<PrivacyStore, 'erasedCustomers'>;
  catalog: CatalogIndex;
  attribution?: AttributionService;
  clock?: () => Date;
}) {
  const { store, catalog } = deps;
  const clock = deps.clock ?? (() => new Date());

  return {
    async upsertProducts(shopId: number, body: unknown): Promise<{ upserted: number }> {
      const now = clock();
      // Row by row in turns of the event loop: 20,000 products are about 300 ms of this work.
      const products: Product[] = await mapInTurns(bulkRows(body, 'products'), (row, index) =>
        normalizeProduct(validateRow(ProductInput, row, index, 'products'), now),
      );
      rejectRepeated(products, 'id', 'products');
      // Each step below is 10-30 ms for 20,000 products, and SQLite's statements resolve without
      // a turn of the event loop in between: a turn after each keeps them from adding up.
      await nextTurn();
      // Asked of the store, not the read model: an import must not load a shop this node does not serve.
      const [handles, variants] = await Promise.all([
        store.findProductIdsByHandle(
          shopId,
          products.map((p) => p.handle),
        ),
        store.findVariantProducts(
          shopId,
          products.flatMap((p) => p.variants.map((v) => v.id)),
        ),
      ]);
      await nextTurn();
      const conflict = firstImportConflict(products, { handles, variants });
      if (conflict) reject(conflict.index, conflict.path, conflict.message, 'products');
      await nextTurn();
      await store.upsertProducts(shopId, products);
      await catalog.apply(shopId, { products: products.map((p) => p.id) });
      return { upserted: products.length };
    },

    async deleteProduct(shopId: number, productId: number): Promise<boolean> {
      const deleted = await store.deleteProduct(shopId, productId);
      if (deleted) await catalog.apply(shopId, { deletedProducts: [productId], collections: true });
      return deleted;
    },

    /** Admin listing: title / handle / sku search over the read model, paged. */
    async listProducts(
      shopId: number,
      query: { query?: string; limit: number; page: number },
    ): Promise<{ data: Product[]; page: number; total: number }> {
      const shopCatalog = await catalog.ensure(shopId);
      const needle = query.query?.trim().toLowerCase() ?? '';
      const all = shopCatalog ? [...shopCatalog.products.values()] : [];
      const matching =
        needle === ''
          ? all
          : all.filter(
              (p) => p.title.toLowerCase().includes(needle) || p.handle.includes(needle) || String(p.id) === needle,
            );
      matching.sort((a, b) => a.id - b.id);
      const slice = matching.slice((query.page - 1) * query.limit, query.page * query.limit);
      const data = await store.listProducts(shopId, { ids: slice.map((p) => p.id) });
      return { data, page: query.page, total: matching.length };
    },

    /** Stored products by id, in the order given, each once; unknown ids are skipped. */
    async productsByIds(
      shopId: number,
      ids: readonly number[],
    ): Promise<{ data: Product[]; page: number; total: number }> {
      const unique = [...new Set(ids)];
      const found = new Map((await store.listProducts(shopId, { ids: unique })).map((p) => [p.id, p]));
      const data = unique.flatMap((id) => found.get(id) ?? []);
      return { data, page: 1, total: data.length };
    },

    /**
     * The products holding these variants (the console names variant chips by them), from the read model's variant map.
     */
    async productsByVariantIds(
      shopId: number,
      variantIds: readonly number[],
    ): Promise<{ data: Product[]; page: number; total: number }> {
      const byVariant = (await catalog.ensure(shopId))?.byVariant;
      return this.productsByIds(
        shopId,
        variantIds.flatMap((v) => byVariant?.get(v)?.id ?? []),
      );
    },

    async upsertCollections(shopId: number, body: unknown): Promise<{ upserted: number }> {
      // A collection in a turn of its own: one of 100,000 members is about 0.2 s of this thread, and eight
      // of them checked at once held every shop's requests 2.7 s.
      const rows = await mapInTurns(
        bulkRows(body, 'collections'),
        (row, index) => validateRow(CollectionInput, row, index, 'collections'),
        1,
      );
      rejectRepeated(rows, 'id', 'collections');
      await nextTurn();
      const existing = await store.findExistingProductIds(
        shopId,
        rows.flatMap((r) => r.products.map((p) => p.product_id)),
      );
      const collections: Collection[] = await mapInTurns(
        rows,
        (row, index) => {
          row.products.forEach((member, m) => {
            if (!existing.has(member.product_id))
              reject(index, `products[${m}].product_id`, `unknown product ${member.product_id}`, 'collections');
          });
          return {
            id: row.id,
            title: row.title,
            handle: row.handle,
            updated_at: row.updated_at ? normalizeTimestamp(row.updated_at) : clock().toISOString(),
            products: firstOccurrences(
              row.products.map((p, i) => ({ product_id: p.product_id, position: p.position ?? i + 1 })),
            ),
          };
        },
        1,
      );
      await store.upsertCollections(shopId, collections);
      await catalog.apply(shopId, { collections: true });
      return { upserted: collections.length };
    },

    /**
     * A page of collections in id order, after the id given: at most `limit`, and at most
     * `LISTED_MEMBERS` members in all unless one collection alone holds more.
     */
    async listCollections(
      shopId: number,
      page: { after: number; limit: number },
    ): Promise<{ data: Collection[]; total: number; next: number | null }> {
      const [{ collections, more }, total] = await Promise.all([
        store.collectionPage(shopId, { afterId: page.after, limit: page.limit, members: LISTED_MEMBERS }),
        store.countCollections(shopId),
      ]);
      return { data: collections, total, next: more ? (collections.at(-1)?.id ?? null) : null };
    },

    async setInventory(shopId: number, body: unknown): Promise<{ updated: number }> {
      const rows = validateRows(InventoryInput, body, 'inventory levels', 'variant_id');
      const owners = await store.findVariantProducts(
        shopId,
        rows.map((r) => r.variant_id),
      );
      rows.forEach((row, index) => {
        if (!owners.has(row.variant_id))
          reject(index, 'variant_id', `unknown variant ${row.variant_id}`, 'inventory levels');
      });
      await store.setInventory(shopId, rows);
      await catalog.apply(shopId, { products: [...new Set(owners.values())] });
      return { updated: rows.length };
    },

    /**
     * `upserted`: the customers written; one erased since the change its row describes is not
     * (`predatesErasure`), and counts in `erased`.
     */
    async upsertCustomers(shopId: number, body: unknown): Promise<{ upserted: number; erased: number }> {
      const rows = validateRows(CustomerInput, body, 'customers', 'id');
      const erased = await store.erasedCustomers(shopId);
      const kept = rows.filter(
        (r) => !predatesErasure(erased.get(r.id), r.updated_at ? Date.parse(normalizeTimestamp(r.updated_at)) : null),
      );
      const erasedRows = rows.length - kept.length;
      if (kept.length === 0) return { upserted: 0, erased: erasedRows };
      await store.upsertCustomers(
        shopId,
        kept.map((r) => ({ id: r.id, email: r.email?.normalize('NFC') ?? null, tags: tagList(r.tags) })),
      );
      await catalog.apply(shopId, { customers: true });
      return { upserted: kept.length, erased: erasedRows };
    },

    async upsertMarkets(shopId: number, body: unknown): Promise<{ upserted: number }> {
      const rows = validateRows(MarketInput, body, 'markets', 'id');
      rejectRepeatedWithin(rows, 'fixed_prices', 'variant_id', 'markets', { alikeIsOne: true });
      const variantIds = rows.flatMap((r) => (r.fixed_prices ?? []).map((f) => f.variant_id));
      const owners = await store.findVariantProducts(shopId, variantIds);
      const products = await store.findExistingProductIds(
        shopId,
        rows.flatMap((r) => r.product_ids ?? []),
      );
      const markets: Market[] = rows.map((row, index) => {
        (row.fixed_prices ?? []).forEach((f, i) => {
          if (!owners.has(f.variant_id))
            reject(index, `fixed_prices[${i}].variant_id`, `unknown variant ${f.variant_id}`, 'markets');
        });
        (row.product_ids ?? []).forEach((id, i) => {
          if (!products.has(id)) reject(index, `product_ids[${i}]`, `unknown product ${id}`, 'markets');
        });
        return {
          id: row.id,
          name: row.name,
          position: row.position ?? index,
          active: row.active ?? true,
          countries: [...new Set(row.countries.map((c) => c.toUpperCase()))],
          currency: row.currency.toUpperCase(),
          price_adjustment_percent: row.price_adjustment_percent ?? 0,
          fixed_prices: (row.fixed_prices ?? []).map((f) => ({
            variant_id: f.variant_id,
            price: f.price,
            compare_at_price: f.compare_at_price ?? null,
          })),
          // A set, as its countries are: an id listed twice is the product once.
          product_ids: row.product_ids ? [...new Set(row.product_ids)] : null,
        };
      });
      await store.upsertMarkets(shopId, markets);
      await catalog.apply(shopId, { markets: true });
      return { upserted: markets.length };
    },

    async listMarkets(shopId: number): Promise<Market[]> {
      return store.listMarkets(shopId);
    },

    /**
     * Orders feed sales statistics; cancelled ones are kept but never counted. `erased`: the orders
     * written without their customer, erased after placing them (`predatesErasure`).
     */
    async upsertOrders(shopId: number, body: unknown): Promise<{ upserted: number; erased: number }> {
      // Row by row in turns of the event loop, as products are (docs/scaling.md, "Imports beside serving").
      const rows = await mapInTurns(bulkRows(body, 'orders'), (row, index) =>
        validateRow(OrderInput, row, index, 'orders'),
      );
      rejectRepeated(rows, 'id', 'orders');
      rejectRepeatedWithin(rows, 'line_items', 'id', 'orders');
      rejectRefundsBeyondLines(rows);
      rejectLineTotalsPastMoney(rows);
      const erased = await store.erasedCustomers(shopId);
      let unlinked = 0;
      const orders: Order[] = await mapInTurns(rows, (row) => {
        const created = Date.parse(normalizeTimestamp(row.created_at));
        const updated = row.updated_at ? Date.parse(normalizeTimestamp(row.updated_at)) : created;
        // An order an erased customer placed before the erasure comes as the erasure left it, unlinked,
        // however it changed since (a fulfilment, a refund); one placed after it is theirs.
        if (row.customer && predatesErasure(erased.get(row.customer.id), created)) {
          delete row.customer;
          unlinked++;
        }
        return {
          id: row.id,
          customer_id: row.customer?.id ?? null,
          created_at: created,
          cancelled_at: row.cancelled_at ? Date.parse(normalizeTimestamp(row.cancelled_at)) : null,
          updated_at: updated,
          lines: row.line_items.map((l) => ({
            product_id: l.product_id,
            variant_id: l.variant_id ?? null,
            quantity: l.quantity,
            price: l.price ?? '0.00',
          })),
        };
      });
      await store.upsertOrders(shopId, orders);
      // Patched at once: a poll that saw the commit first would rebuild the whole shop instead.
      await catalog.apply(shopId, { orders: true });
      // Every order arrives here (import and webhooks): attributed now, re-attributed when it comes again.
      await deps.attribution?.attributeOrders(
        shopId,
        rows.map((row, i) => orderToAttribute(row, orders[i]!.created_at, orders[i]!.cancelled_at !== null)),
      );
      return { upserted: orders.length, erased: unlinked };
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
