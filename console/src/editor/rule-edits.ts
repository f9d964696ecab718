import type { ProductRef, RuleCatalog } from '../types.js';
import {
  move,
  touchedCondition,
  touchedOutput,
  type Draft,
  type DraftCondition,
  type DraftOutput,
  type DraftRule,
} from './model.js';

/** What an output row's value widget changes: the one field its type uses. */
export type OutputValue =
  | { products: ProductRef[] }
  | { collection_id: number | null }
  | { value: string }
  | { endpoint: string };

/** The draft with one rule replaced by `edit(rule)`; a key the draft does not hold leaves it as it is. */
export function editRule(draft: Draft, key: string, edit: (rule: DraftRule) => DraftRule): Draft {
  if (!draft.rules.some((r) => r.key === key)) return draft;
  return { ...draft, rules: draft.rules.map((r) => (r.key === key ? edit(r) : r)) };
}

/** The rule with one condition replaced by `edit(condition)`, then marked touched. */
export function editCondition(
  rule: DraftRule,
  key: string,
  catalog: RuleCatalog,
  edit: (c: DraftCondition) => DraftCondition,
): DraftRule {
  return {
    ...rule,
    groups: rule.groups.map((group) =>
      group.conditions.some((c) => c.key === key)
        ? {
            ...group,
            conditions: group.conditions.map((c) => (c.key === key ? touchedCondition(edit(c), catalog) : c)),
          }
        : group,
    ),
  };
}

/** The rule with one output replaced by `edit(output)`, then marked touched. */
export function editOutput(
  rule: DraftRule,
  key: string,
  catalog: RuleCatalog,
  edit: (o: DraftOutput) => DraftOutput,
): DraftRule {
  return { ...rule, outputs: rule.outputs.map((o) => (o.key === key ? touchedOutput(edit(o), catalog) : o)) };
}

/** A condition with another type: that type's first operator and an empty value (the old one means nothing to it). */
export function withConditionType(condition: DraftCondition, type: string, catalog: RuleCatalog): DraftCondition {
  const spec = catalog.conditions.find((c) => c.type === type);
  return spec ? { ...condition, type, operator: spec.operators[0]?.code ?? '', value: '', products: [] } : condition;
}

/**
 * A condition with another operator; the value stays while its
 * widget stays the same kind (contains any → contains all).
 */
export function withOperator(condition: DraftCondition, code: string, catalog: RuleCatalog): DraftCondition {
  const operators = catalog.conditions.find((c) => c.type === condition.type)?.operators ?? [];
  const before = operators.find((o) => o.code === condition.operator)?.value;
  const after = operators.find((o) => o.code === code)?.value;
  return { ...condition, operator: code, ...(after !== before ? { value: '' } : {}) };
}

/** Where a condition sits in its rule: its group's index and its own, or null. */
export function conditionPlace(rule: DraftRule, key: string): { group: number; condition: number } | null {
  for (const [g, group] of rule.groups.entries()) {
    const c = group.conditions.findIndex((x) => x.key === key);
    if (c >= 0) return { group: g, condition: c };
  }
  return null;
}

/** The rule without a condition; a group left empty goes too. */
export function withoutCondition(rule: DraftRule, key: string): DraftRule {
  return {
    ...rule,
    groups: rule.groups
      .map((group) => ({ ...group, conditions: group.conditions.filter((c) => c.key !== key) }))
      .filter((group) => group.conditions.length > 0),
  };
}

/** The rule with one output moved to another position. */
export function withOutputMoved(rule: DraftRule, key: string, to: number): DraftRule {
  return {
    ...rule,
    outputs: move(
      rule.outputs,
      rule.outputs.findIndex((o) => o.key === key),
      to,
    ),
  };
}

/** The neighbour that takes focus when an item goes: the next one, else the previous one. */
export function neighbourOf<T extends { key: string }>(items: readonly T[], key: string): T | undefined {
  const index = items.findIndex((item) => item.key === key);
  return index < 0 ? undefined : (items[index + 1] ?? items[index - 1]);
}

/**
 * Where focus goes after an edit, as selectors tried in order (the first one on screen wins), so
 * the keyboard user carries on where the work is instead of falling back to the page.
 */
export const focusTargets = {
  ruleName: (rule: string) => [`[data-rule="${rule}"] .rule-name`],
  /** A new or neighbouring row: its first control. */
  row: (rule: string, row: string) => [`[data-rule="${rule}"] [data-row="${row}"] select`],
  /** After a row goes: the next row's type, else that part's add button. */
  afterRow: (rule: string, next: string | undefined, part: 'condition' | 'output') => [
    ...(next !== undefined ? focusTargets.row(rule, next) : []),
    `[data-rule="${rule}"] [data-add="${part}"]`,
  ],
  /** After a rule goes: the next rule's drag handle, else the add-rule button. */
  afterRule: (next: string | undefined) => [
    ...(next !== undefined ? [`[data-rule="${next}"] .drag-handle`] : []),
    '#add-rule',
  ],
  /** A moved rule keeps focus on the button pressed, or on its other one at the top or bottom. */
  movedRule: (rule: string, way: 'up' | 'down') => {
    const other = way === 'up' ? 'down' : 'up';
    return [
      `[data-rule="${rule}"] [data-move="${way}"]:not([disabled])`,
      `[data-rule="${rule}"] [data-move="${other}"]:not([disabled])`,
      `[data-rule="${rule}"] .drag-handle`,
    ];
  },
  movedOutput: (rule: string, output: string, way: 'up' | 'down') => {
    const other = way === 'up' ? 'down' : 'up';
    const row = `[data-rule="${rule}"] [data-row="${output}"]`;
    return [
      `${row} [data-output-move="${way}"]:not([disabled])`,
      `${row} [data-output-move="${other}"]:not([disabled])`,
      `${row} select`,
    ];
  },
};
