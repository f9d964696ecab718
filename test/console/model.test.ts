import { describe, expect, it } from 'vitest';
import {
  blankCondition,
  blankOutput,
  draftFrom,
  keyMaker,
  move,
  rulesetOf,
  sameDocument,
  type Draft,
} from '../../console/src/editor/model.js';
import {
  fieldWordOf,
  isFreshAt,
  orphanProblems,
  placeOf,
  previewDocumentOf,
  problemsAt,
} from '../../console/src/editor/placement.js';
import type { RuleCatalog } from '../../console/src/types.js';
import { describeRuleCatalog } from '../../src/domain/rules/catalog.js';

/** The console's draft model: what it sends, and where it shows the server's problems. */
const catalog = describeRuleCatalog(['/products/trending_products']) as unknown as RuleCatalog;
const spec = (type: string) => catalog.conditions.find((c) => c.type === type)!;
const output = (type: string) => catalog.outputs.find((o) => o.type === type)!;
/** Keys for rows a test adds by hand, apart from the ones `draftFrom` makes. */
const key = keyMaker(1000).newKey;
const draftOf = (ruleset: Parameters<typeof draftFrom>[0]) => draftFrom(ruleset, keyMaker().newKey);

const stored = {
  id: 4,
  name: 'Stored',
  enabled: true,
  filter_oos: false,
  filter_input_products: true,
  rules: [
    {
      name: 'A',
      enabled: true,
      exit_if_matched: false,
      logic: [{ rules: [{ type: 'cart_subtotal', operator: 'greater_than', value: '50' }] }],
      output: [{ type: 'collection', collection_id: 9 }],
    },
    {
      name: 'B',
      enabled: false,
      exit_if_matched: true,
      logic: [],
      output: [{ type: 'product', products: [{ product_id: 1, variant_ids: [11] }] }],
    },
  ],
};

describe('console draft model', () => {
  it('round-trips a stored ruleset unchanged, so opening one shows no unsaved changes', () => {
    const document = rulesetOf(draftOf(stored), catalog);
    const { id: _id, ...withoutId } = stored;
    expect(document).toEqual(withoutId);
    expect(sameDocument(document, rulesetOf(draftOf(stored), catalog))).toBe(true);
  });

  it('sends only the fields a row type uses, whatever the draft still holds from an earlier type', () => {
    const draft = draftOf(stored);
    const rule = draft.rules[0]!;
    rule.groups[0]!.conditions[0] = {
      ...blankCondition(spec('customer'), key),
      value: 'left over',
      products: [{ product_id: 3, variant_ids: [] }],
    };
    rule.outputs[0] = { ...blankOutput(output('endpoint'), catalog, key), value: 'left over', collection_id: 9 };
    const sent = rulesetOf(draft, catalog).rules[0]!;
    expect(sent.logic).toEqual([{ rules: [{ type: 'customer', operator: 'is_logged_in' }] }]);
    expect(sent.output).toEqual([{ type: 'endpoint', endpoint: '/products/trending_products' }]);
  });

  it('places each problem path on its row, counting groups as sent (empty draft groups are not sent)', () => {
    const draft: Draft = draftOf(stored);
    // An empty group before the real one: the server numbers the real one 0, the draft 1.
    draft.rules[0]!.groups.unshift({ key: 'empty', conditions: [] });
    const problems = [
      { path: 'name', message: 'too long' },
      { path: 'rules[0].logic[0].rules[0].value', message: 'needs a number' },
      { path: 'rules[0].output[0].collection_id', message: 'unknown collection 9' },
      { path: 'rules[1]', message: 'bad rule' },
    ];
    expect(placeOf('rules[3].logic[2].rules[1].operator')).toEqual({ rule: 3, group: 2, condition: 1 });
    expect(placeOf('rules[2].output[4].endpoint')).toEqual({ rule: 2, output: 4 });
    expect(problemsAt(problems, draft, {}).map((p) => p.path)).toEqual(['name']);
    expect(problemsAt(problems, draft, { rule: 0, group: 1, condition: 0 }).map((p) => p.message)).toEqual([
      'needs a number',
    ]);
    expect(problemsAt(problems, draft, { rule: 0, group: 0, condition: 0 })).toEqual([]);
    expect(problemsAt(problems, draft, { rule: 0, output: 0 }).map((p) => p.message)).toEqual(['unknown collection 9']);
    expect(problemsAt(problems, draft, { rule: 1 }).map((p) => p.message)).toEqual(['bad rule']);
  });

  it('previews without untouched new rows and maps the preview problems back to the rows', () => {
    const draft = draftOf(stored);
    const rule = draft.rules[0]!;
    rule.groups.unshift({ key: 'new-group', conditions: [blankCondition(spec('product'), key)] }); // fresh
    rule.groups[1]!.conditions.unshift(blankCondition(spec('url'), key)); // fresh, before the subtotal row
    rule.outputs.unshift(blankOutput(output('product'), catalog, key)); // fresh
    const { document, fullPath } = previewDocumentOf(draft, catalog);
    expect(document.rules[0]!.logic).toEqual([
      { rules: [{ type: 'cart_subtotal', operator: 'greater_than', value: '50' }] },
    ]);
    expect(document.rules[0]!.output).toEqual([{ type: 'collection', collection_id: 9 }]);
    // The subtotal row is logic[0].rules[0] in the preview and logic[1].rules[1] in the full document.
    expect(fullPath('rules[0].logic[0].rules[0].value')).toBe('rules[0].logic[1].rules[1].value');
    expect(fullPath('rules[0].output[0].collection_id')).toBe('rules[0].output[1].collection_id');
    expect(fullPath('rules[1].output[0].products[0].product_id')).toBe('rules[1].output[0].products[0].product_id');
    // The full document still has the new rows, so a save reports them.
    expect(rulesetOf(draft, catalog).rules[0]!.logic).toHaveLength(2);
    expect(isFreshAt(draft, 'rules[0].logic[0].rules[0].products')).toBe(true);
    expect(isFreshAt(draft, 'rules[0].logic[1].rules[1].value')).toBe(false);
  });

  it(
    'keys rows per editor: two editors of one ruleset key their ' +
      'rows alike, and a key maker numbers on from where it was',
    () => {
      const keysOf = (draft: Draft) =>
        draft.rules.flatMap((r) => [
          r.key,
          ...r.groups.flatMap((g) => [g.key, ...g.conditions.map((c) => c.key)]),
          ...r.outputs.map((o) => o.key),
        ]);
      expect(keysOf(draftOf(stored))).toEqual(keysOf(draftOf(stored)));
      expect(new Set(keysOf(draftOf(stored))).size).toBe(keysOf(draftOf(stored)).length);
      const maker = keyMaker(6);
      expect([maker.newKey('r'), maker.newKey('c')]).toEqual(['r7', 'c8']);
      expect(maker.used()).toBe(8);
    },
  );

  it('lists the problems no row can show: a rule or a group the draft no longer has', () => {
    const draft = draftOf(stored);
    const problems = [
      { path: 'name', message: 'ruleset' },
      { path: 'rules[0].logic[0].rules[0].value', message: 'shown on its row' },
      { path: 'rules[0].logic[3].rules[0].value', message: 'group gone' },
      { path: 'rules[7].output[0]', message: 'rule gone' },
    ];
    expect(orphanProblems(problems, draft).map((p) => p.message)).toEqual(['group gone', 'rule gone']);
  });

  it('moves an item and leaves out-of-range moves alone', () => {
    expect(move(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(move(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(move(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
    expect(move(['a', 'b'], 1, 2)).toEqual(['a', 'b']);
  });
});

describe("a rule row's problem", () => {
  it("is led by the field in the merchant's words, not the document's key", () => {
    expect(fieldWordOf('rules[0].logic[0].rules[1].value')).toBe('The value');
    expect(fieldWordOf('rules[2].output[0].endpoint')).toBe('The list');
    expect(fieldWordOf('rules[2].output[0].collection_id')).toBe('The collection');
    expect(fieldWordOf('rules[1]')).toBe('The rule');
    // A key the editor has no word for stays as it is rather than disappear.
    expect(fieldWordOf('rules[0].output[0].something_new')).toBe('something_new');
  });
});
