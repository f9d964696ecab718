import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../src/domain/errors.js';
import { commonParams, keyParam, limitParam, listFilterParams } from '../../../src/domain/params/common.js';
import { idList, optionalFlag, positiveId } from '../../../src/domain/params/kinds.js';
import { params } from '../../../src/domain/params/param.js';
import { paramsKey, readParams } from '../../../src/domain/params/read.js';
import { oneOf, text } from '../../../src/domain/params/text-kinds.js';

const schema = params({
  ...keyParam,
  ...commonParams,
  ...listFilterParams,
  ...limitParam(5, 100),
  shop_product_ids: idList('inputs'),
  smart_sort: oneOf(['yes', 'no', 'top_sellers'], 'sort', { fallback: 'no', aliases: { true: 'yes', 1: 'yes' } }),
  shop_customer_id: positiveId('customer'),
  filter_override: optionalFlag('override'),
  query: text('search', { max: 10 }),
});

function problem(raw: Record<string, unknown>): { param: string; message: string } {
  try {
    readParams(schema, raw);
  } catch (error) {
    if (error instanceof InvalidInputError) return { param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected a 400');
}

describe('readParams', () => {
  it('reads a lone surrogate from a JSON body as a decoded query string would (U+FFFD), keyed like it', () => {
    // JSON.parse keeps "\ud800" as a lone surrogate; percent-decoding an invalid sequence gives U+FFFD.
    const fromBody = readParams(schema, JSON.parse('{"query":"a\\ud800b"}'));
    expect(fromBody.query).toBe('a\ufffdb');
    expect(paramsKey(schema, fromBody)).toBe(paramsKey(schema, readParams(schema, { query: 'a\ufffdb' })));
  });

  it('fills defaults for absent and empty parameters and ignores undeclared ones', () => {
    const values = readParams(schema, { limit: '', x: 'anything', __proto__: 'no' } as Record<string, unknown>);
    expect(values).toMatchObject({
      limit: 5,
      metafields: false,
      filter_oos: true,
      format: false,
      shop_product_ids: null,
      smart_sort: 'no',
      filter_override: null,
      country_code: null,
    });
    expect('x' in values).toBe(false);
  });

  it('reads the yes/no flags as storefront code sends them: yes/no, true/false, 1/0, any case', () => {
    for (const [raw, value] of [
      ['yes', true],
      ['TRUE', true],
      ['1', true],
      [' No ', false],
      ['false', false],
      ['0', false],
    ] as const) {
      expect(readParams(schema, { metafields: raw }).metafields).toBe(value);
    }
    expect(problem({ metafields: 'maybe' })).toEqual({
      param: 'metafields',
      message: 'Parameter metafields must be yes or no, got "maybe".',
    });
  });

  it('serves a limit above the maximum at the maximum, and refuses one below 1 or not a number', () => {
    expect(readParams(schema, { limit: '1000' }).limit).toBe(100);
    expect(readParams(schema, { limit: ' 7 ' }).limit).toBe(7);
    // However many digits: past what a number holds exactly, still the maximum, not a 400 saying "1 or more".
    for (const big of ['999999999999999', '1000000000000000', '99999999999999999999', '007'])
      expect(readParams(schema, { limit: big }).limit).toBe(big === '007' ? 7 : 100);
    for (const bad of ['0', '000', '-3', '2.5', 'ten', '1e3']) expect(problem({ limit: bad }).param).toBe('limit');
  });

  it('names the bad element of an id list, and the list too long', () => {
    expect(readParams(schema, { shop_product_ids: ' 3, 1 ,2,' }).shop_product_ids).toEqual([3, 1, 2]);
    expect(problem({ shop_product_ids: '1,x2' })).toEqual({
      param: 'shop_product_ids',
      message: 'Parameter shop_product_ids must be a comma-separated list of positive integer ids; "x2" is not one.',
    });
    expect(problem({ shop_product_ids: '9007199254740993' }).param).toBe('shop_product_ids');
    expect(problem({ shop_product_ids: Array.from({ length: 251 }, (_, i) => i + 1).join(',') }).message).toBe(
      'Parameter shop_product_ids takes at most 250 ids, got 251.',
    );
  });

  it('refuses a repeated or structured parameter, and reads numbers and booleans of JSON bodies', () => {
    expect(problem({ limit: ['1', '2'] })).toEqual({
      param: 'limit',
      message: 'Parameter limit must be given once; a list goes in one value, comma-separated.',
    });
    expect(problem({ query: { $gt: '' } }).param).toBe('query');
    // name[]= (PHP, jQuery's $.param) of a declared parameter or its alias is refused; of an undeclared one, ignored.
    expect(problem({ 'limit[]': '50' })).toEqual({
      param: 'limit',
      message: 'Parameter limit must be given once, as limit=…; limit[]= is not read.',
    });
    expect(problem({ 'shopify_product_ids[]': '1' }).param).toBe('shop_product_ids');
    expect(readParams(schema, { 'widget_ids[]': '1', limit: '7' }).limit).toBe(7);
    expect(readParams(schema, { limit: 3, metafields: true, shop_customer_id: 42 })).toMatchObject({
      limit: 3,
      metafields: true,
      shop_customer_id: 42,
    });
  });

  it('takes aliases of fixed words and names the words when none fits', () => {
    expect(readParams(schema, { smart_sort: 'TRUE' }).smart_sort).toBe('yes');
    expect(problem({ smart_sort: 'best' }).message).toBe(
      'Parameter smart_sort must be yes, no or top_sellers, got "best".',
    );
  });

  it('clips what it echoes and never echoes control characters', () => {
    const { message } = problem({ country_code: `D\u0001${'E'.repeat(100)}` });
    expect(message).toContain('D?EEE');
    expect(message.length).toBeLessThan(140);
  });

  it('refuses a NUL character in any value, naming the parameter and echoing nothing of it', () => {
    expect(problem({ country_code: `D\u0000E` })).toMatchObject({
      param: 'country_code',
      message: 'Parameter country_code holds a NUL character (U+0000).',
    });
  });
});

describe('paramsKey', () => {
  const key = (raw: Record<string, unknown>) => paramsKey(schema, readParams(schema, raw));

  it(
    'is the same for the same request spelled differently: order, ' +
      'case of flags, defaults, unknown parameters, the key',
    () => {
      const a = key({ shop_product_ids: '1,2', metafields: 'yes', limit: '5' });
      expect(
        key({
          metafields: 'TRUE',
          shop_product_ids: ' 1, 2',
          key: 'rb_pub_x',
          x: String(Math.random()),
          bust_cache: 'yes',
          filter_oos: 'yes',
        }),
      ).toBe(a);
      // limit 100 is not limit 5
      expect(key({ shop_product_ids: '1,2', metafields: '1', limit: '500', smart_sort: 'no' })).not.toBe(a);
      expect(key({ shop_product_ids: '1,2', metafields: '1', limit: '500' })).toBe(
        key({ shop_product_ids: '1,2', metafields: 'yes', limit: '100' }),
      );
    },
  );

  it('differs whenever the answer can differ', () => {
    const a = key({ shop_product_ids: '1,2' });
    for (const other of [
      { shop_product_ids: '2,1' },
      { shop_product_ids: '1,2', format: 'pretty' },
      { shop_product_ids: '1,2', country_code: 'de' },
      { shop_product_ids: '1,2', filter_override: 'no' },
      { shop_product_ids: '1,2', query: 'a&limit=9' },
    ]) {
      expect(key(other)).not.toBe(a);
    }
    expect(key({ query: 'a&limit=9' })).not.toBe(key({ query: 'a', limit: '9' }));
  });
});
