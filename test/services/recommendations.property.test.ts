import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoShop } from '../../demo/generate.js';
import { isListable, isProductInStock } from '../../src/domain/catalog/product.js';
import { normalizeProduct } from '../../src/domain/catalog/normalize.js';
import { backends } from '../helpers/backends.js';
import { startApp, type TestApp } from '../helpers/app.js';

/** Invariants of the custom endpoint's answer over generated rulesets and requests, on a generated shop. */
describe('custom answers (property-based)', () => {
  const [backend] = backends();
  const data = generateDemoShop({ seed: 3, productCount: 80, now: new Date('2026-11-01T12:00:00Z') });
  const products = data.products.map((p) => normalizeProduct(p, new Date('2026-11-01T12:00:00Z')));
  const byId = new Map(products.map((p) => [p.id, p]));
  const productIds = products.map((p) => p.id);
  const tags = [...new Set(products.flatMap((p) => p.tags.split(',').map((t) => t.trim())))].filter(Boolean);
  const collectionIds = data.collections.map((c) => c.id);
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp(backend!);
    await t.createShop('prop');
    for (const [path, rows] of [
      ['products', data.products],
      ['collections', data.collections],
      ['customers', data.customers],
      ['orders', data.orders],
    ] as const) {
      const res = await t.admin('PUT', `/admin/v1/shops/prop/${path}`, rows);
      expect(res.statusCode, res.body).toBe(200);
    }
  });
  afterAll(() => t.close().then(() => backend!.cleanup()));

  const ref = fc.constantFrom(...productIds).map((product_id) => ({ product_id }));
  const condition = fc.oneof(
    fc.constant({ type: 'anything' }),
    fc.record({
      type: fc.constant('product'),
      operator: fc.constantFrom('contains_any', 'contains_all', 'does_not_contain_any'),
      products: fc.array(ref, { minLength: 1, maxLength: 3 }),
    }),
    fc.record({
      type: fc.constant('product_tag'),
      operator: fc.constantFrom('contains_any', 'does_not_contain_any', 'equals'),
      value: fc.constantFrom(...tags),
    }),
    fc.record({
      type: fc.constant('cart_subtotal'),
      operator: fc.constantFrom('greater_than', 'less_than'),
      value: fc.constantFrom('10', '100', '250.50'),
    }),
    fc.record({ type: fc.constant('customer'), operator: fc.constantFrom('is_logged_in', 'is_guest') }),
  );
  const output = fc.oneof(
    fc.record({ type: fc.constant('product'), products: fc.array(ref, { minLength: 1, maxLength: 6 }) }),
    fc.record({ type: fc.constant('collection'), collection_id: fc.constantFrom(...collectionIds) }),
    fc.record({ type: fc.constant('tag'), value: fc.constantFrom(...tags) }),
    fc.constantFrom({ type: 'matching_input_tags' }, { type: 'input_products' }, { type: 'none' }),
    fc
      .array(fc.constantFrom(...productIds), { minLength: 1, maxLength: 8 })
      .map((ids) => ({ type: 'endpoint', endpoint: `/products/static?ids=${ids.join(',')}` })),
  );
  const rule = fc.record({
    enabled: fc.boolean(),
    exit_if_matched: fc.boolean(),
    logic: fc.array(fc.record({ rules: fc.array(condition, { minLength: 1, maxLength: 3 }) }), { maxLength: 2 }),
    output: fc.array(output, { minLength: 1, maxLength: 3 }),
  });
  const ruleset = fc.record({
    name: fc.constant('generated'),
    filter_oos: fc.boolean(),
    filter_input_products: fc.boolean(),
    rules: fc.array(rule, { minLength: 1, maxLength: 6 }),
  });
  const request = fc.record({
    shop_product_ids: fc.option(
      fc.array(fc.constantFrom(...productIds), { minLength: 1, maxLength: 3 }).map((ids) => ids.join(',')),
      { nil: undefined },
    ),
    cart_subtotal: fc.option(fc.constantFrom('5.00', '99.99', '300'), { nil: undefined }),
    shop_customer_id: fc.option(fc.constantFrom(...data.customers.slice(0, 5).map((c) => String(c.id))), {
      nil: undefined,
    }),
    limit: fc.option(fc.integer({ min: 1, max: 20 }).map(String), { nil: undefined }),
    filter_oos: fc.option(fc.constantFrom('yes', 'no'), { nil: undefined }),
  });

  it('never duplicates, never exceeds the limit, never returns a filtered product', async () => {
    await fc.assert(
      fc.asyncProperty(ruleset, request, async (doc, raw) => {
        const query = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined)) as Record<
          string,
          string
        >;
        const before = structuredClone(doc);
        const res = await t.admin('POST', '/admin/v1/shops/prop/rulesets/new/preview', {
          ...query,
          time: '2026-11-01T12:00:00Z',
          ruleset: doc,
        });
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json();
        const ids: number[] = body.data.map((p: { id: number }) => p.id);
        const inputs = new Set((query.shop_product_ids ?? '').split(',').filter(Boolean).map(Number));
        const filterOos = query.filter_oos ? query.filter_oos === 'yes' : doc.filter_oos;

        expect(new Set(ids).size).toBe(ids.length);
        expect(ids.length).toBeLessThanOrEqual(Number(query.limit ?? 5));
        for (const id of ids) {
          const product = byId.get(id)!;
          expect(isListable(product)).toBe(true);
          if (doc.filter_input_products) expect(inputs.has(id)).toBe(false);
          if (
            filterOos &&
            !body.data
              .find((p: { id: number }) => p.id === id)
              .variants.some(
                (v: { inventory_quantity: number; inventory_policy: string; inventory_management: string | null }) =>
                  v.inventory_management === null || v.inventory_policy === 'continue' || v.inventory_quantity > 0,
              )
          ) {
            throw new Error(`out-of-stock product ${id} returned`);
          }
        }
        for (const p of body.metadata.filtered_oos_products) expect(isProductInStock(byId.get(p.id)!)).toBe(false);
        const unevaluated = body.metadata.unevaluated_rules.length;
        if (unevaluated > 0)
          expect(body.metadata.matched_rules.some((r: { exit_if_matched: boolean }) => r.exit_if_matched)).toBe(true);
        expect(doc).toEqual(before);
      }),
      { numRuns: 150 },
    );
  });
});
