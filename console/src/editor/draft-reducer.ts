import type { Problem, ProductRef, RuleCatalog, Ruleset } from '../types.js';
import {
  blankCondition,
  blankOutput,
  blankRule,
  draftFrom,
  emptyDraft,
  keyMaker,
  move,
  rulesetOf,
  type Draft,
  type NewKey,
} from './model.js';
import { isFreshAt, previewDocumentOf, withoutRepeats } from './placement.js';
import {
  conditionPlace,
  editCondition,
  editOutput,
  editRule,
  focusTargets,
  neighbourOf,
  withConditionType,
  withOperator,
  withoutCondition,
  withOutputMoved,
  type OutputValue,
} from './rule-edits.js';

/** A message for the editor's live regions: polite for `ok`, assertive for `error`. */
export interface Announcement {
  kind: 'ok' | 'error';
  text: string;
}

/** Selectors tried in order once the change is on screen; a new object for every request. */
export interface FocusRequest {
  selectors: string[];
}

/** Everything the ruleset editor holds while a merchant works on one ruleset. */
export interface EditorState {
  draft: Draft;
  /** Row keys made so far: the next one is numbered after it. */
  keys: number;
  /** The document "Unsaved changes" compares with: as last saved, or as this new ruleset started. */
  baseline: Ruleset;
  /**
   * Problems of the last save, or of the last live preview (which keeps quiet about untouched new rows);
   * a refused save's with the draft it refused.
   */
  reported: { source: 'save' | 'preview'; problems: Problem[]; draft?: Draft };
  status: Announcement | null;
  saving: boolean;
  focus: FocusRequest | null;
}

type RulesetFlag = 'enabled' | 'filter_oos' | 'filter_input_products';
type RuleFlag = 'enabled' | 'exit_if_matched';

/** Every change the editor makes. Rules and rows are named by their keys, which survive moves. */
export type EditorAction =
  | { type: 'rename'; name: string }
  | { type: 'setRulesetFlag'; flag: RulesetFlag; value: boolean }
  | { type: 'addRule' }
  | { type: 'removeRule'; rule: string }
  | { type: 'moveRule'; rule: string; to: number }
  | { type: 'dropRule'; rule: string; onto: string }
  | { type: 'renameRule'; rule: string; name: string }
  | { type: 'setRuleFlag'; rule: string; flag: RuleFlag; value: boolean }
  | { type: 'addGroup'; rule: string }
  | { type: 'addCondition'; rule: string; group: string }
  | { type: 'removeCondition'; rule: string; condition: string }
  | { type: 'setConditionType'; rule: string; condition: string; conditionType: string }
  | { type: 'setOperator'; rule: string; condition: string; operator: string }
  | { type: 'setConditionValue'; rule: string; condition: string; value: string }
  | { type: 'setConditionProducts'; rule: string; condition: string; products: ProductRef[] }
  | { type: 'addOutput'; rule: string }
  | { type: 'removeOutput'; rule: string; output: string }
  | { type: 'moveOutput'; rule: string; output: string; to: number }
  | { type: 'setOutputType'; rule: string; output: string; outputType: string }
  | { type: 'setOutputValue'; rule: string; output: string; value: OutputValue }
  | { type: 'saveStarted' }
  | { type: 'saved'; document: Ruleset; answer: Ruleset }
  | { type: 'saveFailed'; problems: Problem[]; reason: string }
  | { type: 'previewProblems'; problems: Problem[] };

/** The editor's first state: a stored ruleset as it is, or a new one with one blank rule. */
export function initialEditorState(
  catalog: RuleCatalog,
  stored: Ruleset | null,
  flash: string | null = null,
): EditorState {
  const keys = keyMaker();
  const draft = stored
    ? draftFrom(stored, keys.newKey)
    : { ...emptyDraft(), name: 'New ruleset', rules: [blankRule(catalog, 1, keys.newKey)] };
  return {
    draft,
    keys: keys.used(),
    baseline: rulesetOf(draft, catalog),
    reported: { source: 'save', problems: [] },
    status: flash ? { kind: 'ok', text: flash } : null,
    saving: false,
    focus: null,
  };
}

/** The problems the rows show now: a preview's problems wait while their row is untouched and new. */
export function visibleProblems(state: EditorState): Problem[] {
  const { source, problems } = state.reported;
  return source === 'save' ? problems : problems.filter((p) => !isFreshAt(state.draft, p.path));
}

/** What a successful save says, here and in the editor a new ruleset opens in. */
export const savedMessage = (answer: Ruleset) => `Saved ${answer.name} (version ${answer.version ?? 1}).`;

function notSavedMessage(problems: readonly Problem[], reason: string): string {
  if (problems.length === 0) return `Not saved: ${reason}`;
  const one = problems.length === 1;
  return `Not saved: ${problems.length} problem${one ? '' : 's'}, shown next to ${one ? 'its row' : 'their rows'}.`;
}

/** Problems point at positions of the last answer; once rows move or go they would point at the wrong rows. */
const NO_PROBLEMS: EditorState['reported'] = { source: 'save', problems: [] };

/** The editor's reducer for one rule catalog: a pure function of the state and an action. */
export function createEditorReducer(catalog: RuleCatalog): (state: EditorState, action: EditorAction) => EditorState {
  return (state, action) => {
    const keys = keyMaker(state.keys);
    const next = reduce(state, action, catalog, keys.newKey);
    return next === state || keys.used() === state.keys ? next : { ...next, keys: keys.used() };
  };
}

/** The actions on the ruleset and its rules; row actions go on to `reduceRows`. */
function reduce(state: EditorState, action: EditorAction, catalog: RuleCatalog, newKey: NewKey): EditorState {
  const { draft } = state;
  const onRule = (rule: string, edit: Parameters<typeof editRule>[2]) => ({
    ...state,
    draft: editRule(draft, rule, edit),
  });
  switch (action.type) {
    case 'saveStarted':
    case 'saved':
    case 'saveFailed':
    case 'previewProblems':
      return reduceSaves(state, action, catalog);
    case 'rename':
      return { ...state, draft: { ...draft, name: action.name } };
    case 'setRulesetFlag':
      return { ...state, draft: { ...draft, [action.flag]: action.value } };
    case 'addRule': {
      const rule = blankRule(catalog, draft.rules.length + 1, newKey);
      return {
        ...state,
        draft: { ...draft, rules: [...draft.rules, rule] },
        focus: { selectors: focusTargets.ruleName(rule.key) },
      };
    }
    case 'removeRule': {
      if (!draft.rules.some((r) => r.key === action.rule)) return state;
      const next = neighbourOf(draft.rules, action.rule);
      const rules = draft.rules.filter((r) => r.key !== action.rule);
      return {
        ...state,
        draft: { ...draft, rules },
        reported: NO_PROBLEMS,
        focus: { selectors: focusTargets.afterRule(next?.key) },
      };
    }
    case 'moveRule': {
      const from = draft.rules.findIndex((r) => r.key === action.rule);
      if (from < 0 || action.to < 0 || action.to >= draft.rules.length || action.to === from) return state;
      const way = action.to < from ? 'up' : 'down';
      return {
        ...state,
        draft: { ...draft, rules: move(draft.rules, from, action.to) },
        reported: NO_PROBLEMS,
        focus: { selectors: focusTargets.movedRule(action.rule, way) },
      };
    }
    case 'dropRule': {
      // A drag keeps focus on the handle by itself.
      const from = draft.rules.findIndex((r) => r.key === action.rule);
      const to = draft.rules.findIndex((r) => r.key === action.onto);
      if (from < 0 || to < 0 || from === to) return state;
      return { ...state, draft: { ...draft, rules: move(draft.rules, from, to) }, reported: NO_PROBLEMS };
    }
    case 'renameRule':
      return onRule(action.rule, (r) => ({ ...r, name: action.name }));
    case 'setRuleFlag':
      return onRule(action.rule, (r) => ({ ...r, [action.flag]: action.value }));
    default:
      return reduceRows(state, action, catalog, newKey);
  }
}

/** The actions on a rule's condition and output rows. */
function reduceRows(state: EditorState, action: EditorAction, catalog: RuleCatalog, newKey: NewKey): EditorState {
  const rule = 'rule' in action ? state.draft.rules.find((r) => r.key === action.rule) : undefined;
  if (!rule) return state;
  const put = (next: typeof rule, extra: Partial<EditorState> = {}): EditorState => ({
    ...state,
    draft: editRule(state.draft, rule.key, () => next),
    ...extra,
  });
  const firstCondition = catalog.conditions.find((c) => c.type !== 'anything') ?? catalog.conditions[0];
  switch (action.type) {
    case 'addGroup': {
      if (!firstCondition) return state;
      const condition = blankCondition(firstCondition, newKey);
      return put(
        { ...rule, groups: [...rule.groups, { key: newKey('g'), conditions: [condition] }] },
        { focus: { selectors: focusTargets.row(rule.key, condition.key) } },
      );
    }
    case 'addCondition': {
      if (!firstCondition || !rule.groups.some((g) => g.key === action.group)) return state;
      const condition = blankCondition(firstCondition, newKey);
      const groups = rule.groups.map((g) =>
        g.key === action.group ? { ...g, conditions: [...g.conditions, condition] } : g,
      );
      return put({ ...rule, groups }, { focus: { selectors: focusTargets.row(rule.key, condition.key) } });
    }
    case 'removeCondition': {
      const place = conditionPlace(rule, action.condition);
      if (!place) return state;
      const next = neighbourOf(rule.groups[place.group]!.conditions, action.condition);
      return put(withoutCondition(rule, action.condition), {
        reported: NO_PROBLEMS,
        focus: { selectors: focusTargets.afterRow(rule.key, next?.key, 'condition') },
      });
    }
    case 'setConditionType': {
      if (!catalog.conditions.some((c) => c.type === action.conditionType)) return state;
      return put(
        editCondition(rule, action.condition, catalog, (c) => withConditionType(c, action.conditionType, catalog)),
      );
    }
    case 'setOperator':
      return put(editCondition(rule, action.condition, catalog, (c) => withOperator(c, action.operator, catalog)));
    case 'setConditionValue':
      return put(editCondition(rule, action.condition, catalog, (c) => ({ ...c, value: action.value })));
    case 'setConditionProducts':
      return put(editCondition(rule, action.condition, catalog, (c) => ({ ...c, products: action.products })));
    case 'addOutput': {
      const spec = catalog.outputs[0];
      if (!spec) return state;
      const output = blankOutput(spec, catalog, newKey);
      return put(
        { ...rule, outputs: [...rule.outputs, output] },
        { focus: { selectors: focusTargets.row(rule.key, output.key) } },
      );
    }
    case 'removeOutput': {
      if (!rule.outputs.some((o) => o.key === action.output)) return state;
      const next = neighbourOf(rule.outputs, action.output);
      const outputs = rule.outputs.filter((o) => o.key !== action.output);
      return put(
        { ...rule, outputs },
        { reported: NO_PROBLEMS, focus: { selectors: focusTargets.afterRow(rule.key, next?.key, 'output') } },
      );
    }
    case 'moveOutput': {
      const from = rule.outputs.findIndex((o) => o.key === action.output);
      if (from < 0 || action.to < 0 || action.to >= rule.outputs.length || action.to === from) return state;
      const way = action.to < from ? 'up' : 'down';
      return put(withOutputMoved(rule, action.output, action.to), {
        reported: NO_PROBLEMS,
        focus: { selectors: focusTargets.movedOutput(rule.key, action.output, way) },
      });
    }
    case 'setOutputType': {
      const spec = catalog.outputs.find((o) => o.type === action.outputType);
      // A new type starts blank (and quiet in the preview until it has a value), on the same row.
      return spec
        ? put(editOutput(rule, action.output, catalog, (o) => blankOutput(spec, catalog, () => o.key)))
        : state;
    }
    case 'setOutputValue':
      return put(editOutput(rule, action.output, catalog, (o) => ({ ...o, ...action.value })));
    default:
      return state;
  }
}

/** Saving and the live preview's validation. */
function reduceSaves(state: EditorState, action: EditorAction, catalog: RuleCatalog): EditorState {
  switch (action.type) {
    case 'saveStarted':
      return { ...state, saving: true, status: null };
    case 'saved':
      return {
        ...state,
        saving: false,
        baseline: action.document,
        reported: NO_PROBLEMS,
        status: { kind: 'ok', text: savedMessage(action.answer) },
      };
    case 'saveFailed':
      return {
        ...state,
        saving: false,
        reported: { source: 'save', problems: withoutRepeats(action.problems), draft: state.draft },
        status: { kind: 'error', text: notSavedMessage(withoutRepeats(action.problems), action.reason) },
      };
    case 'previewProblems': {
      // Nothing changed since a save was refused: a preview of the same rules (which checks less than a
      // save, the name's length for one) must not take the refusal and its problems off the screen.
      if (state.reported.source === 'save' && state.reported.draft === state.draft) return state;
      const { fullPath } = previewDocumentOf(state.draft, catalog);
      const problems = withoutRepeats(action.problems.map((p) => ({ ...p, path: fullPath(p.path) })));
      // A preview of changed rules that validates clean clears a stale "not saved" message.
      const status = problems.length === 0 && state.status?.kind === 'error' ? null : state.status;
      return { ...state, reported: { source: 'preview', problems }, status };
    }
    default:
      return state;
  }
}
