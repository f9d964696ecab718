import {
  createEditorReducer,
  initialEditorState,
  type EditorAction,
  type EditorState,
} from '../../console/src/editor/draft-reducer.js';
import { rulesetOf, sameDocument } from '../../console/src/editor/model.js';
import type { RuleCatalog, Ruleset } from '../../console/src/types.js';
import { describeRuleCatalog } from '../../src/domain/rules/catalog.js';

/** The server's own rule catalog, as the console receives it. */
export const catalog = describeRuleCatalog(['/products/trending_products']) as unknown as RuleCatalog;
const reducer = createEditorReducer(catalog);

/** Frozen all the way down: a reducer that writes into the state it was given throws. */
function frozen<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) frozen(inner);
  }
  return value;
}

/** Runs actions through the reducer, each on a frozen state. */
export const apply = (state: EditorState, ...actions: EditorAction[]) =>
  actions.reduce((s, a) => reducer(frozen(s), a), state);

/**
 * Three rules: a subtotal condition returning a collection; a
 * disabled exit rule returning a product; one returning nothing.
 */
export const stored: Ruleset = {
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
    { name: 'C', enabled: true, exit_if_matched: false, logic: [], output: [{ type: 'none' }] },
  ],
};

export const start = () => initialEditorState(catalog, stored);
export const keysOf = (state: EditorState) => state.draft.rules.map((r) => r.key);
export const dirty = (state: EditorState) => !sameDocument(rulesetOf(state.draft, catalog), state.baseline);
export const problem = (path: string) => ({ path, message: `bad ${path}` });
