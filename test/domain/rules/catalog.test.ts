/** The rule catalog the console renders from must be exactly the table of docs/rules.md. */
import { describe, expect, it } from 'vitest';
import { describeRuleCatalog } from '../../../src/domain/rules/catalog.js';
import { compileRulesetInput } from '../../../src/domain/rules/compile.js';

const SET3 = ['contains_any', 'contains_all', 'does_not_contain_any'];
const ATTRIBUTE = [...SET3, 'equals', 'matches_regex'];
const NUMBER = [
  'greater_than',
  'greater_than_or_equal_to',
  'less_than',
  'less_than_or_equal_to',
  'equal_to',
  'between',
];
const ANY_NONE = ['contains_any', 'does_not_contain_any'];

/** docs/rules.md, "Condition types and operators", row by row. */
const TABLE: Record<string, string[]> = {
  anything: [],
  product: SET3,
  variant: SET3,
  product_tag: ATTRIBUTE,
  product_type: ATTRIBUTE,
  product_vendor: ATTRIBUTE,
  product_handle: ATTRIBUTE,
  collection: ANY_NONE,
  cart_subtotal: NUMBER,
  cart_item_count: NUMBER,
  cart_line_count: NUMBER,
  customer: ['is_logged_in', 'is_guest'],
  customer_tag: ANY_NONE,
  customer_purchased: ANY_NONE,
  date: ['between', 'before', 'after'],
  day_of_week: ['contains_any'],
  time_of_day: ['between'],
  url: ['contains', 'does_not_contain', 'equals', 'matches_regex'],
  country: ANY_NONE,
};

const OUTPUT_TYPES = ['product', 'collection', 'tag', 'matching_input_tags', 'input_products', 'endpoint', 'none'];

const catalog = describeRuleCatalog(['/products/trending_products', '/products/recently_viewed']);

describe('describeRuleCatalog', () => {
  it('lists exactly the condition types of the table, each once', () => {
    const types = catalog.conditions.map((c) => c.type);
    expect(new Set(types).size).toBe(types.length);
    expect([...types].sort()).toEqual(Object.keys(TABLE).sort());
  });

  it.each(Object.entries(TABLE))('%s has exactly the operators of the table', (type, operators) => {
    const entry = catalog.conditions.find((c) => c.type === type);
    expect(entry).toBeDefined();
    const codes = entry!.operators.map((o) => o.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect([...codes].sort()).toEqual([...operators].sort());
  });

  it('lists exactly the output types', () => {
    const types = catalog.outputs.map((o) => o.type);
    expect(new Set(types).size).toBe(types.length);
    expect([...types].sort()).toEqual([...OUTPUT_TYPES].sort());
  });

  it('passes the list endpoints through', () => {
    expect(catalog.endpoints).toEqual(['/products/trending_products', '/products/recently_viewed']);
  });

  it('describes every value kind it uses', () => {
    const kinds = new Set(Object.keys(catalog.value_kinds));
    for (const c of catalog.conditions)
      for (const o of c.operators) expect(kinds, `${c.type}/${o.code}`).toContain(o.value);
    for (const o of catalog.outputs) expect(kinds, o.type).toContain(o.value);
  });

  it('gives ranges to between and regexes to matches_regex', () => {
    const valueKind = (type: string, op: string) =>
      catalog.conditions.find((c) => c.type === type)!.operators.find((o) => o.code === op)!.value;
    expect(valueKind('cart_subtotal', 'between')).toBe('number_range');
    expect(valueKind('cart_subtotal', 'greater_than')).toBe('number');
    expect(valueKind('date', 'between')).toBe('date_range');
    expect(valueKind('date', 'before')).toBe('date');
    expect(valueKind('time_of_day', 'between')).toBe('time_range');
    expect(valueKind('product_tag', 'matches_regex')).toBe('text_or_regex');
    expect(valueKind('url', 'matches_regex')).toBe('text_or_regex');
    expect(valueKind('product', 'contains_any')).toBe('products');
    expect(valueKind('customer_purchased', 'contains_any')).toBe('products');
    expect(valueKind('customer', 'is_guest')).toBe('none');
  });

  it('labels every type and operator for the console', () => {
    for (const c of catalog.conditions) {
      expect(c.label.trim(), c.type).not.toBe('');
      for (const o of c.operators) expect(o.label.trim(), `${c.type}/${o.code}`).not.toBe('');
    }
    for (const o of catalog.outputs) expect(o.label.trim(), o.type).not.toBe('');
  });

  it('is a copy: changing it does not change the next one', () => {
    const first = describeRuleCatalog([]);
    first.outputs[0]!.type = 'changed';
    first.conditions[0]!.operators.push({ code: 'x', label: 'x', value: 'none' });
    const second = describeRuleCatalog([]);
    expect(second.outputs[0]!.type).not.toBe('changed');
    expect(second.conditions[0]!.operators.map((o) => o.code)).not.toContain('x');
  });
});

describe('the catalog is what validation accepts', () => {
  it.each(Object.entries(TABLE).flatMap(([type, ops]) => ops.map((op) => [type, op] as const)))(
    '%s accepts %s',
    (type, operator) => {
      // Whatever the value, the operator itself must not be reported.
      let paths: string[] = [];
      try {
        compileRulesetInput({
          name: 't',
          rules: [{ logic: [{ rules: [{ type, operator, value: '' }] }], output: [] }],
        });
      } catch (error) {
        paths = (error as { problems: { path: string }[] }).problems.map((p) => p.path);
      }
      expect(paths).not.toContain('rules[0].logic[0].rules[0].operator');
    },
  );

  it.each(Object.keys(TABLE).filter((t) => t !== 'anything'))('%s refuses an operator outside its row', (type) => {
    const outside = ['is_logged_in', 'contains', 'contains_all'].find((op) => !TABLE[type]!.includes(op))!;
    let paths: string[] = [];
    try {
      compileRulesetInput({
        name: 't',
        rules: [{ logic: [{ rules: [{ type, operator: outside, value: '1' }] }], output: [] }],
      });
    } catch (error) {
      paths = (error as { problems: { path: string }[] }).problems.map((p) => p.path);
    }
    expect(paths).toContain('rules[0].logic[0].rules[0].operator');
  });

  it('accepts every output type of the catalog (with its value)', () => {
    const samples: Record<string, object> = {
      product: { products: [{ product_id: 1 }] },
      collection: { collection_id: 1 },
      tag: { value: 'sale' },
      endpoint: { endpoint: '/products/trending_products' },
    };
    const output = catalog.outputs.map((o) => ({ type: o.type, ...samples[o.type] }));
    expect(() => compileRulesetInput({ name: 't', rules: [{ logic: [], output }] })).not.toThrow();
  });
});
