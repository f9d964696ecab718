/**
 * Every condition type and operator of docs/rules.md: a true case, a false case and the
 * absent-input case (false), each through a one-rule ruleset compiled from a client body.
 */
import { describe, expect, it } from 'vitest';
import { parseMoney } from '../../../src/domain/catalog/money.js';
import { describeRuleCatalog } from '../../../src/domain/rules/catalog.js';
import type { RuleRequest, RuleWorld } from '../../../src/domain/rules/types.js';
import { inputProduct, matches, request, world, type ConditionBody } from './support.js';

type Kind = 'true' | 'false' | 'absent';

interface Case {
  name: string;
  kind: Kind;
  condition: ConditionBody;
  request: RuleRequest;
  world: RuleWorld;
  expected: boolean;
}

function tc(
  kind: Kind,
  name: string,
  condition: ConditionBody,
  req: RuleRequest,
  w: RuleWorld,
  expected: boolean,
): Case {
  const value = JSON.stringify(condition.value ?? condition.products ?? null);
  return {
    name: `${condition.type} ${condition.operator ?? ''} ${value}: ${name}`,
    kind,
    condition,
    request: req,
    world: w,
    expected,
  };
}

function run(cases: Case[]) {
  it.each(cases)('$name', ({ condition, request: req, world: w, expected }) => {
    expect(matches(condition, req, w)).toBe(expected);
  });
}

// ---------------------------------------------------------------------------------------------
// Input products used by the product-side conditions.
const P1 = inputProduct(101, {
  handle: 'blue-shirt',
  productType: 'Shirts',
  vendor: 'Acme',
  tags: ['Sale', 'Summer'],
  collections: [11, 12],
  requestedVariantIds: [1001],
});
const P2 = inputProduct(102, {
  handle: 'red-hat',
  productType: 'Hats',
  vendor: 'Hatco',
  tags: ['New'],
  collections: [13],
});

/** The request names P1 and P2 (and P1's variant 1001). */
const withBoth = request({ productIds: [101, 102], variantIds: [1001] });
const bothWorld = world({ inputProducts: [P1, P2] });
const withP1 = request({ productIds: [101] });
const p1World = world({ inputProducts: [P1] });
/**
 * No shop_product_ids nor shop_variant_ids. The world still carries products, so a condition that
 * forgot the absence check (e.g. does_not_contain_any) would be caught.
 */
const noProducts = request();

const ALL_CASES: Case[] = [];
function add(cases: Case[]): Case[] {
  ALL_CASES.push(...cases);
  return cases;
}

describe('anything', () => {
  run(
    add([
      tc('true', 'matches an empty request', { type: 'anything' }, request(), world(), true),
      tc('true', 'matches a full request', { type: 'anything' }, withBoth, bothWorld, true),
    ]),
  );
});

describe('product', () => {
  run(
    add([
      tc(
        'true',
        'one of the listed products is an input',
        { type: 'product', operator: 'contains_any', products: [{ product_id: 999 }, { product_id: 102 }] },
        withBoth,
        bothWorld,
        true,
      ),
      tc(
        'false',
        'none of the listed products is an input',
        { type: 'product', operator: 'contains_any', products: [{ product_id: 999 }] },
        withBoth,
        bothWorld,
        false,
      ),
      tc(
        'absent',
        'no input products in the request',
        { type: 'product', operator: 'contains_any', products: [{ product_id: 101 }] },
        noProducts,
        p1World,
        false,
      ),

      tc(
        'true',
        'all listed products are inputs',
        { type: 'product', operator: 'contains_all', products: [{ product_id: 101 }, { product_id: 102 }] },
        withBoth,
        bothWorld,
        true,
      ),
      tc(
        'false',
        'one listed product is missing',
        { type: 'product', operator: 'contains_all', products: [{ product_id: 101 }, { product_id: 102 }] },
        withP1,
        p1World,
        false,
      ),
      tc(
        'absent',
        'no input products in the request',
        { type: 'product', operator: 'contains_all', products: [{ product_id: 101 }] },
        noProducts,
        p1World,
        false,
      ),

      tc(
        'true',
        'no listed product is an input',
        { type: 'product', operator: 'does_not_contain_any', products: [{ product_id: 999 }] },
        withBoth,
        bothWorld,
        true,
      ),
      tc(
        'false',
        'a listed product is an input',
        { type: 'product', operator: 'does_not_contain_any', products: [{ product_id: 999 }, { product_id: 101 }] },
        withBoth,
        bothWorld,
        false,
      ),
      tc(
        'absent',
        'no input products in the request',
        { type: 'product', operator: 'does_not_contain_any', products: [{ product_id: 999 }] },
        noProducts,
        p1World,
        false,
      ),

      // variant_ids narrow the match to those variants of the product (shop_variant_ids).
      tc(
        'true',
        'variant_ids narrowing: the requested variant is listed',
        { type: 'product', operator: 'contains_any', products: [{ product_id: 101, variant_ids: [1002, 1001] }] },
        withBoth,
        bothWorld,
        true,
      ),
      tc(
        'false',
        'variant_ids narrowing: the product is an input but another variant was requested',
        { type: 'product', operator: 'contains_any', products: [{ product_id: 101, variant_ids: [1002] }] },
        withBoth,
        bothWorld,
        false,
      ),
      tc(
        'false',
        'variant_ids narrowing: a product without requested variants does not match',
        { type: 'product', operator: 'contains_any', products: [{ product_id: 102, variant_ids: [2001] }] },
        withBoth,
        bothWorld,
        false,
      ),
      tc(
        'false',
        'variant_ids narrowing in contains_all',
        {
          type: 'product',
          operator: 'contains_all',
          products: [{ product_id: 101, variant_ids: [1002] }, { product_id: 102 }],
        },
        withBoth,
        bothWorld,
        false,
      ),
      tc(
        'true',
        'variant_ids narrowing in does_not_contain_any: product present, variant not',
        { type: 'product', operator: 'does_not_contain_any', products: [{ product_id: 101, variant_ids: [1002] }] },
        withBoth,
        bothWorld,
        true,
      ),
      tc(
        'true',
        'only shop_variant_ids given: not absent',
        { type: 'product', operator: 'contains_any', products: [{ product_id: 101, variant_ids: [1001] }] },
        request({ variantIds: [1001] }),
        p1World,
        true,
      ),
    ]),
  );
});

describe('variant', () => {
  const req = request({ variantIds: [1001, 1002, 5] });
  run(
    add([
      tc(
        'true',
        'one listed variant requested',
        { type: 'variant', operator: 'contains_any', value: '7, 1002' },
        req,
        world(),
        true,
      ),
      tc(
        'false',
        'no listed variant requested',
        { type: 'variant', operator: 'contains_any', value: '7,8' },
        req,
        world(),
        false,
      ),
      tc(
        'absent',
        'no shop_variant_ids',
        { type: 'variant', operator: 'contains_any', value: '1001' },
        request({ productIds: [101] }),
        p1World,
        false,
      ),

      tc(
        'true',
        'all listed variants requested',
        { type: 'variant', operator: 'contains_all', value: '1001,1002' },
        req,
        world(),
        true,
      ),
      tc(
        'false',
        'one listed variant missing',
        { type: 'variant', operator: 'contains_all', value: '1001,1003' },
        req,
        world(),
        false,
      ),
      tc(
        'absent',
        'no shop_variant_ids',
        { type: 'variant', operator: 'contains_all', value: '1001' },
        request(),
        world(),
        false,
      ),

      tc(
        'true',
        'no listed variant requested',
        { type: 'variant', operator: 'does_not_contain_any', value: '7,8' },
        req,
        world(),
        true,
      ),
      tc(
        'false',
        'a listed variant requested',
        { type: 'variant', operator: 'does_not_contain_any', value: '7,5' },
        req,
        world(),
        false,
      ),
      tc(
        'absent',
        'no shop_variant_ids',
        { type: 'variant', operator: 'does_not_contain_any', value: '7' },
        request(),
        world(),
        false,
      ),
    ]),
  );
});

/**
 * product_tag / product_type / product_vendor / product_handle, over the input products P1 and P2.
 * Every list value is written in a different case from the product's, so each case also checks
 * case-insensitivity.
 */
const ATTRIBUTES: Record<string, { all: string[]; missing: string; regexTrue: string[]; regexFalse: string[] }> = {
  product_tag: {
    all: ['SALE', 'summer', 'nEw'],
    missing: 'winter',
    regexTrue: ['/^sum/i', '^Sum', '/EW$/i'],
    regexFalse: ['^sum', '/^winter/i'],
  },
  product_type: {
    all: ['shirts', 'HATS'],
    missing: 'shoes',
    regexTrue: ['/^SHIRT/i', '^Hat'],
    regexFalse: ['^hat', '/^shoe/i'],
  },
  product_vendor: {
    all: ['ACME', 'hatco'],
    missing: 'globex',
    regexTrue: ['/^hat/i', 'cm'],
    regexFalse: ['^ACME$', '/glob/i'],
  },
  product_handle: {
    all: ['Blue-Shirt', 'RED-HAT'],
    missing: 'green-cap',
    regexTrue: ['/^RED-/i', '^blue-.*t$'],
    regexFalse: ['^BLUE', '/cap/i'],
  },
};

for (const [type, a] of Object.entries(ATTRIBUTES)) {
  describe(type, () => {
    const [first, second] = a.all as [string, string];
    run(
      add([
        tc(
          'true',
          'one value present',
          { type, operator: 'contains_any', value: `${a.missing}, ${second}` },
          withBoth,
          bothWorld,
          true,
        ),
        tc(
          'false',
          'no value present',
          { type, operator: 'contains_any', value: a.missing },
          withBoth,
          bothWorld,
          false,
        ),
        tc(
          'absent',
          'no input products',
          { type, operator: 'contains_any', value: first },
          noProducts,
          bothWorld,
          false,
        ),

        tc(
          'true',
          'all values present',
          { type, operator: 'contains_all', value: `${first},${second}` },
          withBoth,
          bothWorld,
          true,
        ),
        tc(
          'false',
          'one value missing',
          { type, operator: 'contains_all', value: `${first},${a.missing}` },
          withBoth,
          bothWorld,
          false,
        ),
        tc(
          'absent',
          'no input products',
          { type, operator: 'contains_all', value: first },
          noProducts,
          bothWorld,
          false,
        ),

        tc(
          'true',
          'no value present',
          { type, operator: 'does_not_contain_any', value: a.missing },
          withBoth,
          bothWorld,
          true,
        ),
        tc(
          'false',
          'a value present',
          { type, operator: 'does_not_contain_any', value: `${a.missing},${second}` },
          withBoth,
          bothWorld,
          false,
        ),
        tc(
          'absent',
          'no input products',
          { type, operator: 'does_not_contain_any', value: a.missing },
          noProducts,
          bothWorld,
          false,
        ),

        tc(
          'true',
          'exactly the set of values',
          { type, operator: 'equals', value: a.all.join(',') },
          withBoth,
          bothWorld,
          true,
        ),
        tc(
          'false',
          'a subset of the values',
          { type, operator: 'equals', value: a.all.slice(1).join(',') },
          withBoth,
          bothWorld,
          false,
        ),
        tc(
          'false',
          'a superset of the values',
          { type, operator: 'equals', value: [...a.all, a.missing].join(',') },
          withBoth,
          bothWorld,
          false,
        ),
        tc(
          'absent',
          'no input products',
          { type, operator: 'equals', value: a.all.join(',') },
          noProducts,
          bothWorld,
          false,
        ),

        ...a.regexTrue.map((re) =>
          tc(
            'true',
            'regex matches a value',
            { type, operator: 'matches_regex', value: re },
            withBoth,
            bothWorld,
            true,
          ),
        ),
        ...a.regexFalse.map((re) =>
          tc(
            'false',
            'regex matches no value (plain patterns are case-sensitive)',
            { type, operator: 'matches_regex', value: re },
            withBoth,
            bothWorld,
            false,
          ),
        ),
        tc(
          'absent',
          'no input products',
          { type, operator: 'matches_regex', value: '.*' },
          noProducts,
          bothWorld,
          false,
        ),
      ]),
    );
  });
}

describe('collection', () => {
  run(
    add([
      tc(
        'true',
        'an input product is in a listed collection',
        { type: 'collection', operator: 'contains_any', value: '99,13' },
        withBoth,
        bothWorld,
        true,
      ),
      tc(
        'false',
        'no input product in a listed collection',
        { type: 'collection', operator: 'contains_any', value: '99' },
        withBoth,
        bothWorld,
        false,
      ),
      tc(
        'absent',
        'no input products',
        { type: 'collection', operator: 'contains_any', value: '11' },
        noProducts,
        bothWorld,
        false,
      ),

      tc(
        'true',
        'no input product in a listed collection',
        { type: 'collection', operator: 'does_not_contain_any', value: '99,98' },
        withBoth,
        bothWorld,
        true,
      ),
      tc(
        'false',
        'an input product is in a listed collection',
        { type: 'collection', operator: 'does_not_contain_any', value: '99,12' },
        withBoth,
        bothWorld,
        false,
      ),
      tc(
        'absent',
        'no input products',
        { type: 'collection', operator: 'does_not_contain_any', value: '99' },
        noProducts,
        bothWorld,
        false,
      ),
    ]),
  );
});

describe('cart_subtotal (exact money)', () => {
  const req = request({ cartSubtotal: parseMoney('49.99')! });
  const cond = (operator: string, value: string): ConditionBody => ({ type: 'cart_subtotal', operator, value });
  run(
    add([
      tc('true', '49.99 > 49.98', cond('greater_than', '49.98'), req, world(), true),
      tc('false', '49.99 > 49.99', cond('greater_than', '49.99'), req, world(), false),
      tc('absent', 'no cart_subtotal', cond('greater_than', '0'), request(), world(), false),

      tc('true', '49.99 >= 49.99', cond('greater_than_or_equal_to', '49.99'), req, world(), true),
      tc('false', '49.99 >= 50', cond('greater_than_or_equal_to', '50'), req, world(), false),
      tc('false', '49.99 >= 49.9901', cond('greater_than_or_equal_to', '49.9901'), req, world(), false),
      tc('absent', 'no cart_subtotal', cond('greater_than_or_equal_to', '0'), request(), world(), false),

      tc('true', '49.99 < 50', cond('less_than', '50'), req, world(), true),
      tc('false', '49.99 < 49.99', cond('less_than', '49.99'), req, world(), false),
      tc('absent', 'no cart_subtotal', cond('less_than', '1000'), request(), world(), false),

      tc('true', '49.99 <= 49.99', cond('less_than_or_equal_to', '49.99'), req, world(), true),
      tc('false', '49.99 <= 49.98', cond('less_than_or_equal_to', '49.98'), req, world(), false),
      tc('absent', 'no cart_subtotal', cond('less_than_or_equal_to', '1000'), request(), world(), false),

      tc('true', '49.99 = 49.99', cond('equal_to', '49.99'), req, world(), true),
      tc('true', '49.99 = 49.990 (same amount, other spelling)', cond('equal_to', '49.990'), req, world(), true),
      tc('false', '49.99 = 50', cond('equal_to', '50'), req, world(), false),
      tc('false', '49.99 = 49.9899', cond('equal_to', '49.9899'), req, world(), false),
      tc('absent', 'no cart_subtotal', cond('equal_to', '0'), request(), world(), false),

      tc('true', 'between, lower bound inclusive', cond('between', '49.99,100'), req, world(), true),
      tc('true', 'between, upper bound inclusive', cond('between', '10,49.99'), req, world(), true),
      tc('false', 'between 50 and 60', cond('between', '50, 60'), req, world(), false),
      tc('false', 'between 0 and 49.98', cond('between', '0,49.98'), req, world(), false),
      tc('absent', 'no cart_subtotal', cond('between', '0,1000'), request(), world(), false),
    ]),
  );

  it('compares 0.1 + 0.2 style amounts exactly (money units, not floats)', () => {
    // 0.3 units exactly: 0.1 + 0.2 in floats would be 0.30000000000000004.
    const sum = request({ cartSubtotal: parseMoney('0.1')! + parseMoney('0.2')! });
    expect(matches(cond('equal_to', '0.3'), sum, world())).toBe(true);
    expect(matches(cond('greater_than', '0.3'), sum, world())).toBe(false);
  });
});

for (const [type, field] of [
  ['cart_item_count', 'cartItemCount'],
  ['cart_line_count', 'cartLineCount'],
] as const) {
  describe(type, () => {
    const req = request({ [field]: 3 });
    // The other count is set too, so reading the wrong field would fail some cases.
    const other = field === 'cartItemCount' ? 'cartLineCount' : 'cartItemCount';
    const mixed = request({ [field]: 3, [other]: 10 });
    const cond = (operator: string, value: string): ConditionBody => ({ type, operator, value });
    run(
      add([
        tc('true', '3 > 2', cond('greater_than', '2'), req, world(), true),
        tc('false', '3 > 3', cond('greater_than', '3'), req, world(), false),
        tc('false', '3 > 5 while the other count is 10', cond('greater_than', '5'), mixed, world(), false),
        tc('absent', 'no count', cond('greater_than', '0'), request({ [other]: 10 }), world(), false),

        tc('true', '3 >= 3', cond('greater_than_or_equal_to', '3'), req, world(), true),
        tc('false', '3 >= 4', cond('greater_than_or_equal_to', '4'), req, world(), false),
        tc('absent', 'no count', cond('greater_than_or_equal_to', '0'), request(), world(), false),

        tc('true', '3 < 4', cond('less_than', '4'), req, world(), true),
        tc('false', '3 < 3', cond('less_than', '3'), req, world(), false),
        tc('absent', 'no count', cond('less_than', '100'), request(), world(), false),

        tc('true', '3 <= 3', cond('less_than_or_equal_to', '3'), req, world(), true),
        tc('false', '3 <= 2', cond('less_than_or_equal_to', '2'), req, world(), false),
        tc('absent', 'no count', cond('less_than_or_equal_to', '100'), request(), world(), false),

        tc('true', '3 = 3', cond('equal_to', '3'), req, world(), true),
        tc('false', '3 = 4', cond('equal_to', '4'), req, world(), false),
        tc('absent', 'no count', cond('equal_to', '0'), request(), world(), false),

        tc('true', 'between, lower bound inclusive', cond('between', '3,5'), req, world(), true),
        tc('true', 'between, upper bound inclusive', cond('between', '1,3'), req, world(), true),
        tc('true', 'between a single point', cond('between', '3,3'), req, world(), true),
        tc('false', 'between 4 and 9', cond('between', '4,9'), req, world(), false),
        tc('absent', 'no count', cond('between', '0,100'), request(), world(), false),
      ]),
    );
  });
}

describe('customer', () => {
  run(
    add([
      tc(
        'true',
        'a customer id is given (even one not stored)',
        { type: 'customer', operator: 'is_logged_in' },
        request({ customerId: 7 }),
        world(),
        true,
      ),
      tc('false', 'a guest', { type: 'customer', operator: 'is_logged_in' }, request(), world(), false),
      tc(
        'absent',
        'no shop_customer_id',
        { type: 'customer', operator: 'is_logged_in' },
        request(),
        world({ customerTags: { 7: ['vip'] } }),
        false,
      ),

      tc('true', 'no customer id', { type: 'customer', operator: 'is_guest' }, request(), world(), true),
      tc(
        'false',
        'a customer id is given',
        { type: 'customer', operator: 'is_guest' },
        request({ customerId: 7 }),
        world(),
        false,
      ),
      // The one exception to "absent input = false": being a guest *is* the absence of shop_customer_id.
      tc(
        'absent',
        'no shop_customer_id: is_guest holds (the absence is what it tests)',
        { type: 'customer', operator: 'is_guest' },
        request(),
        world(),
        true,
      ),
    ]),
  );
});

describe('customer_tag', () => {
  const w = world({ customerTags: { 7: ['VIP', 'wholesale'], 8: [] } });
  const vip = request({ customerId: 7 });
  run(
    add([
      tc(
        'true',
        'the customer has one of the tags (case-insensitive)',
        { type: 'customer_tag', operator: 'contains_any', value: 'retail, vip' },
        vip,
        w,
        true,
      ),
      tc(
        'false',
        'the customer has none of the tags',
        { type: 'customer_tag', operator: 'contains_any', value: 'retail' },
        vip,
        w,
        false,
      ),
      tc(
        'false',
        'a customer without tags',
        { type: 'customer_tag', operator: 'contains_any', value: 'vip' },
        request({ customerId: 8 }),
        w,
        false,
      ),
      tc(
        'absent',
        'no shop_customer_id',
        { type: 'customer_tag', operator: 'contains_any', value: 'vip' },
        request(),
        w,
        false,
      ),
      tc(
        'absent',
        'an unknown customer',
        { type: 'customer_tag', operator: 'contains_any', value: 'vip' },
        request({ customerId: 999 }),
        w,
        false,
      ),

      tc(
        'true',
        'the customer has none of the tags',
        { type: 'customer_tag', operator: 'does_not_contain_any', value: 'retail,new' },
        vip,
        w,
        true,
      ),
      tc(
        'true',
        'a customer without tags has none',
        { type: 'customer_tag', operator: 'does_not_contain_any', value: 'vip' },
        request({ customerId: 8 }),
        w,
        true,
      ),
      tc(
        'false',
        'the customer has one of the tags',
        { type: 'customer_tag', operator: 'does_not_contain_any', value: 'retail,WHOLESALE' },
        vip,
        w,
        false,
      ),
      tc(
        'absent',
        'no shop_customer_id',
        { type: 'customer_tag', operator: 'does_not_contain_any', value: 'retail' },
        request(),
        w,
        false,
      ),
      tc(
        'absent',
        'an unknown customer',
        { type: 'customer_tag', operator: 'does_not_contain_any', value: 'retail' },
        request({ customerId: 999 }),
        w,
        false,
      ),
    ]),
  );
});

describe('customer_purchased', () => {
  const w = world({ purchased: { 7: [101, 102], 8: [] } });
  const buyer = request({ customerId: 7 });
  run(
    add([
      tc(
        'true',
        'bought one of the products',
        { type: 'customer_purchased', operator: 'contains_any', products: [{ product_id: 999 }, { product_id: 102 }] },
        buyer,
        w,
        true,
      ),
      tc(
        'false',
        'bought none of the products',
        { type: 'customer_purchased', operator: 'contains_any', products: [{ product_id: 999 }] },
        buyer,
        w,
        false,
      ),
      tc(
        'absent',
        'no shop_customer_id',
        { type: 'customer_purchased', operator: 'contains_any', products: [{ product_id: 101 }] },
        request(),
        w,
        false,
      ),
      tc(
        'absent',
        'an unknown customer',
        { type: 'customer_purchased', operator: 'contains_any', products: [{ product_id: 101 }] },
        request({ customerId: 999 }),
        w,
        false,
      ),

      tc(
        'true',
        'bought none of the products',
        { type: 'customer_purchased', operator: 'does_not_contain_any', products: [{ product_id: 999 }] },
        buyer,
        w,
        true,
      ),
      tc(
        'true',
        'a customer without orders',
        { type: 'customer_purchased', operator: 'does_not_contain_any', products: [{ product_id: 101 }] },
        request({ customerId: 8 }),
        w,
        true,
      ),
      tc(
        'false',
        'bought one of the products',
        {
          type: 'customer_purchased',
          operator: 'does_not_contain_any',
          products: [{ product_id: 999 }, { product_id: 101 }],
        },
        buyer,
        w,
        false,
      ),
      tc(
        'absent',
        'no shop_customer_id',
        { type: 'customer_purchased', operator: 'does_not_contain_any', products: [{ product_id: 999 }] },
        request(),
        w,
        false,
      ),
      tc(
        'absent',
        'an unknown customer',
        { type: 'customer_purchased', operator: 'does_not_contain_any', products: [{ product_id: 999 }] },
        request({ customerId: 999 }),
        w,
        false,
      ),
    ]),
  );
});

/**
 * 2025-01-01T03:00:00Z: already Wednesday Jan 1 in UTC, still Tuesday Dec 31 22:00 in New York.
 * (date, day_of_week and time_of_day always have an input: the `time` parameter or now.)
 */
const NEW_YEAR_UTC = Date.UTC(2025, 0, 1, 3, 0, 0);
const NY = world({ timezone: 'America/New_York' });
const UTC = world({ timezone: 'UTC' });
const TOKYO = world({ timezone: 'Asia/Tokyo' });
const atNewYear = request({ time: NEW_YEAR_UTC });

describe('date (shop time zone)', () => {
  const cond = (operator: string, value: string): ConditionBody => ({ type: 'date', operator, value });
  run(
    add([
      // date-only values are read in the shop's time zone
      tc('true', 'before Jan 1: still Dec 31 in New York', cond('before', '2025-01-01'), atNewYear, NY, true),
      tc('false', 'before Jan 1: already Jan 1 in UTC', cond('before', '2025-01-01'), atNewYear, UTC, false),
      tc('true', 'after Dec 31: already Jan 1 in UTC', cond('after', '2024-12-31'), atNewYear, UTC, true),
      tc(
        'false',
        'after Dec 31: still Dec 31 in New York (same day is not after)',
        cond('after', '2024-12-31'),
        atNewYear,
        NY,
        false,
      ),
      tc(
        'true',
        'between Dec 31 and Dec 31 in New York (inclusive)',
        cond('between', '2024-12-31,2024-12-31'),
        atNewYear,
        NY,
        true,
      ),
      tc('false', 'between Dec 31 and Dec 31 in UTC', cond('between', '2024-12-31,2024-12-31'), atNewYear, UTC, false),
      tc('true', 'between, start date inclusive', cond('between', '2025-01-01,2025-01-05'), atNewYear, UTC, true),
      tc(
        'true',
        'between, end date inclusive (whole end day)',
        cond('between', '2024-12-01,2024-12-31'),
        atNewYear,
        NY,
        true,
      ),
      tc(
        'false',
        'between a range that ended the day before',
        cond('between', '2024-12-01,2024-12-30'),
        atNewYear,
        NY,
        false,
      ),
      tc('true', 'after Dec 31 in Tokyo (Jan 1, 12:00)', cond('after', '2024-12-31'), atNewYear, TOKYO, true),

      // date-times without an offset are wall-clock times in the shop's time zone (NY: 22:00)
      tc('true', 'before a local 22:01', cond('before', '2024-12-31T22:01'), atNewYear, NY, true),
      tc(
        'false',
        'before a local 22:00 (equal is not before)',
        cond('before', '2024-12-31T22:00:00'),
        atNewYear,
        NY,
        false,
      ),
      tc('true', 'after a local 21:59', cond('after', '2024-12-31 21:59'), atNewYear, NY, true),
      tc(
        'false',
        'after a local 03:01 read in UTC (it is 03:00 there)',
        cond('after', '2025-01-01T03:01'),
        atNewYear,
        UTC,
        false,
      ),
      tc(
        'true',
        'between local date-times (inclusive)',
        cond('between', '2024-12-31T22:00,2024-12-31T23:00'),
        atNewYear,
        NY,
        true,
      ),
      tc(
        'false',
        'between local date-times read in UTC',
        cond('between', '2024-12-31T22:00,2024-12-31T23:00'),
        atNewYear,
        UTC,
        false,
      ),

      // date-times with an offset are instants, whatever the shop's zone
      tc('true', 'after an instant one minute earlier (Z)', cond('after', '2025-01-01T02:59:00Z'), atNewYear, NY, true),
      tc('false', 'before the same instant (Z)', cond('before', '2025-01-01T03:00:00Z'), atNewYear, NY, false),
      tc(
        'true',
        'before an instant one second later (-05:00)',
        cond('before', '2024-12-31T22:00:01-05:00'),
        atNewYear,
        UTC,
        true,
      ),
      tc(
        'false',
        'after the same instant written with +01:00',
        cond('after', '2025-01-01T04:00:00+01:00'),
        atNewYear,
        NY,
        false,
      ),
      tc(
        'true',
        'after an instant written with +01:00',
        cond('after', '2025-01-01T03:59:00+01:00'),
        atNewYear,
        TOKYO,
        true,
      ),
      tc(
        'true',
        'between two instants',
        cond('between', '2025-01-01T02:00:00Z,2025-01-01T12:00:00+09:00'),
        atNewYear,
        NY,
        true,
      ),
      tc(
        'false',
        'between two instants that end before',
        cond('between', '2025-01-01T00:00:00Z,2025-01-01T02:59:59Z'),
        atNewYear,
        NY,
        false,
      ),
      tc(
        'true',
        'between a date and an instant (mixed bounds)',
        cond('between', '2024-12-31,2025-01-01T03:00:00Z'),
        atNewYear,
        NY,
        true,
      ),
    ]),
  );
});

describe('day_of_week (shop time zone)', () => {
  const cond = (value: string): ConditionBody => ({ type: 'day_of_week', operator: 'contains_any', value });
  run(
    add([
      tc('true', 'Tuesday in New York', cond('tue'), atNewYear, NY, true),
      tc('false', 'not yet Wednesday in New York', cond('wed'), atNewYear, NY, false),
      tc('true', 'Wednesday in UTC', cond('sat, WED'), atNewYear, UTC, true),
      tc('false', 'not Tuesday in UTC', cond('tue'), atNewYear, UTC, false),
      tc(
        'true',
        'Sunday is the last day of the list',
        cond('sun'),
        request({ time: Date.UTC(2024, 5, 16, 12) }),
        UTC,
        true,
      ),
      tc('true', 'Monday is the first', cond('mon'), request({ time: Date.UTC(2024, 5, 17, 12) }), UTC, true),
    ]),
  );
});

describe('time_of_day (shop time zone)', () => {
  const cond = (value: string): ConditionBody => ({ type: 'time_of_day', operator: 'between', value });
  const at = (h: number, m: number) => request({ time: Date.UTC(2024, 5, 12, h, m, 30) });
  run(
    add([
      tc('true', '22:00 NY within 21:00-23:00', cond('21:00,23:00'), atNewYear, NY, true),
      tc('false', '03:00 UTC not within 21:00-23:00', cond('21:00,23:00'), atNewYear, UTC, false),
      tc('true', 'start inclusive', cond('22:00,23:00'), atNewYear, NY, true),
      tc('false', 'end exclusive', cond('20:00,22:00'), atNewYear, NY, false),
      tc('true', 'wrapping midnight, before midnight', cond('21:00,02:00'), atNewYear, NY, true),
      tc('true', 'wrapping midnight, after midnight', cond('21:00,04:00'), atNewYear, UTC, true),
      tc('false', 'wrapping midnight, outside', cond('23:00,02:00'), atNewYear, NY, false),
      tc('false', 'wrapping midnight, end exclusive', cond('23:00,03:00'), atNewYear, UTC, false),
      tc('true', 'midnight itself in a wrapping range', cond('23:00,01:00'), at(0, 0), UTC, true),
      tc('false', 'midnight is the exclusive end', cond('22:00,00:00'), at(0, 0), UTC, false),
      tc('true', 'just before a midnight end', cond('22:00,00:00'), at(23, 59), UTC, true),
      tc('true', 'a whole day 00:00-24:00', cond('00:00,24:00'), at(23, 59), UTC, true),
      tc('true', 'single-digit hours', cond('9:00,17:00'), at(9, 0), UTC, true),
    ]),
  );
});

describe('url', () => {
  const url = 'https://shop.example/collections/Sale?page=2';
  const req = request({ url });
  run(
    add([
      tc(
        'true',
        'contains the text',
        { type: 'url', operator: 'contains', value: '/collections/Sale' },
        req,
        world(),
        true,
      ),
      tc(
        'false',
        'does not contain the text',
        { type: 'url', operator: 'contains', value: '/products/' },
        req,
        world(),
        false,
      ),
      tc('absent', 'no url', { type: 'url', operator: 'contains', value: 'a' }, request(), world(), false),

      tc(
        'true',
        'does not contain the text',
        { type: 'url', operator: 'does_not_contain', value: '/products/' },
        req,
        world(),
        true,
      ),
      tc(
        'false',
        'contains the text',
        { type: 'url', operator: 'does_not_contain', value: 'page=2' },
        req,
        world(),
        false,
      ),
      tc(
        'absent',
        'no url',
        { type: 'url', operator: 'does_not_contain', value: '/products/' },
        request(),
        world(),
        false,
      ),

      tc('true', 'exactly the url', { type: 'url', operator: 'equals', value: url }, req, world(), true),
      tc(
        'false',
        'a prefix of the url',
        { type: 'url', operator: 'equals', value: 'https://shop.example/collections/Sale' },
        req,
        world(),
        false,
      ),
      tc('absent', 'no url', { type: 'url', operator: 'equals', value: url }, request(), world(), false),

      tc(
        'true',
        '/regex/i form',
        { type: 'url', operator: 'matches_regex', value: '/collections\\/sale\\b/i' },
        req,
        world(),
        true,
      ),
      tc('true', 'plain pattern', { type: 'url', operator: 'matches_regex', value: 'page=\\d+$' }, req, world(), true),
      tc(
        'false',
        'plain pattern is case-sensitive',
        { type: 'url', operator: 'matches_regex', value: 'collections.sale' },
        req,
        world(),
        false,
      ),
      tc('absent', 'no url', { type: 'url', operator: 'matches_regex', value: '.*' }, request(), world(), false),
    ]),
  );
});

describe('country', () => {
  const us = request({ countryCode: 'US' });
  run(
    add([
      tc(
        'true',
        'one of the codes (case-insensitive value)',
        { type: 'country', operator: 'contains_any', value: 'ca, us' },
        us,
        world(),
        true,
      ),
      tc(
        'false',
        'none of the codes',
        { type: 'country', operator: 'contains_any', value: 'CA,DE' },
        us,
        world(),
        false,
      ),
      tc(
        'absent',
        'no country_code',
        { type: 'country', operator: 'contains_any', value: 'US' },
        request(),
        world(),
        false,
      ),

      tc(
        'true',
        'none of the codes',
        { type: 'country', operator: 'does_not_contain_any', value: 'de,fr' },
        us,
        world(),
        true,
      ),
      tc(
        'false',
        'one of the codes',
        { type: 'country', operator: 'does_not_contain_any', value: 'de,us' },
        us,
        world(),
        false,
      ),
      tc(
        'absent',
        'no country_code',
        { type: 'country', operator: 'does_not_contain_any', value: 'DE' },
        request(),
        world(),
        false,
      ),
    ]),
  );
});

describe('coverage of the table', () => {
  /** Types whose input is always there (time) or is not an input at all. */
  const NO_ABSENT_INPUT = new Set(['anything', 'date', 'day_of_week', 'time_of_day']);

  it('has a true case, a false case and an absent case for every type and operator of the catalog', () => {
    const missing: string[] = [];
    for (const spec of describeRuleCatalog([]).conditions) {
      const operators = spec.operators.length === 0 ? [undefined] : spec.operators.map((o) => o.code);
      for (const operator of operators) {
        const cases = ALL_CASES.filter((c) => c.condition.type === spec.type && c.condition.operator === operator);
        const kinds = new Set(cases.map((c) => (c.kind === 'absent' ? 'absent' : String(c.expected))));
        const wanted =
          spec.type === 'anything'
            ? ['true']
            : ['true', 'false', ...(NO_ABSENT_INPUT.has(spec.type) ? [] : ['absent'])];
        for (const kind of wanted) if (!kinds.has(kind)) missing.push(`${spec.type}/${operator ?? '-'}: ${kind}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
