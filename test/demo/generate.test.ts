import { describe, it, expect } from 'vitest';
import { demoSummary, generateDemoShop } from '../../demo/generate.js';
import {
  CollectionInput,
  CustomerInput,
  MarketInput,
  OrderInput,
  ProductInput,
} from '../../src/domain/inputs/catalog.js';
import { validateRows } from '../../src/domain/inputs/validate.js';
import { normalizeProduct } from '../../src/domain/catalog/normalize.js';
import { isListable, isProductInStock, isVariantInStock } from '../../src/domain/catalog/product.js';

const DAY = 86_400_000;
const now = new Date('2025-06-15T12:34:56.789Z');
const data = generateDemoShop({ now });
const products = data.products.map((p) => normalizeProduct(p, now));
const productIds = new Set(data.products.map((p) => p.id));
const variantOwner = new Map(data.products.flatMap((p) => p.variants.map((v) => [v.id, p.id] as const)));

describe('generateDemoShop', () => {
  it('is deterministic for the same seed and now, and varies with the seed', () => {
    const small = { now, productCount: 60 };
    expect(generateDemoShop(small)).toEqual(generateDemoShop(small));
    expect(JSON.stringify(generateDemoShop({ ...small, seed: 7 }))).not.toEqual(
      JSON.stringify(generateDemoShop(small)),
    );
  });

  it('produces rows the admin API accepts', () => {
    expect(() => validateRows(ProductInput, data.products, 'products')).not.toThrow();
    expect(() => validateRows(CollectionInput, data.collections, 'collections')).not.toThrow();
    expect(() => validateRows(CustomerInput, data.customers, 'customers')).not.toThrow();
    expect(() => validateRows(MarketInput, data.markets, 'markets')).not.toThrow();
    expect(() => validateRows(OrderInput, data.orders, 'orders')).not.toThrow();
  });

  it('has about a thousand products with unique ids, handles and variant ids', () => {
    expect(data.products).toHaveLength(1000);
    expect(productIds.size).toBe(1000);
    expect(new Set(data.products.map((p) => p.handle)).size).toBe(1000);
    for (const product of data.products) expect(product.handle).toMatch(/^[a-z0-9][a-z0-9-]*$/);
    const variantIds = data.products.flatMap((p) => p.variants.map((v) => v.id));
    expect(new Set(variantIds).size).toBe(variantIds.length);
    expect(new Set(data.products.map((p) => p.product_type)).size).toBeGreaterThanOrEqual(6);
    expect(new Set(data.products.map((p) => p.vendor)).size).toBeGreaterThanOrEqual(10);
  });

  it('keeps variant options consistent with the product options', () => {
    for (const product of data.products) {
      expect(product.variants.length).toBeGreaterThanOrEqual(1);
      expect(product.variants.length).toBeLessThanOrEqual(6);
      const options = product.options ?? [];
      for (const variant of product.variants) {
        const values = [variant.option1, variant.option2, variant.option3];
        options.forEach((option, i) => {
          expect(option.values).toContain(values[i]);
        });
        expect(values.slice(options.length).every((v) => v === null)).toBe(true);
      }
    }
  });

  it('has sold-out, continue-selling and unlisted products', () => {
    const soldOut = products.filter((p) => !isProductInStock(p));
    const continueSelling = products.filter((p) =>
      p.variants.every((v) => v.inventory_policy === 'continue' && v.inventory_quantity <= 0),
    );
    expect(soldOut.length).toBeGreaterThan(40);
    expect(continueSelling.length).toBeGreaterThan(20);
    expect(continueSelling.every((p) => isProductInStock(p) && p.variants.every(isVariantInStock))).toBe(true);
    expect(products.some((p) => p.variants.some((v) => v.inventory_quantity < 0))).toBe(true);
    expect(products.filter((p) => !isListable(p)).length).toBeGreaterThanOrEqual(20);
    expect(demoSummary(data).outOfStock).toBe(soldOut.length);
  });

  it('links collections, markets and orders to generated ids', () => {
    expect(data.collections.length).toBeGreaterThanOrEqual(15);
    for (const collection of data.collections) {
      expect(collection.products.length).toBeGreaterThan(0);
      for (const member of collection.products) expect(productIds.has(member.product_id)).toBe(true);
    }
    const [europe, canada] = data.markets;
    expect(europe?.product_ids?.every((id) => productIds.has(id))).toBe(true);
    expect(europe?.fixed_prices?.every((f) => variantOwner.has(f.variant_id))).toBe(true);
    expect(canada?.product_ids).toBeNull();
    const customerIds = new Set(data.customers.map((c) => c.id));
    for (const order of data.orders) {
      if (order.customer) expect(customerIds.has(order.customer.id)).toBe(true);
      for (const line of order.line_items) expect(variantOwner.get(line.variant_id ?? 0)).toBe(line.product_id);
    }
  });

  it('spreads orders over the 90 days before now', () => {
    const times = data.orders.map((o) => Date.parse(o.created_at));
    const first = Math.min(...times);
    const last = Math.max(...times);
    expect(first).toBeGreaterThanOrEqual(now.getTime() - 90 * DAY);
    expect(first).toBeLessThan(now.getTime() - 89 * DAY);
    expect(last).toBeLessThanOrEqual(now.getTime());
    expect(last).toBeGreaterThan(now.getTime() - DAY);
    expect(data.orders.length / 90).toBeGreaterThan(40);
    expect(data.orders.length / 90).toBeLessThan(80);
    const cancelled = data.orders.filter((o) => o.cancelled_at).length / data.orders.length;
    expect(cancelled).toBeGreaterThan(0.01);
    expect(cancelled).toBeLessThan(0.06);
  });

  it('respects productCount', () => {
    const small = generateDemoShop({ now, productCount: 50 });
    expect(small.products).toHaveLength(50);
    const ids = new Set(small.products.map((p) => p.id));
    expect(small.orders.flatMap((o) => o.line_items).every((l) => ids.has(l.product_id))).toBe(true);
    expect(small.collections.flatMap((c) => c.products).every((m) => ids.has(m.product_id))).toBe(true);
  });
});
