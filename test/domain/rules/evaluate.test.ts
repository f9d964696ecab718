/** Evaluation semantics of docs/rules.md, by example and by property over generated rulesets. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMoney } from '../../../src/domain/catalog/money.js';
import { compileRulesetInput, type CompiledRuleset } from '../../../src/domain/rules/compile.js';
import { evaluateRuleset, TRACE_OBSERVED_CHARS, type Evaluation } from '../../../src/domain/rules/evaluate.js';
import type { InputProduct, Rule, RuleRequest, RuleWorld } from '../../../src/domain/rules/types.js';
import { inputProduct, request, world, type ConditionBody } from './support.js';

interface RuleBody {
  name?: string;
  enabled?: boolean;
  exit_if_matched?: boolean;
  logic?: { rules: ConditionBody[] }[];
  output: unknown[];
}

function compile(rules: RuleBody[]): CompiledRuleset {
  return compileRulesetInput({ name: 'test', rules });
}

/** Indexes (in the document) of the rules of a result list. */
function indexesOf(compiled: CompiledRuleset, rules: Rule[]): number[] {
  return rules.map((r) => {
    const index = compiled.document.rules.indexOf(r);
    expect(index).toBeGreaterThanOrEqual(0);
    return index;
  });
}

const US: ConditionBody = { type: 'country', operator: 'contains_any', value: 'US' };
const DE: ConditionBody = { type: 'country', operator: 'contains_any', value: 'DE' };
const MANY_ITEMS: ConditionBody = { type: 'cart_item_count', operator: 'greater_than', value: '2' };
const SALE_URL: ConditionBody = { type: 'url', operator: 'contains', value: 'sale' };
const NONE = { type: 'none' };

describe('logic: OR of AND groups', () => {
  const compiled = compile([{ logic: [{ rules: [US, MANY_ITEMS] }, { rules: [SALE_URL] }], output: [NONE] }]);
  const cases: [string, Partial<RuleRequest>, boolean][] = [
    ['first group: both conditions hold', { countryCode: 'US', cartItemCount: 3 }, true],
    ['first group: only one condition holds', { countryCode: 'US', cartItemCount: 2 }, false],
    ['first group: the other one holds', { countryCode: 'DE', cartItemCount: 3 }, false],
    ['second group alone', { url: '/collections/sale' }, true],
    ['both groups', { countryCode: 'US', cartItemCount: 9, url: '/sale' }, true],
    ['first group half, second not', { countryCode: 'US', url: '/new' }, false],
    ['nothing given', {}, false],
  ];
  it.each(cases)('%s', (_label, overrides, expected) => {
    const result = evaluateRuleset(compiled, request(overrides), world());
    expect(result.matched.length).toBe(expected ? 1 : 0);
    expect(result.unmatched.length).toBe(expected ? 0 : 1);
  });
});

describe('empty logic = anything', () => {
  it.each([
    ['logic: []', { logic: [], output: [NONE] }],
    ['logic omitted', { output: [NONE] }],
  ] as [string, RuleBody][])('%s always matches, even an empty request', (_label, rule) => {
    const compiled = compile([rule]);
    const result = evaluateRuleset(compiled, request(), world(), { trace: true });
    expect(result.matched).toEqual([compiled.document.rules[0]]);
    expect(result.trace![0]!.status).toBe('matched');
  });
});

describe('outputs', () => {
  it('appends the outputs of matched rules in rule order, then output order', () => {
    const compiled = compile([
      {
        logic: [{ rules: [US] }],
        output: [
          { type: 'product', products: [{ product_id: 5 }] },
          { type: 'tag', value: 'Sale' },
        ],
      },
      { logic: [{ rules: [DE] }], output: [{ type: 'collection', collection_id: 9 }] },
      {
        logic: [],
        output: [{ type: 'input_products' }, { type: 'endpoint', endpoint: '/products/trending_products?limit=3' }],
      },
      { logic: [{ rules: [US] }], output: [] },
      { logic: [{ rules: [US] }], output: [{ type: 'product', products: [{ product_id: 5, variant_ids: [50] }] }] },
    ]);
    const result = evaluateRuleset(compiled, request({ countryCode: 'US' }), world());
    expect(result.outputs.map((o) => [o.ruleIndex, o.output])).toEqual([
      [0, { type: 'product', refs: [{ product_id: 5, variant_ids: [] }] }],
      [0, { type: 'tag', tags: ['sale'] }],
      [2, { type: 'input_products' }],
      [2, { type: 'endpoint', path: '/products/trending_products', query: { limit: '3' } }],
      [4, { type: 'product', refs: [{ product_id: 5, variant_ids: [50] }] }],
    ]);
    expect(indexesOf(compiled, result.matched)).toEqual([0, 2, 3, 4]);
    expect(indexesOf(compiled, result.unmatched)).toEqual([1]);
  });

  it('gives no outputs when nothing matches', () => {
    const compiled = compile([{ logic: [{ rules: [DE] }], output: [{ type: 'input_products' }] }]);
    expect(evaluateRuleset(compiled, request({ countryCode: 'US' }), world()).outputs).toEqual([]);
  });
});

describe('exit_if_matched', () => {
  const compiled = compile([
    {
      name: 'r0 unmatched exit',
      logic: [{ rules: [DE] }],
      exit_if_matched: true,
      output: [{ type: 'tag', value: 'a' }],
    },
    { name: 'r1 matched', logic: [], output: [{ type: 'tag', value: 'b' }] },
    { name: 'r2 matched exit', logic: [{ rules: [US] }], exit_if_matched: true, output: [{ type: 'tag', value: 'c' }] },
    { name: 'r3 would match', logic: [], output: [{ type: 'tag', value: 'd' }] },
    { name: 'r4 disabled', enabled: false, logic: [], output: [{ type: 'tag', value: 'e' }] },
    { name: 'r5 would not match', logic: [{ rules: [DE] }], output: [{ type: 'tag', value: 'f' }] },
  ]);

  it('stops after a matched rule with exit_if_matched: every later enabled rule is unevaluated', () => {
    const result = evaluateRuleset(compiled, request({ countryCode: 'US' }), world(), { trace: true });
    expect(indexesOf(compiled, result.matched)).toEqual([1, 2]);
    expect(indexesOf(compiled, result.unmatched)).toEqual([0]);
    expect(indexesOf(compiled, result.unevaluated)).toEqual([3, 5]);
    expect(result.outputs.map((o) => o.output)).toEqual([
      { type: 'tag', tags: ['b'] },
      { type: 'tag', tags: ['c'] },
    ]);
    expect(result.trace!.map((t) => [t.name, t.status])).toEqual([
      ['r0 unmatched exit', 'unmatched'],
      ['r1 matched', 'matched'],
      ['r2 matched exit', 'matched'],
      ['r3 would match', 'unevaluated'],
      ['r4 disabled', 'disabled'],
      ['r5 would not match', 'unevaluated'],
    ]);
    expect(result.trace![3]!.groups).toEqual([]);
  });

  it('does not stop when the exit rule does not match', () => {
    const result = evaluateRuleset(compiled, request({ countryCode: 'FR' }), world());
    expect(indexesOf(compiled, result.matched)).toEqual([1, 3]);
    expect(indexesOf(compiled, result.unmatched)).toEqual([0, 2, 5]);
    expect(result.unevaluated).toEqual([]);
  });

  it('does not stop on a disabled rule with exit_if_matched', () => {
    const c = compile([
      { enabled: false, exit_if_matched: true, logic: [], output: [NONE] },
      { logic: [], output: [NONE] },
    ]);
    const result = evaluateRuleset(c, request(), world());
    expect(indexesOf(c, result.matched)).toEqual([1]);
    expect(result.unevaluated).toEqual([]);
  });
});

describe('disabled rules', () => {
  it('are listed nowhere but appear in the trace as disabled', () => {
    const compiled = compile([
      { name: 'off, would match', enabled: false, logic: [], output: [{ type: 'input_products' }] },
      { name: 'off, would not match', enabled: false, logic: [{ rules: [DE] }], output: [NONE] },
      { name: 'on', enabled: true, logic: [{ rules: [US] }], output: [NONE] },
    ]);
    const result = evaluateRuleset(compiled, request({ countryCode: 'US' }), world(), { trace: true });
    expect(indexesOf(compiled, result.matched)).toEqual([2]);
    expect(result.unmatched).toEqual([]);
    expect(result.unevaluated).toEqual([]);
    expect(result.outputs.map((o) => o.ruleIndex)).toEqual([2]);
    expect(result.trace).toEqual([
      { index: 0, name: 'off, would match', status: 'disabled', exit_if_matched: false, groups: [] },
      { index: 1, name: 'off, would not match', status: 'disabled', exit_if_matched: false, groups: [] },
      expect.objectContaining({ index: 2, name: 'on', status: 'matched' }),
    ]);
  });
});

describe('trace', () => {
  const compiled = compile([
    {
      name: 'traced',
      exit_if_matched: true,
      logic: [
        {
          rules: [
            US,
            { type: 'cart_subtotal', operator: 'greater_than', value: '50' },
            // would be true, but an earlier condition of the group failed: not evaluated
            { type: 'url', operator: 'contains', value: '/a' },
          ],
        },
        {
          rules: [
            { type: 'customer', operator: 'is_guest' },
            { type: 'product', operator: 'contains_any', products: [{ product_id: 7 }] },
          ],
        },
      ],
      output: [NONE],
    },
    { logic: [], output: [NONE] },
  ]);
  const req = request({ countryCode: 'US', cartSubtotal: parseMoney('49.99')!, url: '/a/b' });

  it('shows every condition with its value, observed input and result; null after a failed one', () => {
    const result = evaluateRuleset(compiled, req, world(), { trace: true });
    expect(result.trace![0]).toEqual({
      index: 0,
      name: 'traced',
      status: 'unmatched',
      exit_if_matched: true,
      groups: [
        {
          result: false,
          conditions: [
            { type: 'country', operator: 'contains_any', value: 'US', observed: 'US', result: true },
            { type: 'cart_subtotal', operator: 'greater_than', value: '50', observed: 49.99, result: false },
            { type: 'url', operator: 'contains', value: '/a', observed: null, result: null },
          ],
        },
        {
          result: false,
          conditions: [
            { type: 'customer', operator: 'is_guest', value: null, observed: null, result: true },
            {
              type: 'product',
              operator: 'contains_any',
              value: [{ product_id: 7, variant_ids: [] }],
              observed: null,
              result: false,
            },
          ],
        },
      ],
    });
    expect(result.trace![1]).toEqual({ index: 1, name: null, status: 'matched', exit_if_matched: false, groups: [] });
  });

  it('shows what each kind of input looked like', () => {
    const p = inputProduct(7, { tags: ['Sale'], productType: 'Shirts' });
    const c = compile([
      {
        logic: [
          {
            rules: [
              { type: 'product_tag', operator: 'contains_any', value: 'sale' },
              { type: 'product_type', operator: 'equals', value: 'shirts' },
              { type: 'day_of_week', operator: 'contains_any', value: 'wed' },
              { type: 'time_of_day', operator: 'between', value: '09:00,17:00' },
              { type: 'date', operator: 'after', value: '2024-01-01' },
              { type: 'variant', operator: 'contains_any', value: '70' },
            ],
          },
        ],
        output: [NONE],
      },
    ]);
    const result = evaluateRuleset(c, request({ productIds: [7], variantIds: [70] }), world({ inputProducts: [p] }), {
      trace: true,
    });
    expect(result.trace![0]!.groups[0]!.conditions.map((x) => [x.observed, x.result])).toEqual([
      [['Sale'], true],
      [['Shirts'], true],
      ['wed', true],
      ['15:00', true],
      ['2024-06-12T15:00:00.000Z', true],
      [[70], true],
    ]);
  });

  it('traces every group, also those after the group that matched', () => {
    const c = compile([{ logic: [{ rules: [US] }, { rules: [DE] }, { rules: [US, MANY_ITEMS] }], output: [NONE] }]);
    const result = evaluateRuleset(c, request({ countryCode: 'US', cartItemCount: 1 }), world(), { trace: true });
    expect(result.trace![0]!.status).toBe('matched');
    expect(result.trace![0]!.groups.map((g) => [g.result, g.conditions.map((x) => x.result)])).toEqual([
      [true, [true]],
      [false, [false]],
      [false, [true, false]],
    ]);
  });

  it('is null unless asked for, and does not change the outcome', () => {
    const without = evaluateRuleset(compiled, req, world());
    const withTrace = evaluateRuleset(compiled, req, world(), { trace: true });
    expect(without.trace).toBeNull();
    expect({ ...withTrace, trace: null }).toEqual(without);
  });
});

describe('regular expressions', () => {
  it('give the same answer on every evaluation, even written with the g or y flag', () => {
    const shirt = inputProduct(1, { tags: ['sale', 'sale-2024'] });
    const compiled = compile([
      { logic: [{ rules: [{ type: 'url', operator: 'matches_regex', value: '/sale/g' }] }], output: [NONE] },
      { logic: [{ rules: [{ type: 'url', operator: 'matches_regex', value: '/^\\/c/y' }] }], output: [NONE] },
      {
        logic: [{ rules: [{ type: 'product_tag', operator: 'matches_regex', value: '/^sale/g' }] }],
        output: [{ type: 'matching_input_tags' }],
      },
    ]);
    const req = request({ url: '/collections/sale', productIds: [1] });
    const w = world({ inputProducts: [shirt] });
    for (let i = 0; i < 3; i++) {
      const result = evaluateRuleset(compiled, req, w);
      expect(indexesOf(compiled, result.matched)).toEqual([0, 1, 2]);
      expect(result.outputs.find((o) => o.ruleIndex === 2)!.matchedTags).toEqual(['sale', 'sale-2024']);
    }
  });
});

describe('matchedTags', () => {
  const shirt = inputProduct(1, { tags: ['Sale', 'Summer'] });
  const hat = inputProduct(2, { tags: ['New'] });
  const req = request({ productIds: [1, 2] });
  const w = world({ inputProducts: [shirt, hat] });

  it('carries the tags that product_tag conditions matched, as spelled on the products, to the outputs', () => {
    const compiled = compile([
      {
        logic: [
          {
            rules: [
              { type: 'product_tag', operator: 'contains_any', value: 'SALE, winter' },
              { type: 'product_tag', operator: 'matches_regex', value: '/^sum/i' },
            ],
          },
        ],
        output: [{ type: 'matching_input_tags' }, NONE],
      },
    ]);
    const result = evaluateRuleset(compiled, req, w);
    expect(result.outputs).toHaveLength(2);
    for (const output of result.outputs) expect([...output.matchedTags].sort()).toEqual(['Sale', 'Summer']);
  });

  it('takes the tags of the matching group only, not of a group that failed', () => {
    const compiled = compile([
      {
        logic: [
          { rules: [{ type: 'product_tag', operator: 'contains_any', value: 'new' }, DE] },
          { rules: [{ type: 'product_tag', operator: 'contains_all', value: 'sale' }] },
        ],
        output: [{ type: 'matching_input_tags' }],
      },
    ]);
    for (const trace of [false, true]) {
      const result = evaluateRuleset(compiled, req, w, { trace });
      expect(result.outputs.map((o) => o.matchedTags)).toEqual([['Sale']]);
    }
  });

  it("takes the first matching group's tags when several groups hold", () => {
    const compiled = compile([
      {
        logic: [
          { rules: [{ type: 'product_tag', operator: 'contains_any', value: 'summer' }] },
          { rules: [{ type: 'product_tag', operator: 'contains_any', value: 'new' }] },
        ],
        output: [{ type: 'matching_input_tags' }],
      },
    ]);
    for (const trace of [false, true]) {
      expect(evaluateRuleset(compiled, req, w, { trace }).outputs.map((o) => o.matchedTags)).toEqual([['Summer']]);
    }
  });

  it('is empty for does_not_contain_any and for rules without product_tag conditions', () => {
    const compiled = compile([
      {
        logic: [{ rules: [{ type: 'product_tag', operator: 'does_not_contain_any', value: 'winter' }] }],
        output: [{ type: 'matching_input_tags' }],
      },
      { logic: [], output: [{ type: 'matching_input_tags' }] },
    ]);
    const result = evaluateRuleset(compiled, req, w);
    expect(result.outputs.map((o) => [o.ruleIndex, o.matchedTags])).toEqual([
      [0, []],
      [1, []],
    ]);
  });

  it('is not shared between rules', () => {
    const compiled = compile([
      {
        logic: [{ rules: [{ type: 'product_tag', operator: 'contains_any', value: 'new' }] }],
        output: [{ type: 'matching_input_tags' }],
      },
      {
        logic: [{ rules: [{ type: 'product_tag', operator: 'equals', value: 'sale,summer,new' }] }],
        output: [{ type: 'matching_input_tags' }],
      },
    ]);
    const result = evaluateRuleset(compiled, req, w);
    expect(result.outputs.map((o) => [...o.matchedTags].sort())).toEqual([['New'], ['New', 'Sale', 'Summer']]);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties over generated rulesets and requests.

const TAGS = ['sale', 'new', 'summer'];
const COUNTRIES = ['US', 'CA', 'DE'];
const URLS = ['/collections/sale', '/products/hat', '/'];
const PRODUCTS: InputProduct[] = [
  inputProduct(1, { tags: ['Sale'] }),
  inputProduct(2, { tags: ['new', 'Summer'] }),
  inputProduct(3, { tags: [] }),
];

const nonEmptySubset = (values: string[]) => fc.subarray(values, { minLength: 1 });
const caseOf = (text: string) => fc.constantFrom(text, text.toLowerCase(), text.toUpperCase());

const conditionArb: fc.Arbitrary<ConditionBody> = fc.oneof(
  fc.constant<ConditionBody>({ type: 'anything' }),
  fc
    .record({
      operator: fc.constantFrom(
        'greater_than',
        'greater_than_or_equal_to',
        'less_than',
        'less_than_or_equal_to',
        'equal_to',
        'between',
      ),
      a: fc.integer({ min: 0, max: 5 }),
      b: fc.integer({ min: 0, max: 5 }),
    })
    .map(
      ({ operator, a, b }): ConditionBody => ({
        type: 'cart_item_count',
        operator,
        value: operator === 'between' ? `${Math.min(a, b)},${Math.max(a, b)}` : String(a),
      }),
    ),
  fc
    .tuple(
      fc.constantFrom('contains_any', 'does_not_contain_any'),
      nonEmptySubset(COUNTRIES).chain((cs) => fc.tuple(...cs.map(caseOf))),
    )
    .map(([operator, codes]): ConditionBody => ({ type: 'country', operator, value: codes.join(',') })),
  fc.constantFrom('is_logged_in', 'is_guest').map((operator): ConditionBody => ({ type: 'customer', operator })),
  fc
    .tuple(fc.constantFrom('contains', 'does_not_contain', 'equals'), fc.constantFrom('sale', '/products/', '/', 'hat'))
    .map(([operator, value]): ConditionBody => ({ type: 'url', operator, value })),
  fc
    .constantFrom('/SALE/gi', 'products', '/^\\//y', '/t$/')
    .map((value): ConditionBody => ({ type: 'url', operator: 'matches_regex', value })),
  fc
    .tuple(fc.constantFrom('contains_any', 'contains_all', 'does_not_contain_any', 'equals'), nonEmptySubset(TAGS))
    .map(([operator, tags]): ConditionBody => ({ type: 'product_tag', operator, value: tags.join(',') })),
);

const outputArb = fc.oneof(
  fc.constant({ type: 'none' }),
  fc.constant({ type: 'input_products' }),
  fc.constant({ type: 'matching_input_tags' }),
  fc.constantFrom(...TAGS).map((value) => ({ type: 'tag', value })),
  fc.integer({ min: 1, max: 9 }).map((id) => ({ type: 'product', products: [{ product_id: id }] })),
);

const ruleArb: fc.Arbitrary<RuleBody> = fc.record(
  {
    name: fc.string({ maxLength: 5 }),
    enabled: fc.boolean(),
    exit_if_matched: fc.boolean(),
    logic: fc.array(fc.record({ rules: fc.array(conditionArb, { minLength: 1, maxLength: 3 }) }), { maxLength: 3 }),
    output: fc.array(outputArb, { maxLength: 2 }),
  },
  { requiredKeys: ['output'] },
);

const rulesetArb = fc.array(ruleArb, { maxLength: 8 }).map((rules) => compile(rules));

interface Scenario {
  request: RuleRequest;
  world: RuleWorld;
}

const scenarioArb: fc.Arbitrary<Scenario> = fc
  .record({
    productIds: fc.option(fc.subarray([1, 2, 3]), { nil: null }),
    cartItemCount: fc.option(fc.integer({ min: 0, max: 6 }), { nil: null }),
    countryCode: fc.option(fc.constantFrom(...COUNTRIES, 'FR'), { nil: null }),
    customerId: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
    url: fc.option(fc.constantFrom(...URLS), { nil: null }),
  })
  .map((r) => ({
    request: request(r),
    world: world({ inputProducts: PRODUCTS.filter((p) => r.productIds?.includes(p.id)) }),
  }));

/** An independent reading of each generated condition (docs/rules.md). */
function expectedCondition(c: ConditionBody, req: RuleRequest, w: RuleWorld): boolean {
  const value = c.value ?? '';
  const list = value.split(',').map((v) => v.trim().toLowerCase());
  switch (c.type) {
    case 'anything':
      return true;
    case 'customer':
      return c.operator === 'is_guest' ? req.customerId === null : req.customerId !== null;
    case 'cart_item_count': {
      const n = req.cartItemCount;
      if (n === null) return false;
      const [a, b] = value.split(',').map(Number) as [number, number?];
      return {
        greater_than: n > a,
        greater_than_or_equal_to: n >= a,
        less_than: n < a,
        less_than_or_equal_to: n <= a,
        equal_to: n === a,
        between: n >= a && n <= (b ?? a),
      }[c.operator!]!;
    }
    case 'country': {
      if (req.countryCode === null) return false;
      const inList = list.includes(req.countryCode.toLowerCase());
      return c.operator === 'contains_any' ? inList : !inList;
    }
    case 'url': {
      if (req.url === null) return false;
      if (c.operator === 'contains') return req.url.includes(value);
      if (c.operator === 'does_not_contain') return !req.url.includes(value);
      if (c.operator === 'matches_regex') {
        const literal = /^\/(.*)\/([a-z]*)$/.exec(value);
        const re = literal ? new RegExp(literal[1]!, literal[2]!.replace(/[gy]/g, '')) : new RegExp(value);
        return re.test(req.url);
      }
      return req.url === value;
    }
    case 'product_tag': {
      if (req.productIds === null && req.variantIds === null) return false;
      const have = new Set(w.inputProducts.flatMap((p) => p.tags.map((t) => t.toLowerCase())));
      if (c.operator === 'contains_any') return list.some((t) => have.has(t));
      if (c.operator === 'contains_all') return list.every((t) => have.has(t));
      if (c.operator === 'does_not_contain_any') return !list.some((t) => have.has(t));
      return have.size === new Set(list).size && list.every((t) => have.has(t));
    }
    default:
      throw new Error(`no oracle for ${c.type}`);
  }
}

/** The expected status of each rule, by index: 'disabled' for rules listed nowhere. */
function expectedStatuses(compiled: CompiledRuleset, s: Scenario): string[] {
  let stopped = false;
  return compiled.document.rules.map((rule) => {
    if (!rule.enabled) return 'disabled';
    if (stopped) return 'unevaluated';
    const matched =
      rule.logic.length === 0 ||
      rule.logic.some((g) => g.rules.every((c) => expectedCondition(c as ConditionBody, s.request, s.world)));
    if (matched && rule.exit_if_matched) stopped = true;
    return matched ? 'matched' : 'unmatched';
  });
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

const RUNS = { numRuns: 200 };

describe('properties over generated rulesets', () => {
  it('never mutates the ruleset document or the request', () => {
    fc.assert(
      fc.property(rulesetArb, scenarioArb, fc.boolean(), (compiled, s, trace) => {
        const documentBefore = structuredClone(compiled.document);
        const requestBefore = structuredClone(s.request);
        evaluateRuleset(compiled, s.request, s.world, { trace });
        expect(compiled.document).toEqual(documentBefore);
        expect(s.request).toEqual(requestBefore);
      }),
      RUNS,
    );
  });

  it('works on a frozen document and request (no writes at all)', () => {
    fc.assert(
      fc.property(rulesetArb, scenarioArb, (compiled, s) => {
        deepFreeze(compiled.document);
        deepFreeze(s.request);
        expect(() => evaluateRuleset(compiled, s.request, s.world, { trace: true })).not.toThrow();
      }),
      RUNS,
    );
  });

  it('puts every enabled rule in exactly one of matched / unmatched / unevaluated, disabled rules in none', () => {
    fc.assert(
      fc.property(rulesetArb, scenarioArb, (compiled, s) => {
        const result = evaluateRuleset(compiled, s.request, s.world);
        const listed = [...result.matched, ...result.unmatched, ...result.unevaluated];
        const enabled = compiled.document.rules.filter((r) => r.enabled !== false);
        expect(listed).toHaveLength(enabled.length);
        expect(new Set(listed).size).toBe(listed.length);
        for (const rule of enabled) expect(listed).toContain(rule);
        for (const rule of compiled.document.rules.filter((r) => r.enabled === false))
          expect(listed).not.toContain(rule);
        // Each list keeps document order.
        for (const list of [result.matched, result.unmatched, result.unevaluated]) {
          const indexes = indexesOf(compiled, list);
          expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
        }
      }),
      RUNS,
    );
  });

  it('leaves rules unevaluated only after a matched rule with exit_if_matched', () => {
    fc.assert(
      fc.property(rulesetArb, scenarioArb, (compiled, s) => {
        const result = evaluateRuleset(compiled, s.request, s.world);
        const exits = indexesOf(
          compiled,
          result.matched.filter((r) => r.exit_if_matched),
        );
        const unevaluated = indexesOf(compiled, result.unevaluated);
        if (unevaluated.length > 0) {
          expect(exits.length).toBeGreaterThan(0);
          for (const i of unevaluated) expect(i).toBeGreaterThan(exits[0]!);
        }
        // At most one exit rule can match, and then everything enabled after it is unevaluated.
        expect(exits.length).toBeLessThanOrEqual(1);
        if (exits.length === 1) {
          const after = compiled.document.rules
            .map((r, i) => [r, i] as const)
            .filter(([r, i]) => i > exits[0]! && r.enabled !== false)
            .map(([, i]) => i);
          expect(unevaluated).toEqual(after);
        }
      }),
      RUNS,
    );
  });

  it('gives deep-equal results when evaluated twice (no hidden state)', () => {
    fc.assert(
      fc.property(rulesetArb, scenarioArb, scenarioArb, fc.boolean(), (compiled, s, other, trace) => {
        const first = evaluateRuleset(compiled, s.request, s.world, { trace });
        // Another evaluation in between must not leak into the next one.
        evaluateRuleset(compiled, other.request, other.world, { trace: !trace });
        const second = evaluateRuleset(compiled, s.request, s.world, { trace });
        expect(second).toEqual(first);
      }),
      RUNS,
    );
  });

  it('agrees with an independent reading of the semantics (statuses, outputs, trace)', () => {
    fc.assert(
      fc.property(rulesetArb, scenarioArb, (compiled, s) => {
        const result: Evaluation = evaluateRuleset(compiled, s.request, s.world, { trace: true });
        const statuses = expectedStatuses(compiled, s);
        const byStatus = (status: string) => statuses.flatMap((st, i) => (st === status ? [i] : []));
        expect(indexesOf(compiled, result.matched)).toEqual(byStatus('matched'));
        expect(indexesOf(compiled, result.unmatched)).toEqual(byStatus('unmatched'));
        expect(indexesOf(compiled, result.unevaluated)).toEqual(byStatus('unevaluated'));
        expect(result.trace!.map((t) => t.status)).toEqual(statuses);
        const expectedOutputs = byStatus('matched').flatMap((i) =>
          compiled.rules[i]!.outputs.map((output) => ({ ruleIndex: i, output })),
        );
        expect(result.outputs.map(({ ruleIndex, output }) => ({ ruleIndex, output }))).toEqual(expectedOutputs);
        // Without the trace, the same outcome.
        const plain = evaluateRuleset(compiled, s.request, s.world);
        expect({ ...result, trace: null }).toEqual(plain);
      }),
      RUNS,
    );
  });
});

describe('pattern work is bounded per evaluation (docs/rules.md, "Patterns")', () => {
  // (a|b){160}c compiles to 483 instructions; two such patterns are as much as a ruleset may hold.
  const heavy = (type: string): ConditionBody => ({ type, operator: 'matches_regex', value: '(a|b){160}c' });
  const tagged = (id: number, n: number) =>
    inputProduct(id, { tags: Array.from({ length: n }, (_, i) => `${'ab'.repeat(80)}c-${id}-${i}`) });

  it('matches a URL of 2,048 characters against the most a ruleset may hold, with nothing left out', () => {
    const compiled = compile([
      { logic: [{ rules: [heavy('url')] }], output: [NONE] },
      { logic: [{ rules: [heavy('url')] }], output: [NONE] },
    ]);
    const url = `/${'ab'.repeat(1023)}c`;
    const result = evaluateRuleset(compiled, request({ url }), world());
    expect(result.matched).toHaveLength(2);
    expect(result.patternWorkExhausted).toBe(false);
  });

  it('stops matching attribute values past the work, says so, and keeps what it matched', () => {
    const compiled = compile([
      { logic: [{ rules: [heavy('product_tag')] }], output: [{ type: 'matching_input_tags' }] },
    ]);
    // Each 167-character tag costs 483 × (167 + 32) ≈ 96,000: about 26 fit in 2,500,000.
    const few = evaluateRuleset(compiled, request({ productIds: [1] }), world({ inputProducts: [tagged(1, 20)] }));
    expect(few.patternWorkExhausted).toBe(false);
    expect(few.outputs[0]!.matchedTags).toHaveLength(20);
    const products = Array.from({ length: 50 }, (_, i) => tagged(i + 1, 20));
    const many = evaluateRuleset(compiled, request({ productIds: [1] }), world({ inputProducts: products }));
    expect(many.patternWorkExhausted).toBe(true);
    expect(many.matched).toHaveLength(1);
    const matched = many.outputs[0]!.matchedTags;
    expect(matched.length).toBeGreaterThan(20);
    expect(matched.length).toBeLessThan(30);
    expect(matched).toEqual(products.flatMap((p) => p.tags).slice(0, matched.length));
  });
});

describe('many attribute conditions over many tags', () => {
  const tagCondition = (value: string) => ({ type: 'product_tag', operator: 'contains_any', value }) as const;
  const manyTags = (id: number, count: number) =>
    inputProduct(id, { tags: Array.from({ length: count }, (_, i) => `p${id}-tag-${i}`) });

  it("reads the input products' tags once a request, however many conditions compare them", () => {
    let reads = 0;
    const counted = [1, 2, 3].map((id) => {
      const product = manyTags(id, 5);
      return Object.defineProperty({ ...product }, 'tags', {
        get: () => {
          reads++;
          return product.tags;
        },
      });
    });
    const conditions = Array.from({ length: 12 }, (_, i) => tagCondition(`absent-${i}`));
    const compiled = compile(conditions.map((c) => ({ logic: [{ rules: [c] }], output: [NONE] })));
    const result = evaluateRuleset(compiled, request({ productIds: [1, 2, 3] }), world({ inputProducts: counted }));
    expect(result.matched).toEqual([]);
    expect(reads).toBe(3);
  });

  it('shows a trace the first 100 values observed, and how many there were', () => {
    const compiled = compile([{ logic: [{ rules: [tagCondition('p2-tag-149')] }], output: [NONE] }]);
    const inputs = [manyTags(1, 150), manyTags(2, 150)];
    const result = evaluateRuleset(compiled, request({ productIds: [1, 2] }), world({ inputProducts: inputs }), {
      trace: true,
    });
    const [condition] = result.trace![0]!.groups[0]!.conditions;
    expect(condition!.result).toBe(true);
    expect(condition!.observed).toEqual(inputs[0]!.tags.slice(0, 100));
    expect(condition!.observed_count).toBe(300);
  });

  it('shows a trace at most TRACE_OBSERVED_CHARS of observed text a condition, the first value whole', () => {
    const long = (id: number) =>
      inputProduct(id, { tags: Array.from({ length: 150 }, (_, i) => `p${id}-${i}-`.padEnd(255, 'x')) });
    const compiled = compile([{ logic: [{ rules: [tagCondition('absent')] }], output: [NONE] }]);
    const inputs = [long(1), long(2)];
    const result = evaluateRuleset(compiled, request({ productIds: [1, 2] }), world({ inputProducts: inputs }), {
      trace: true,
    });
    const [condition] = result.trace![0]!.groups[0]!.conditions;
    const shown = Math.floor(TRACE_OBSERVED_CHARS / 255);
    expect(condition!.observed).toEqual(inputs[0]!.tags.slice(0, shown));
    expect(condition!.observed_count).toBe(300);
  });

  it("lower-cases a customer's tags once, however many conditions compare them", () => {
    let lowered = 0;
    // The index's kept list: the same array for every read of the customer's tags.
    class Counted extends Array<string> {
      override map<U>(f: (value: string, index: number, array: string[]) => U): U[] {
        lowered++;
        return Array.from(this, (value, index) => f(value, index, this));
      }
    }
    const tags = Counted.from(Array.from({ length: 250 }, (_, i) => `Tag-${i}`)) as unknown as string[];
    const conditions = Array.from({ length: 12 }, (_, i) => ({
      type: 'customer_tag',
      operator: 'contains_any',
      value: `absent-${i}`,
    }));
    const compiled = compile(conditions.map((c) => ({ logic: [{ rules: [c] }], output: [NONE] })));
    const customer = world({ customerTags: { 7: tags } });
    expect(evaluateRuleset(compiled, request({ customerId: 7 }), customer).matched).toEqual([]);
    expect(evaluateRuleset(compiled, request({ customerId: 7 }), customer).matched).toEqual([]);
    expect(lowered).toBe(1);
    const vip = compile([{ logic: [{ rules: [{ ...conditions[0]!, value: 'TAG-249' }] }], output: [NONE] }]);
    expect(evaluateRuleset(vip, request({ customerId: 7 }), customer).matched).toHaveLength(1);
  });
});
