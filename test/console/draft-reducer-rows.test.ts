import { describe, expect, it } from 'vitest';
import type { EditorState } from '../../console/src/editor/draft-reducer.js';
import { rulesetOf } from '../../console/src/editor/model.js';
import { apply, catalog, problem, start } from './editor-fixtures.js';

/** The ruleset editor's reducer: a rule's condition rows (IF / AND IF / OR IF) and output rows (RETURN / AND). */
const ruleA = (state: EditorState) => state.draft.rules[0]!;
const conditionsOf = (state: EditorState) => ruleA(state).groups.map((g) => g.conditions.map((c) => c.type));
const sent = (state: EditorState) => rulesetOf(state.draft, catalog).rules[0]!;

/** Rule A with a second condition in its group; returns the state and the keys involved. */
function withTwoConditions() {
  const state = start();
  const rule = ruleA(state).key;
  const group = ruleA(state).groups[0]!.key;
  const next = apply(state, { type: 'addCondition', rule, group });
  const [first, second] = ruleA(next).groups[0]!.conditions.map((c) => c.key);
  return { state: next, rule, group, first: first!, second: second! };
}

describe('ruleset editor reducer: condition rows', () => {
  it('adds an OR group and an AND row of the first real condition type, untouched, focusing the new row', () => {
    const state = start();
    const rule = ruleA(state).key;
    const grouped = apply(state, { type: 'addGroup', rule });
    expect(conditionsOf(grouped)).toEqual([['cart_subtotal'], ['product']]);
    const added = ruleA(grouped).groups[1]!.conditions[0]!;
    expect(added).toMatchObject({ operator: 'contains_any', value: '', products: [], fresh: true });
    expect(grouped.focus?.selectors).toEqual([`[data-rule="${rule}"] [data-row="${added.key}"] select`]);
    const anded = apply(grouped, { type: 'addCondition', rule, group: ruleA(grouped).groups[0]!.key });
    expect(conditionsOf(anded)).toEqual([['cart_subtotal', 'product'], ['product']]);
    expect(apply(grouped, { type: 'addCondition', rule, group: 'gone' })).toBe(grouped);
  });

  it('removes a row, focusing the next row, else the previous, else the add button; an emptied group goes', () => {
    const { state, rule, first, second } = withTwoConditions();
    const firstGone = apply(state, { type: 'removeCondition', rule, condition: first });
    expect(conditionsOf(firstGone)).toEqual([['product']]);
    expect(firstGone.focus?.selectors[0]).toBe(`[data-rule="${rule}"] [data-row="${second}"] select`);
    const secondGone = apply(state, { type: 'removeCondition', rule, condition: second });
    expect(secondGone.focus?.selectors[0]).toBe(`[data-rule="${rule}"] [data-row="${first}"] select`);
    const bothGone = apply(firstGone, { type: 'removeCondition', rule, condition: second });
    expect(ruleA(bothGone).groups).toEqual([]);
    expect(bothGone.focus?.selectors).toEqual([`[data-rule="${rule}"] [data-add="condition"]`]);
  });

  it('clears old problems when a row goes, since they name rows by position', () => {
    const { state, rule, first } = withTwoConditions();
    const refused = apply(state, {
      type: 'saveFailed',
      problems: [problem('rules[0].logic[0].rules[1].products')],
      reason: 'x',
    });
    expect(apply(refused, { type: 'removeCondition', rule, condition: first }).reported.problems).toEqual([]);
  });

  it(
    "changes a row's type to that type's first operator with an " + 'empty value, and ignores a type the catalog lacks',
    () => {
      const { state, rule, first } = withTwoConditions();
      const typed = apply(state, { type: 'setConditionType', rule, condition: first, conditionType: 'url' });
      expect(ruleA(typed).groups[0]!.conditions[0]).toMatchObject({
        key: first,
        type: 'url',
        operator: 'contains',
        value: '',
        products: [],
      });
      expect(apply(state, { type: 'setConditionType', rule, condition: first, conditionType: 'no_such_type' })).toBe(
        state,
      );
    },
  );

  it('keeps the value across operators of the same value kind and clears it across kinds', () => {
    const { state, rule, first } = withTwoConditions();
    const same = apply(state, { type: 'setOperator', rule, condition: first, operator: 'less_than' });
    expect(ruleA(same).groups[0]!.conditions[0]).toMatchObject({ operator: 'less_than', value: '50' });
    const other = apply(state, { type: 'setOperator', rule, condition: first, operator: 'between' });
    expect(ruleA(other).groups[0]!.conditions[0]).toMatchObject({ operator: 'between', value: '' });
  });

  it(
    'keeps a new row out of the preview until it has the value ' + 'it needs; a type or operator alone is not enough',
    () => {
      const { state, rule, second } = withTwoConditions();
      const freshOf = (s: EditorState) => ruleA(s).groups[0]!.conditions[1]!.fresh;
      const typed = apply(
        state,
        { type: 'setConditionType', rule, condition: second, conditionType: 'url' },
        { type: 'setOperator', rule, condition: second, operator: 'equals' },
      );
      expect(freshOf(typed)).toBe(true);
      const valued = apply(typed, { type: 'setConditionValue', rule, condition: second, value: '/sale' });
      expect(freshOf(valued)).toBe(false);
      expect(sent(valued).logic![0]!.rules[1]).toEqual({ type: 'url', operator: 'equals', value: '/sale' });
      // A row needing no value is ready as soon as its type is chosen.
      expect(
        freshOf(apply(state, { type: 'setConditionType', rule, condition: second, conditionType: 'customer' })),
      ).toBe(false);
    },
  );

  it("sets a product row's products, which makes it ready", () => {
    const { state, rule, second } = withTwoConditions();
    const products = [{ product_id: 7, variant_ids: [71] }];
    const next = apply(state, { type: 'setConditionProducts', rule, condition: second, products });
    expect(ruleA(next).groups[0]!.conditions[1]).toMatchObject({ products, fresh: false });
    expect(sent(next).logic![0]!.rules[1]).toEqual({ type: 'product', operator: 'contains_any', products });
  });
});

describe('ruleset editor reducer: output rows', () => {
  /** Rule A with two more outputs: [collection 9, tag (untouched), none]. */
  function withThreeOutputs() {
    const state = start();
    const rule = ruleA(state).key;
    const added = apply(state, { type: 'addOutput', rule }, { type: 'addOutput', rule });
    const [, second, third] = ruleA(added).outputs.map((o) => o.key);
    const next = apply(
      added,
      { type: 'setOutputType', rule, output: second!, outputType: 'tag' },
      { type: 'setOutputType', rule, output: third!, outputType: 'none' },
    );
    return { state: next, rule, keys: ruleA(next).outputs.map((o) => o.key) };
  }

  it('adds an output of the first type, untouched, focusing it', () => {
    const state = start();
    const rule = ruleA(state).key;
    const added = apply(state, { type: 'addOutput', rule });
    const output = ruleA(added).outputs[1]!;
    expect(output).toMatchObject({ type: 'product', products: [], fresh: true });
    expect(added.focus?.selectors).toEqual([`[data-rule="${rule}"] [data-row="${output.key}"] select`]);
  });

  it("changes an output's type on the same row, blank again and quiet in the preview until it has a value", () => {
    const state = start();
    const rule = ruleA(state).key;
    const key = ruleA(state).outputs[0]!.key;
    const endpoint = apply(state, { type: 'setOutputType', rule, output: key, outputType: 'endpoint' });
    expect(ruleA(endpoint).outputs[0]).toMatchObject({
      key,
      type: 'endpoint',
      endpoint: '/products/trending_products',
      collection_id: null,
      fresh: false,
    });
    const products = apply(state, { type: 'setOutputType', rule, output: key, outputType: 'product' });
    expect(ruleA(products).outputs[0]).toMatchObject({ key, type: 'product', fresh: true });
    expect(apply(state, { type: 'setOutputType', rule, output: key, outputType: 'no_such_type' })).toBe(state);
  });

  it('sets the one value each output type uses', () => {
    const { state, rule, keys } = withThreeOutputs();
    const next = apply(
      state,
      { type: 'setOutputValue', rule, output: keys[0]!, value: { collection_id: 12 } },
      { type: 'setOutputValue', rule, output: keys[1]!, value: { value: 'gift, sale' } },
    );
    expect(sent(next).output).toEqual([
      { type: 'collection', collection_id: 12 },
      { type: 'tag', value: 'gift, sale' },
      { type: 'none' },
    ]);
    expect(ruleA(next).outputs[1]!.fresh).toBe(false);
    const listed = apply(
      start(),
      { type: 'setOutputType', rule, output: keys[0]!, outputType: 'endpoint' },
      { type: 'setOutputValue', rule, output: keys[0]!, value: { endpoint: '/products/search?query=red tent' } },
    );
    expect(sent(listed).output).toEqual([{ type: 'endpoint', endpoint: '/products/search?query=red tent' }]);
  });

  it('moves an output up or down, focus following it; past the ends nothing changes', () => {
    const { state, rule, keys } = withThreeOutputs();
    const [a, b, c] = keys;
    const up = apply(state, { type: 'moveOutput', rule, output: c!, to: 0 });
    expect(ruleA(up).outputs.map((o) => o.key)).toEqual([c, a, b]);
    const row = `[data-rule="${rule}"] [data-row="${c}"]`;
    expect(up.focus?.selectors).toEqual([
      `${row} [data-output-move="up"]:not([disabled])`,
      `${row} [data-output-move="down"]:not([disabled])`,
      `${row} select`,
    ]);
    const down = apply(state, { type: 'moveOutput', rule, output: a!, to: 1 });
    expect(ruleA(down).outputs.map((o) => o.key)).toEqual([b, a, c]);
    expect(down.focus?.selectors[0]).toContain('[data-output-move="down"]');
    for (const to of [-1, 2, 3]) expect(apply(state, { type: 'moveOutput', rule, output: c!, to })).toBe(state);
  });

  it('removes an output, focusing the next one, else the previous, else the add button', () => {
    const { state, rule, keys } = withThreeOutputs();
    const [a, b, c] = keys;
    expect(apply(state, { type: 'removeOutput', rule, output: a! }).focus?.selectors[0]).toBe(
      `[data-rule="${rule}"] [data-row="${b}"] select`,
    );
    expect(apply(state, { type: 'removeOutput', rule, output: c! }).focus?.selectors[0]).toBe(
      `[data-rule="${rule}"] [data-row="${b}"] select`,
    );
    const none = apply(
      state,
      { type: 'removeOutput', rule, output: a! },
      { type: 'removeOutput', rule, output: b! },
      { type: 'removeOutput', rule, output: c! },
    );
    expect(ruleA(none).outputs).toEqual([]);
    expect(none.focus?.selectors).toEqual([`[data-rule="${rule}"] [data-add="output"]`]);
    expect(apply(state, { type: 'removeOutput', rule, output: 'gone' })).toBe(state);
  });

  it('ignores row actions for a rule the draft no longer has', () => {
    const state = start();
    expect(apply(state, { type: 'addOutput', rule: 'gone' })).toBe(state);
    expect(apply(state, { type: 'addGroup', rule: 'gone' })).toBe(state);
  });
});
