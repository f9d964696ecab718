/**
 * Invalid ruleset documents: InvalidDocumentError with the exact JSON path of every problem
 * (docs/rules.md, "Statuses": 422 with the JSON path of each problem). Plus the `time` parameter.
 */
import { describe, expect, it } from 'vitest';
import { InvalidDocumentError } from '../../../src/domain/errors.js';
import { compileRulesetInput, type ReferenceCheck } from '../../../src/domain/rules/compile.js';
import { parseRequestTime } from '../../../src/domain/rules/local-time.js';
import { oneRuleBody, problemsOf, type ConditionBody } from './support.js';

const C0 = 'rules[0].logic[0].rules[0]';

function pathsOf(body: unknown, references?: ReferenceCheck): string[] {
  return problemsOf(body, references).map((p) => p.path);
}

function withOutputs(output: unknown[]): unknown {
  return { name: 'test', rules: [{ logic: [], output }] };
}

describe('condition problems name the exact JSON path', () => {
  const cases: [string, ConditionBody, string][] = [
    ['unknown condition type', { type: 'weather', operator: 'equals', value: 'sunny' }, `${C0}.type`],
    ['operator not allowed for the type', { type: 'url', operator: 'contains_any', value: 'sale' }, `${C0}.operator`],
    [
      'operator of another type (collection has no contains_all)',
      { type: 'collection', operator: 'contains_all', value: '1' },
      `${C0}.operator`,
    ],
    ['operator missing', { type: 'product_tag', value: 'sale' }, `${C0}.operator`],
    ['non-numeric cart value', { type: 'cart_subtotal', operator: 'greater_than', value: 'fifty' }, `${C0}.value`],
    ['cart value missing', { type: 'cart_subtotal', operator: 'greater_than' }, `${C0}.value`],
    [
      'cart money with five decimals',
      { type: 'cart_subtotal', operator: 'equal_to', value: '49.99999' },
      `${C0}.value`,
    ],
    ['decimal item count', { type: 'cart_item_count', operator: 'equal_to', value: '2.5' }, `${C0}.value`],
    ['negative line count', { type: 'cart_line_count', operator: 'less_than', value: '-1' }, `${C0}.value`],
    [
      'two numbers for a single-number operator',
      { type: 'cart_item_count', operator: 'greater_than', value: '1,2' },
      `${C0}.value`,
    ],
    ['between with one number', { type: 'cart_subtotal', operator: 'between', value: '10' }, `${C0}.value`],
    ['between with three numbers', { type: 'cart_item_count', operator: 'between', value: '1,2,3' }, `${C0}.value`],
    ['between with min > max', { type: 'cart_subtotal', operator: 'between', value: '50,10' }, `${C0}.value`],
    ['between with min > max (counts)', { type: 'cart_line_count', operator: 'between', value: '5,4' }, `${C0}.value`],
    ['bad regex', { type: 'product_tag', operator: 'matches_regex', value: '/(unclosed/i' }, `${C0}.value`],
    ['bad plain regex', { type: 'url', operator: 'matches_regex', value: '[a-' }, `${C0}.value`],
    ['unbalanced regex', { type: 'product_handle', operator: 'matches_regex', value: '/(shirt/i' }, `${C0}.value`],
    ['reversed date range', { type: 'date', operator: 'between', value: '2024-12-31,2024-01-01' }, `${C0}.value`],
    ['empty time-of-day range', { type: 'time_of_day', operator: 'between', value: '09:00,09:00' }, `${C0}.value`],
    [
      'a word that only starts like a day',
      { type: 'day_of_week', operator: 'contains_any', value: 'monkey' },
      `${C0}.value`,
    ],
    ['empty regex', { type: 'url', operator: 'matches_regex', value: '' }, `${C0}.value`],
    ['bad date', { type: 'date', operator: 'before', value: 'tomorrow' }, `${C0}.value`],
    ['month 13', { type: 'date', operator: 'after', value: '2024-13-01' }, `${C0}.value`],
    ['hour 25', { type: 'date', operator: 'after', value: '2024-01-01T25:00' }, `${C0}.value`],
    ['between with one date', { type: 'date', operator: 'between', value: '2024-01-01' }, `${C0}.value`],
    ['before with two dates', { type: 'date', operator: 'before', value: '2024-01-01,2024-02-01' }, `${C0}.value`],
    ['bad weekday', { type: 'day_of_week', operator: 'contains_any', value: 'mon,funday' }, `${C0}.value`],
    ['no weekday', { type: 'day_of_week', operator: 'contains_any', value: ' , ' }, `${C0}.value`],
    ['time range with one time', { type: 'time_of_day', operator: 'between', value: '10:00' }, `${C0}.value`],
    ['time of day 25:00', { type: 'time_of_day', operator: 'between', value: '25:00,10:00' }, `${C0}.value`],
    ['time of day 10:60', { type: 'time_of_day', operator: 'between', value: '09:00,10:60' }, `${C0}.value`],
    ['time of day 24:30', { type: 'time_of_day', operator: 'between', value: '09:00,24:30' }, `${C0}.value`],
    ['time of day as 10am', { type: 'time_of_day', operator: 'between', value: '10am,11:00' }, `${C0}.value`],
    ['three-letter country code', { type: 'country', operator: 'contains_any', value: 'US,USA' }, `${C0}.value`],
    ['country code with a digit', { type: 'country', operator: 'does_not_contain_any', value: 'u1' }, `${C0}.value`],
    ['no country code', { type: 'country', operator: 'contains_any', value: '' }, `${C0}.value`],
    ['empty variant id list', { type: 'variant', operator: 'contains_any', value: ' , ' }, `${C0}.value`],
    ['variant id list missing', { type: 'variant', operator: 'contains_any' }, `${C0}.value`],
    ['non-integer variant id', { type: 'variant', operator: 'contains_any', value: '12,abc' }, `${C0}.value`],
    ['zero collection id', { type: 'collection', operator: 'contains_any', value: '0' }, `${C0}.value`],
    ['empty collection id list', { type: 'collection', operator: 'contains_any', value: '' }, `${C0}.value`],
    ['product condition without products', { type: 'product', operator: 'contains_any' }, `${C0}.products`],
    [
      'product condition with an empty products list',
      { type: 'product', operator: 'contains_all', products: [] },
      `${C0}.products`,
    ],
    ['customer_purchased without products', { type: 'customer_purchased', operator: 'contains_any' }, `${C0}.products`],
    ['empty attribute list', { type: 'product_vendor', operator: 'equals', value: ' ,' }, `${C0}.value`],
    ['empty customer tag list', { type: 'customer_tag', operator: 'contains_any', value: '' }, `${C0}.value`],
    ['empty url text', { type: 'url', operator: 'contains', value: '' }, `${C0}.value`],
    ['customer with a set operator', { type: 'customer', operator: 'contains_any' }, `${C0}.operator`],
  ];

  it.each(cases)('%s → %s', (_label, condition, path) => {
    const problems = problemsOf(oneRuleBody([condition]));
    expect(problems.map((p) => p.path)).toEqual([path]);
    expect(problems[0]!.message.length).toBeGreaterThan(0);
  });

  it('says which operators are allowed', () => {
    const [problem] = problemsOf(oneRuleBody([{ type: 'collection', operator: 'contains_all', value: '1' }]));
    expect(problem!.message).toContain('"contains_all" is not allowed for collection');
    expect(problem!.message).toContain('contains_any, does_not_contain_any');
  });

  it('tells min > max apart from a malformed range', () => {
    const [reversed] = problemsOf(oneRuleBody([{ type: 'cart_subtotal', operator: 'between', value: '50,10' }]));
    expect(reversed!.message).toMatch(/min.*max/);
    const [single] = problemsOf(oneRuleBody([{ type: 'cart_subtotal', operator: 'between', value: '10' }]));
    expect(single!.message).toContain('min,max');
  });

  it('reports the path of a condition deep in a later rule and group', () => {
    const body = {
      name: 'test',
      rules: [
        { logic: [{ rules: [{ type: 'anything' }] }], output: [{ type: 'none' }] },
        {
          logic: [
            { rules: [{ type: 'anything' }] },
            { rules: [{ type: 'anything' }, { type: 'country', operator: 'contains_any', value: 'XYZ' }] },
          ],
          output: [],
        },
      ],
    };
    expect(pathsOf(body)).toEqual(['rules[1].logic[1].rules[1].value']);
  });

  it('accepts the boundaries of each value kind', () => {
    const valid: ConditionBody[] = [
      { type: 'time_of_day', operator: 'between', value: '00:00,24:00' },
      { type: 'cart_subtotal', operator: 'between', value: '10,10' },
      { type: 'date', operator: 'between', value: '2024-01-01, 2024-12-31T23:59:59+02:00' },
      { type: 'day_of_week', operator: 'contains_any', value: 'MON,Tue,sun' },
      { type: 'url', operator: 'matches_regex', value: '/a/gi' },
    ];
    expect(() => compileRulesetInput(oneRuleBody(valid))).not.toThrow();
  });

  it('says patterns run in linear time only of a pattern that needs what they cannot do', () => {
    const messageOf = (value: string) =>
      problemsOf(oneRuleBody([{ type: 'url', operator: 'matches_regex', value }]))[0]!.message;
    for (const pattern of ['(a)\\1', '(?=sale)', '(?<!x)y', 'a++', '(?<tag>a)\\k<tag>']) {
      expect(messageOf(pattern), pattern).toContain('patterns run in linear time, so backreferences, lookaround');
    }
    const unbalanced = messageOf('sale(');
    expect(unbalanced).toMatch(/^is not a valid regular expression here \(.*missing closing \).*\)$/);
    expect(unbalanced).not.toContain('linear time');
  });

  it('refuses a pattern that compiles past 500 instructions, naming its size and what to write instead', () => {
    const [problem, ...rest] = problemsOf(
      oneRuleBody([{ type: 'url', operator: 'matches_regex', value: '(\\pL|\\pN|\\pS|\\pP){1000}x' }]),
    );
    expect(rest).toEqual([]);
    expect(problem!.path).toBe(`${C0}.value`);
    expect(problem!.message).toMatch(
      /^compiles to (at least )?\d{4} instructions, more than 500: .*\{1000\}.*use \+ or \*/,
    );
    const fits = oneRuleBody([{ type: 'product_tag', operator: 'matches_regex', value: '(a|b){160}c' }]);
    expect(() => compileRulesetInput(fits)).not.toThrow();
  });

  it('bounds the patterns of a ruleset together, over all its rules and both condition kinds', () => {
    // (a|b){160}c compiles to 483 instructions: two fit in 1,000, three do not.
    const rule = (type: string) => ({
      logic: [{ rules: [{ type, operator: 'matches_regex', value: '(a|b){160}c' }] }],
      output: [{ type: 'none' }],
    });
    const rules = (n: number) => Array.from({ length: n }, (_, i) => rule(i % 2 ? 'url' : 'product_type'));
    expect(() => compileRulesetInput({ name: 'two', rules: rules(2) })).not.toThrow();
    const problems = problemsOf({ name: 'three', rules: rules(3) });
    expect(problems).toHaveLength(1);
    expect(problems[0]!.path).toBe('rules');
    expect(problems[0]!.message).toMatch(
      /^holds patterns that compile to 1449 instructions together; at most 1000 are allowed$/,
    );
  });

  it('refuses patterns too large from their counted repeats alone, each where it is, and together', () => {
    // 480 characters compiling to 90,002 instructions: thirty counted repeats of a thousand.
    const huge = '(\\pL|\\pN){1000}'.repeat(30);
    const rule = (value: string) => ({
      logic: [{ rules: [{ type: 'url', operator: 'matches_regex', value }] }],
      output: [{ type: 'none' }],
    });
    const each = problemsOf({ name: 'huge', rules: [rule('sale'), rule(huge)] });
    expect(each.map((p) => p.path)).toEqual(['rules[1].logic[0].rules[0].value']);
    // Read from the text: the size is a lower bound, said as one.
    // One atom a repeat: RE2 makes one class of the two one-character alternatives.
    expect(each[0]!.message).toMatch(/^compiles to at least 30000 instructions, more than 500/);
    // Many patterns of 161 atoms each, each within its own bound: refused together, before compiling any.
    const many = problemsOf({ name: 'many', rules: Array.from({ length: 100 }, () => rule('(a|b){160}c')) });
    expect(many).toHaveLength(1);
    expect(many[0]!.message).toBe(
      'holds patterns that compile to at least 16100 instructions together; at most 1000 are allowed',
    );
  });

  // Impossible calendar dates are refused, not rolled over into the next month.
  it.each(['2024-02-30', '2023-02-29', '2024-04-31T10:00:00Z'])('rejects the impossible date %s', (value) => {
    expect(pathsOf(oneRuleBody([{ type: 'date', operator: 'before', value }]))).toEqual([`${C0}.value`]);
  });
});

describe('output problems', () => {
  it.each([
    ['unknown output type', [{ type: 'bestsellers' }], 'rules[0].output[0].type'],
    ['product output without products', [{ type: 'none' }, { type: 'product' }], 'rules[0].output[1].products'],
    ['product output with an empty list', [{ type: 'product', products: [] }], 'rules[0].output[0].products'],
    ['collection output without collection_id', [{ type: 'collection' }], 'rules[0].output[0].collection_id'],
    ['tag output without tags', [{ type: 'tag', value: ' , ' }], 'rules[0].output[0].value'],
    [
      'endpoint that is a URL, not a path',
      [{ type: 'endpoint', endpoint: 'https://example.com/products/trending_products' }],
      'rules[0].output[0].endpoint',
    ],
    [
      'endpoint without the leading slash',
      [{ type: 'endpoint', endpoint: 'products/trending_products' }],
      'rules[0].output[0].endpoint',
    ],
    ['endpoint missing', [{ type: 'endpoint' }], 'rules[0].output[0].endpoint'],
    [
      'endpoint with spaces',
      [{ type: 'endpoint', endpoint: '/products/trending products' }],
      'rules[0].output[0].endpoint',
    ],
  ] as const)('%s → %s', (_label, output, path) => {
    expect(pathsOf(withOutputs([...output]))).toEqual([path]);
  });

  it('compiles an endpoint into a path and query, dropping an /api/v1 prefix and a trailing slash', () => {
    const compiled = compileRulesetInput(
      withOutputs([
        { type: 'endpoint', endpoint: '/api/v1/products/trending_products/?limit=3&days=7' },
        { type: 'endpoint', endpoint: ' /products/recently_viewed ' },
      ]),
    );
    expect(compiled.rules[0]!.outputs).toEqual([
      { type: 'endpoint', path: '/products/trending_products', query: { limit: '3', days: '7' } },
      { type: 'endpoint', path: '/products/recently_viewed', query: {} },
    ]);
  });

  it('compiles tag outputs to lower-cased tag lists', () => {
    const compiled = compileRulesetInput(withOutputs([{ type: 'tag', value: 'Sale, NEW ,' }]));
    expect(compiled.rules[0]!.outputs).toEqual([{ type: 'tag', tags: ['sale', 'new'] }]);
  });
});

describe('schema problems', () => {
  it('names unknown fields at every level', () => {
    const body = {
      name: 'x',
      bogus: 1,
      rules: [
        {
          logic: [{ rules: [{ type: 'anything', foo: 1 }], extra: [] }],
          output: [{ type: 'none', colour: 'red' }],
          exit: true,
        },
      ],
    };
    expect(pathsOf(body).sort()).toEqual(
      [
        'bogus',
        'rules[0].exit',
        'rules[0].logic[0].extra',
        'rules[0].logic[0].rules[0].foo',
        'rules[0].output[0].colour',
      ].sort(),
    );
  });

  it('names wrongly typed fields', () => {
    expect(
      pathsOf(oneRuleBody([{ type: 'cart_item_count', operator: 'equal_to', value: 3 as unknown as string }])),
    ).toEqual([`${C0}.value`]);
    expect(pathsOf({ name: 'x', rules: [{ output: [], exit_if_matched: 'yes' }] })).toEqual([
      'rules[0].exit_if_matched',
    ]);
    expect(
      pathsOf({
        name: 'x',
        rules: [
          {
            logic: [{ rules: [{ type: 'product', operator: 'contains_any', products: [{ product_id: 0 }] }] }],
            output: [],
          },
        ],
      }),
    ).toEqual([`${C0}.products[0].product_id`]);
  });

  it("requires name, rules and each rule's output", () => {
    expect(new Set(pathsOf({ rules: [] }))).toEqual(new Set(['name']));
    expect(new Set(pathsOf({ name: 'x' }))).toEqual(new Set(['rules']));
    expect(new Set(pathsOf({ name: 'x', rules: [{ logic: [] }] }))).toEqual(new Set(['rules[0].output']));
  });

  it('rejects a body that is not an object', () => {
    expect(pathsOf(null)).toEqual(['(document)']);
    expect(pathsOf([])).toEqual(['(document)']);
  });

  it('accepts read-only fields a client echoes back', () => {
    expect(() =>
      compileRulesetInput({ id: 3, version: 2, created_at: 'x', updated_at: 'y', name: 'x', rules: [] }),
    ).not.toThrow();
  });
});

describe('multiple problems are reported together', () => {
  it('lists every problem of every rule, condition and output, in document order', () => {
    const body = {
      name: 'test',
      rules: [
        {
          logic: [
            { rules: [{ type: 'weather' }, { type: 'url', operator: 'contains_all', value: 'x' }] },
            { rules: [{ type: 'cart_subtotal', operator: 'between', value: '9,1' }] },
          ],
          output: [{ type: 'product' }, { type: 'none' }],
        },
        { logic: [{ rules: [{ type: 'anything' }] }], output: [] },
        {
          logic: [{ rules: [{ type: 'country', operator: 'contains_any', value: 'usa' }] }],
          output: [{ type: 'collection' }, { type: 'mystery' }],
        },
      ],
    };
    let error: unknown;
    try {
      compileRulesetInput(body);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidDocumentError);
    const problems = (error as InvalidDocumentError).problems;
    expect(problems).toHaveLength(7);
    expect(problems.map((p) => p.path)).toEqual([
      'rules[0].logic[0].rules[0].type',
      'rules[0].logic[0].rules[1].operator',
      'rules[0].logic[1].rules[0].value',
      'rules[0].output[0].products',
      'rules[2].logic[0].rules[0].value',
      'rules[2].output[0].collection_id',
      'rules[2].output[1].type',
    ]);
    expect((error as InvalidDocumentError).message).toContain('rules[0].logic[0].rules[0].type');
    expect((error as InvalidDocumentError).message).toContain('and 6 more problems');
    expect((error as InvalidDocumentError).status).toBe(422);
  });

  it('reports both a bad operator and a bad value of the same condition', () => {
    expect(pathsOf(oneRuleBody([{ type: 'variant', operator: 'equals', value: 'x' }]))).toEqual([
      `${C0}.operator`,
      `${C0}.value`,
    ]);
  });
});

describe('references', () => {
  /** Products 1 (variants 11, 12) and 2 (variant 21); collection 5. */
  const catalog: ReferenceCheck = {
    hasProduct: (id) => id === 1 || id === 2,
    hasVariant: (productId, variantId) =>
      (productId === 1 && (variantId === 11 || variantId === 12)) || (productId === 2 && variantId === 21),
    hasCollection: (id) => id === 5,
    hasVariantId: (id) => [11, 12, 21].includes(id),
    endpointProblem: (path) => (path === '/products/trending_products' ? null : `${path} is not a list endpoint`),
    readsMarkets: true,
  };

  it('names a country condition on a shop without read_markets, where every country_code is a 403', () => {
    const body = oneRuleBody([{ type: 'country', operator: 'contains_any', value: 'de,at' }]);
    expect(() => compileRulesetInput(body, catalog)).not.toThrow();
    expect(pathsOf(body, { ...catalog, readsMarkets: false })).toEqual([`${C0}.type`]);
  });

  it('names an unknown product in a condition', () => {
    const body = oneRuleBody([{ type: 'product', operator: 'contains_any', products: [{ product_id: 404 }] }]);
    expect(pathsOf(body, catalog)).toEqual([`${C0}.products[0].product_id`]);
    // Without a reference check the same document compiles.
    expect(() => compileRulesetInput(body)).not.toThrow();
  });

  it('names a variant that is not of the product', () => {
    const body = oneRuleBody([
      {
        type: 'product',
        operator: 'contains_any',
        products: [
          { product_id: 1, variant_ids: [11] },
          { product_id: 2, variant_ids: [21, 11] },
        ],
      },
    ]);
    expect(pathsOf(body, catalog)).toEqual([`${C0}.products[1].variant_ids[1]`]);
  });

  it('names the unknown ids of a variant or collection condition, which could never match them', () => {
    const variants = oneRuleBody([{ type: 'variant', operator: 'contains_any', value: '11, 13,21,14' }]);
    expect(problemsOf(variants, catalog)).toEqual([{ path: `${C0}.value`, message: 'unknown variant 13, 14' }]);
    const collections = oneRuleBody([{ type: 'collection', operator: 'does_not_contain_any', value: '5,6' }]);
    expect(problemsOf(collections, catalog)).toEqual([{ path: `${C0}.value`, message: 'unknown collection 6' }]);
    expect(() =>
      compileRulesetInput(oneRuleBody([{ type: 'collection', operator: 'contains_any', value: '5' }]), catalog),
    ).not.toThrow();
  });

  it('names an unknown product in customer_purchased', () => {
    const body = oneRuleBody([
      {
        type: 'customer_purchased',
        operator: 'does_not_contain_any',
        products: [{ product_id: 1 }, { product_id: 3 }],
      },
    ]);
    expect(pathsOf(body, catalog)).toEqual([`${C0}.products[1].product_id`]);
  });

  it('names unknown products, variants and collections of outputs', () => {
    const body = withOutputs([
      { type: 'product', products: [{ product_id: 1, variant_ids: [12, 21] }, { product_id: 9 }] },
      { type: 'collection', collection_id: 6 },
      { type: 'collection', collection_id: 5 },
    ]);
    expect(pathsOf(body, catalog)).toEqual([
      'rules[0].output[0].products[0].variant_ids[1]',
      'rules[0].output[0].products[1].product_id',
      'rules[0].output[1].collection_id',
    ]);
  });

  it('names an endpoint output that is not a list the shop can run', () => {
    const body = withOutputs([
      { type: 'endpoint', endpoint: '/products/trending_products?limit=3' },
      { type: 'endpoint', endpoint: '/products/nothing' },
    ]);
    expect(problemsOf(body, catalog)).toEqual([
      { path: 'rules[0].output[1].endpoint', message: '/products/nothing is not a list endpoint' },
    ]);
  });

  it('refuses more than 20 endpoint outputs in a ruleset, counted over all its rules', () => {
    const rule = (n: number) => ({
      logic: [],
      output: Array.from({ length: n }, () => ({ type: 'endpoint', endpoint: '/products/trending_products' })),
    });
    expect(() => compileRulesetInput({ name: 'twenty', rules: [rule(10), rule(10)] }, catalog)).not.toThrow();
    expect(problemsOf({ name: 'twenty-one', rules: [rule(10), rule(11)] }, catalog)).toEqual([
      { path: 'rules', message: 'holds 21 endpoint outputs; at most 20 are allowed' },
    ]);
  });

  it('refuses more than 2,000 conditions in a ruleset being saved, counted over all its rules', () => {
    const condition = { type: 'cart_subtotal', operator: 'greater_than', value: '50' };
    const rule = (groups: number) => ({
      logic: Array.from({ length: groups }, () => ({ rules: Array.from({ length: 50 }, () => condition) })),
      output: [],
    });
    const rules = (groups: number[]) => ({ name: 'many', rules: groups.map(rule) });
    expect(() => compileRulesetInput(rules([20, 20]))).not.toThrow();
    expect(
      problemsOf({
        ...rules([20, 20]),
        rules: [...rules([20, 20]).rules, { ...rule(0), logic: [{ rules: [condition] }] }],
      }),
    ).toEqual([{ path: 'rules', message: 'holds 2001 conditions; at most 2000 are allowed' }]);
  });

  it('accepts a document whose references all exist', () => {
    const body = {
      name: 'ok',
      rules: [
        {
          logic: [
            {
              rules: [
                {
                  type: 'product',
                  operator: 'contains_all',
                  products: [{ product_id: 1, variant_ids: [11, 12] }, { product_id: 2 }],
                },
              ],
            },
          ],
          output: [
            { type: 'product', products: [{ product_id: 2, variant_ids: [21] }] },
            { type: 'collection', collection_id: 5 },
          ],
        },
      ],
    };
    expect(() => compileRulesetInput(body, catalog)).not.toThrow();
  });
});

describe('parseRequestTime', () => {
  const JUL_2003 = Date.UTC(2003, 6, 1, 8, 52, 37);

  it.each([
    ['unix seconds', '1057049557', JUL_2003],
    ['unix seconds with surrounding spaces', ' 1057049557 ', JUL_2003],
    ['unix milliseconds', '1057049557000', JUL_2003],
    ['unix milliseconds of 2024', '1718204400123', 1718204400123],
    ['twelve digits are milliseconds', '100000000000', 100_000_000_000],
    ['ten digits are seconds', '9999999999', 9_999_999_999_000],
    ['RFC 3339 UTC', '2003-07-01T08:52:37Z', JUL_2003],
    ['RFC 3339 lower-case z and fraction', '2003-07-01t08:52:37.250z', JUL_2003 + 250],
    ['RFC 3339 with offset', '2003-07-01T10:52:37+02:00', JUL_2003],
    ['RFC 3339 with negative offset', '2003-07-01T03:52:37-05:00', JUL_2003],
    ['RFC 3339 with a space separator', '2003-07-01 08:52:37Z', JUL_2003],
    ['RFC 2822', 'Tue, 1 Jul 2003 10:52:37 +0200', JUL_2003],
    ['RFC 2822 without the weekday', '01 Jul 2003 08:52:37 +0000', JUL_2003],
    ['RFC 2822 with the largest real offset', 'Tue, 1 Jul 2003 22:52:37 +1400', JUL_2003],
    ['RFC 2822 with GMT', 'Tue, 01 Jul 2003 08:52:37 GMT', JUL_2003],
    ['a date alone (UTC midnight)', '2003-07-01', Date.UTC(2003, 6, 1)],
  ])('%s: %s', (_label, text, expected) => {
    expect(parseRequestTime(text)).toBe(expected);
  });

  it.each([
    '',
    'garbage',
    'now',
    'yesterday',
    '12abc',
    '2024-13-01',
    '2003-07-01T08:52:37+2',
    'Tuesday',
    '1.5e9',
    '-1057049557',
    'Tue, 1 Jul 2003',
    // Offsets no zone has: Date.parse would move the time by days instead.
    'Wed, 03 Jan 2024 12:00:00 +9999',
    'Wed, 03 Jan 2024 12:00:00 +2400',
    'Wed, 03 Jan 2024 12:00:00 -0060',
    '2024-01-03T12:00:00+24:00',
  ])('refuses %j', (text) => expect(parseRequestTime(text)).toBeNull());

  // Beyond the largest Date (8.64e15 ms) a time would make every calendar rule throw: refused instead.
  it('refuses a timestamp beyond the range of dates', () => {
    expect(parseRequestTime('9999999999999999')).toBeNull();
    expect(parseRequestTime('8640000000000000')).toBe(8.64e15);
  });

  // Date.parse would roll these over into the next month; they are refused instead.
  it.each(['2024-02-31T10:00:00Z', '2023-02-29T00:00:00Z', '31 Apr 2024 10:00:00 +0000'])(
    'refuses the impossible date %j',
    (text) => {
      expect(parseRequestTime(text)).toBeNull();
    },
  );

  // A time without an offset is read as UTC, never in the host's zone.
  it.each(['2024-01-01T10:00:00', '2024-01-01 10:00', '1 Jul 2003 10:52:37'])(
    'reads %j the same whatever the host time zone',
    (text) => {
      const saved = process.env.TZ;
      try {
        process.env.TZ = 'America/New_York';
        const inNewYork = parseRequestTime(text);
        process.env.TZ = 'Asia/Tokyo';
        const inTokyo = parseRequestTime(text);
        expect(inNewYork).not.toBeNull();
        expect(inTokyo).toBe(inNewYork);
        expect(new Date(inNewYork!).toISOString()).toMatch(/T(10:00|10:52:37)/);
      } finally {
        if (saved === undefined) delete process.env.TZ;
        else process.env.TZ = saved;
      }
    },
  );
});
