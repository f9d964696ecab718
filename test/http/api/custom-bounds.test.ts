import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../helpers/backends.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { productInput } from '../../helpers/fixtures.js';

/**
 * What a merchant's rules may cost (docs/rules.md, "Patterns" and "Outputs"): pattern sizes are
 * refused when saved, and the work of one answer is bounded and reported, not timed.
 */
const HEAVY = '(a|b){160}c'; // 483 instructions: two fit a ruleset, three do not
const heavyRule = (type: string) => ({
  logic: [{ rules: [{ type, operator: 'matches_regex', value: HEAVY }] }],
  output: [{ type: 'matching_input_tags' }],
});
// 50 products of 20 tags of 170 characters that the pattern matches: more than an evaluation may match.
const tagged = Array.from({ length: 50 }, (_, p) =>
  productInput(p + 1, {
    tags: Array.from({ length: 20 }, (_, i) => `${'ab'.repeat(80)}c-${p}-${i}`).join(', '),
  }),
);

const soldOut = { inventory_management: 'shop', inventory_policy: 'deny' as const, inventory_quantity: 0 };
// 1,000 sold-out products in one collection: 100 rules × 50 of its outputs propose 5,000,000 candidates.
const stockless = Array.from({ length: 1000 }, (_, i) =>
  productInput(1001 + i, { variants: [{ id: 100_001 + i, price: '5.00', ...soldOut }] }),
);
const outputsOfOne = {
  logic: [],
  output: Array.from({ length: 50 }, () => ({ type: 'collection', collection_id: 9 })),
};

describe.each(backends())('what rules may cost, on $name', (backend) => {
  let t: TestApp;
  let key: string;
  let shopId: number;
  const rulesets = (body: unknown) => t.admin('POST', '/admin/v1/shops/regex/rulesets', body);
  const custom = (id: number, query: string) =>
    t.app.inject(`/api/v1/custom/id/${id}?key=${key}&bust_cache=yes&limit=100&${query}`);

  beforeAll(async () => {
    t = await startApp(backend);
    const shop = await t.createShop('regex');
    key = shop.public;
    shopId = shop.id;
    const products = await t.admin('PUT', '/admin/v1/shops/regex/products', [...tagged, ...stockless]);
    expect(products.statusCode).toBe(200);
    const members = stockless.map((p, i) => ({ product_id: p.id, position: i + 1 }));
    const collection = { id: 9, title: 'Sold out', handle: 'sold-out', products: members };
    expect((await t.admin('PUT', '/admin/v1/shops/regex/collections', [collection])).statusCode).toBe(200);
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  it('refuses a pattern past 500 instructions, and patterns past 1,000 together, at their paths', async () => {
    const one = await rulesets({ name: 'one', rules: [heavyRule('url'), { ...heavyRule('url') }] });
    expect(one.statusCode, one.body).toBe(201);
    const huge = await rulesets({
      name: 'huge',
      rules: [{ logic: [{ rules: [{ type: 'url', operator: 'matches_regex', value: '\\pL{1000}' }] }], output: [] }],
    });
    expect(huge.statusCode).toBe(422);
    expect(huge.json().error).toMatch(
      /^Invalid ruleset: rules\[0\]\.logic\[0\]\.rules\[0\]\.value: compiles to (at least )?10\d\d /,
    );
    const three = await rulesets({ name: 'three', rules: [heavyRule('url'), heavyRule('url'), heavyRule('url')] });
    expect(three.statusCode).toBe(422);
    expect(three.json().error).toContain('rules: holds patterns that compile to 1449 instructions together');
  });

  it('matches the first values within the work of an evaluation and reports the rest in errors', async () => {
    const saved = await rulesets({ name: 'tags', rules: [heavyRule('product_tag')] });
    expect(saved.statusCode, saved.body).toBe(201);
    const id = saved.json().ruleset.id as number;
    const few = (await custom(id, 'shop_product_ids=1')).json();
    expect(few.metadata.errors).toEqual([]);
    expect(few.data.map((p: { id: number }) => p.id)).toEqual([]); // product 1 is the input, and left out
    const all = Array.from({ length: 50 }, (_, i) => i + 1).join(',');
    const many = await custom(id, `shop_product_ids=${all}&filter_inputs=no`);
    expect(many.statusCode).toBe(200);
    const body = many.json();
    expect(body.metadata.errors.map((e: { code: string }) => e.code)).toEqual(['pattern_work_limit']);
    // The first two products' tags (20 each) were matched, so those two products share a matched tag.
    expect(
      body.data
        .map((p: { id: number }) => p.id)
        .slice(0, 2)
        .sort(),
    ).toEqual([1, 2]);
    expect(body.data.length).toBeLessThan(5);
  });

  it('leaves a stored ruleset that is past the bounds unserved, rather than running it', async () => {
    const document = { name: 'stored', enabled: true, filter_oos: true, filter_input_products: true };
    const rule = { enabled: true, logic: heavyRule('url').logic, output: [], exit_if_matched: false };
    const { id } = await t.services.store.createRuleset(shopId, { ...document, rules: [rule, rule, rule] });
    const res = await custom(id, 'url=/ab');
    expect(res.statusCode).toBe(404);
  });

  it('examines at most 100,000 candidates for one answer, and says so in errors', async () => {
    const saved = await rulesets({ name: 'fan-out', rules: Array.from({ length: 100 }, () => outputsOfOne) });
    expect(saved.statusCode, saved.body.slice(0, 300)).toBe(201);
    const res = await custom(saved.json().ruleset.id, '');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toEqual([]);
    expect(body.metadata.errors.map((e: { code: string }) => e.code)).toEqual([
      'candidate_limit',
      'filtered_oos_limit',
    ]);
    // One collection output alone stays within the candidate bound: nothing else to report.
    const one = await rulesets({ name: 'one output', rules: [outputsOfOne] });
    const alone = (await custom(one.json().ruleset.id, '')).json();
    expect(alone.metadata.errors.map((e: { code: string }) => e.code)).toEqual(['filtered_oos_limit']);
  });

  it('lists the first 100 out-of-stock products passed over, and counts the rest in errors', async () => {
    const one = await rulesets({ name: 'sold out', rules: [{ logic: [], output: [outputsOfOne.output[0]] }] });
    expect(one.statusCode, one.body).toBe(201);
    const body = (await custom(one.json().ruleset.id, '')).json();
    expect(body.data).toEqual([]);
    // Each passed-over product once, in the collection's order, up to the bound.
    const listed = body.metadata.filtered_oos_products.map((p: { id: number }) => p.id);
    expect(listed).toEqual(stockless.slice(0, 100).map((p) => p.id));
    expect(body.metadata.errors).toEqual([
      {
        code: 'filtered_oos_limit',
        message: '1,000 products were passed over for being out of stock; filtered_oos_products lists the first 100.',
      },
    ]);
    // With filter_oos=no nothing is passed over: the answer is the collection's first products.
    const kept = (await custom(one.json().ruleset.id, 'filter_oos=no')).json();
    expect(kept.data.map((p: { id: number }) => p.id)).toEqual(stockless.slice(0, 100).map((p) => p.id));
    expect(kept.metadata.filtered_oos_products).toEqual([]);
    expect(kept.metadata.errors).toEqual([]);
  });
});
