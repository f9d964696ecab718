import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../src/domain/errors.js';
import { foldAliases } from '../../../src/domain/params/aliases.js';
import { customParams, subtotalInCurrency } from '../../../src/domain/params/custom.js';
import { paramsKey, readParams } from '../../../src/domain/params/read.js';

const read = (raw: Record<string, unknown>) => readParams(customParams, raw);
const keyOf = (raw: Record<string, unknown>) => paramsKey(customParams, subtotalInCurrency(read(raw), undefined));

function problem(raw: Record<string, unknown>): InvalidInputError {
  try {
    read(raw);
  } catch (error) {
    if (error instanceof InvalidInputError) return error;
    throw error;
  }
  throw new Error('expected a 400');
}

describe('the platforms’ names, folded once before decoding', () => {
  it('leaves a request without aliases as it is (the same object)', () => {
    const raw = { key: 'k', shop_product_ids: '1', limit: '3' };
    expect(foldAliases(raw, { cart: true })).toBe(raw);
  });

  it('reads shopify_ and recharge_ names and cart_count as the seed names, one cache key for both', () => {
    expect(read({ shopify_product_ids: '1,2', shopify_customer_id: '7', cart_count: '3' })).toMatchObject({
      shop_product_ids: [1, 2],
      shop_customer_id: 7,
      cart_line_count: 3,
    });
    expect(foldAliases({ recharge_customer_id: '5' }, { cart: false })).toMatchObject({ billing_customer_id: '5' });
    expect(keyOf({ shopify_product_ids: '1', cache_key: '99', context: 'default' })).toBe(
      keyOf({ shop_product_ids: '1' }),
    );
  });

  it('names both spellings when they disagree, and takes them when they agree or one is empty', () => {
    const error = problem({ shop_product_ids: '1', shopify_product_ids: '2' });
    expect(error.message).toContain('shop_product_ids and shopify_product_ids');
    expect(read({ shop_product_ids: '1', shopify_product_ids: '1' }).shop_product_ids).toEqual([1]);
    expect(read({ shop_product_ids: '1', shopify_product_ids: '' }).shop_product_ids).toEqual([1]);
  });

  it('reads global ids as their number and refuses one of another kind, naming the parameter', () => {
    expect(read({ shopify_product_ids: 'gid://shopify/Product/12,gid://shop/Product/13' }).shop_product_ids).toEqual([
      12, 13,
    ]);
    expect(read({ shop_variant_ids: 'gid://shopify/ProductVariant/45' }).shop_variant_ids).toEqual([45]);
    expect(read({ shop_customer_id: 'gid://shopify/Customer/7' }).shop_customer_id).toBe(7);
    expect(problem({ shop_product_ids: 'gid://shopify/ProductVariant/45' }).param).toBe('shop_product_ids');
    // A problem of an alias names what the caller sent, beside the seed's name.
    const aliased = problem({ shopify_product_ids: 'gid://shopify/ProductVariant/45' });
    expect(aliased.param).toBe('shop_product_ids');
    expect(aliased.message).toContain('shopify_product_ids');
    expect(problem({ shop_customer_id: 'gid://shopify/Order/7' }).param).toBe('shop_customer_id');
  });

  it('pretty-prints for pretty in any case or a bare flag, and ignores other formats', () => {
    expect(read({ format: 'PRETTY' }).format).toBe(true);
    expect(read({ pretty: '' }).format).toBe(true);
    expect(read({ pretty: 'yes' }).format).toBe(true);
    for (const off of ['no', 'FALSE', '0']) expect(read({ pretty: off }).format).toBe(false);
    expect(read({ format: 'prettyy' }).format).toBe(false);
  });
});

describe('the bracketed cart', () => {
  const cart = (cents: string) => ({
    cart_subtotal: cents,
    'cart[subtotal]': cents,
    'cart[line_count]': '2',
    'cart[item_count]': '3',
    'cart[items][0][product_id]': '4',
    'cart[items][0][variant_id]': '41',
    'cart[items][1][product_id]': 'gid://shopify/Product/5',
    'cart[attributes]': '%7B%7D',
  });

  it('reads the subtotal in cents, the counts, and the items as input products', () => {
    const values = subtotalInCurrency(read(cart('5900')), undefined);
    expect(values).toMatchObject({
      cart_subtotal: 59 * 10_000,
      cart_line_count: 2,
      cart_item_count: 3,
      shop_product_ids: [4, 5],
      shop_variant_ids: [41],
    });
    expect(keyOf(cart('5900'))).toContain('cart_subtotal=590000');
  });

  it('keeps named input products, and reads a cart object of a JSON body the same way', () => {
    expect(read({ ...cart('100'), shop_product_ids: '9' }).shop_product_ids).toEqual([9]);
    const fromObject = subtotalInCurrency(read({ cart: { subtotal: 2000, items: [{ product_id: 4 }] } }), undefined);
    expect(fromObject).toMatchObject({ cart_subtotal: 20 * 10_000, shop_product_ids: [4] });
  });

  it('reads a plain cart_subtotal as a decimal amount, or as cents in a shop set to minor units', () => {
    expect(subtotalInCurrency(read({ cart_subtotal: '59.00' }), undefined).cart_subtotal).toBe(59 * 10_000);
    expect(subtotalInCurrency(read({ cart_subtotal: '5900' }), 'minor').cart_subtotal).toBe(59 * 10_000);
    expect(subtotalInCurrency(read({ cart_subtotal: '59', cart_subtotal_unit: 'major' }), 'minor').cart_subtotal).toBe(
      59 * 10_000,
    );
  });

  it("names the cart's field a refused value came from, in the brackets or the JSON object it was sent in", () => {
    const refusal = (raw: Record<string, unknown>) => {
      try {
        read(raw);
      } catch (error) {
        return error as InvalidInputError;
      }
      throw new Error('expected a 400');
    };
    // A line's id: named with its line, as sent.
    const bracketed = refusal({ 'cart[items][0][product_id]': '4', 'cart[items][1][product_id]': 'abc' });
    expect([bracketed.param, bracketed.message]).toEqual([
      'cart[items][1][product_id]',
      'Parameter cart[items][1][product_id] must be a positive integer id, got "abc".',
    ]);
    expect(refusal({ 'cart[items][0][product_id]': 'gid://shopify/ProductVariant/5' }).param).toBe(
      'cart[items][0][product_id]',
    );
    expect(refusal({ cart: { items: [{ variant_id: 7 }, { variant_id: -1 }] } }).param).toBe(
      'cart.items[1].variant_id',
    );
    expect(refusal({ 'cart[subtotal]': 'lots' }).message).toMatch(/\(sent as cart\[subtotal\]\)$/);
    expect(refusal({ cart: { subtotal: 'lots' } }).message).toMatch(/\(sent as cart\.subtotal\)$/);
    // Sent as itself, the parameter is named alone.
    expect(refusal({ shop_product_ids: 'abc', 'cart[subtotal]': '100' }).message).not.toMatch(/sent as/);
  });

  it('never refuses other bracketed names', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z]{1,8}\[[a-z0-9]{0,8}\](\[[a-z0-9]{0,8}\])?$/),
        fc.string({ maxLength: 20 }),
        (name, value) => {
          // `name[]` of a declared parameter is refused on purpose ("given once"), tested with the reader.
          if (name.startsWith('cart[') || /^[a-z]+\[\]$/.test(name)) return;
          expect(() => read({ [name]: value, shop_product_ids: '1' })).not.toThrow();
        },
      ),
    );
  });
});
