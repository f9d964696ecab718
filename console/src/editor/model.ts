import type { Condition, ConditionSpec, Output, OutputSpec, ProductRef, Rule, RuleCatalog, Ruleset } from '../types.js';

/** `fresh`: added and not yet touched; the live preview keeps quiet about its problems until it is edited or saved. */
export interface DraftCondition {
  key: string;
  type: string;
  operator: string;
  value: string;
  products: ProductRef[];
  fresh?: boolean;
}
export interface DraftGroup {
  key: string;
  conditions: DraftCondition[];
}
export interface DraftOutput {
  key: string;
  type: string;
  products: ProductRef[];
  collection_id: number | null;
  value: string;
  endpoint: string;
  fresh?: boolean;
}
export interface DraftRule {
  key: string;
  name: string;
  enabled: boolean;
  exit_if_matched: boolean;
  groups: DraftGroup[];
  outputs: DraftOutput[];
}
/**
 * The editor's draft of a ruleset: the document plus a stable key on every rule, group, condition
 * and output, so rows keep their identity (focus, drag) while they move.
 */
export interface Draft {
  id: number | null;
  name: string;
  enabled: boolean;
  filter_oos: boolean;
  filter_input_products: boolean;
  rules: DraftRule[];
}

/** Makes a row key from a prefix (`r`, `g`, `c`, `o`); keys are unique within one editor. */
export type NewKey = (prefix: string) => string;

/**
 * Numbers keys on from `after`. The editor keeps the count in its state, so every editor has its
 * own and nothing outlives it.
 */
export function keyMaker(after = 0): { newKey: NewKey; used(): number } {
  let count = after;
  return { newKey: (prefix) => `${prefix}${++count}`, used: () => count };
}

const copyRefs = (refs: readonly ProductRef[] | undefined): ProductRef[] =>
  (refs ?? []).map((p) => ({ product_id: p.product_id, variant_ids: [...(p.variant_ids ?? [])] }));

/** A stored condition as a draft row. */
export function conditionFrom(condition: Condition, newKey: NewKey): DraftCondition {
  return {
    key: newKey('c'),
    type: condition.type,
    operator: condition.operator ?? '',
    value: condition.value ?? '',
    products: copyRefs(condition.products),
  };
}

/** A stored output as a draft row. */
export function outputFrom(output: Output, newKey: NewKey): DraftOutput {
  return {
    key: newKey('o'),
    type: output.type,
    products: copyRefs(output.products),
    collection_id: output.collection_id ?? null,
    value: output.value ?? '',
    endpoint: output.endpoint ?? '',
  };
}

/** A stored rule as a draft rule. */
export function ruleFrom(rule: Rule, newKey: NewKey): DraftRule {
  return {
    key: newKey('r'),
    name: rule.name ?? '',
    enabled: rule.enabled ?? true,
    exit_if_matched: rule.exit_if_matched ?? false,
    groups: (rule.logic ?? []).map((group) => ({
      key: newKey('g'),
      conditions: group.rules.map((c) => conditionFrom(c, newKey)),
    })),
    outputs: rule.output.map((o) => outputFrom(o, newKey)),
  };
}

/** A stored ruleset as the editor's draft, every row keyed. */
export function draftFrom(ruleset: Ruleset, newKey: NewKey): Draft {
  return {
    id: ruleset.id ?? null,
    name: ruleset.name,
    enabled: ruleset.enabled ?? true,
    filter_oos: ruleset.filter_oos ?? true,
    filter_input_products: ruleset.filter_input_products ?? true,
    rules: ruleset.rules.map((r) => ruleFrom(r, newKey)),
  };
}

export const emptyDraft = (): Draft => ({
  id: null,
  name: '',
  enabled: true,
  filter_oos: true,
  filter_input_products: true,
  rules: [],
});

/** The document the admin API stores: only the fields each type uses. */
export function rulesetOf(draft: Draft, catalog: RuleCatalog): Ruleset {
  return {
    name: draft.name,
    enabled: draft.enabled,
    filter_oos: draft.filter_oos,
    filter_input_products: draft.filter_input_products,
    rules: draft.rules.map((rule) => ({
      name: rule.name,
      enabled: rule.enabled,
      exit_if_matched: rule.exit_if_matched,
      logic: rule.groups
        .filter((g) => g.conditions.length > 0)
        .map((group) => ({ rules: group.conditions.map((c) => conditionOf(c, catalog)) })),
      output: rule.outputs.map((o) => outputOf(o, catalog)),
    })),
  };
}

function conditionOf(condition: DraftCondition, catalog: RuleCatalog): Condition {
  const spec = catalog.conditions.find((c) => c.type === condition.type);
  const operator = spec?.operators.find((o) => o.code === condition.operator);
  const out: Condition = { type: condition.type };
  if (spec && spec.operators.length > 0) out.operator = condition.operator;
  if (operator?.value === 'products') out.products = condition.products;
  else if (operator && operator.value !== 'none') out.value = condition.value;
  return out;
}

function outputOf(output: DraftOutput, catalog: RuleCatalog): Output {
  const spec = catalog.outputs.find((o) => o.type === output.type);
  const out: Output = { type: output.type };
  switch (spec?.value) {
    case 'products':
      out.products = output.products;
      break;
    case 'collection':
      if (output.collection_id !== null) out.collection_id = output.collection_id;
      break;
    case 'tag_list':
      out.value = output.value;
      break;
    case 'endpoint':
      out.endpoint = output.endpoint;
      break;
    default:
      break;
  }
  return out;
}

/** A new condition row of a type: its first operator, an empty value. */
export function blankCondition(spec: ConditionSpec, newKey: NewKey): DraftCondition {
  return {
    key: newKey('c'),
    type: spec.type,
    operator: spec.operators[0]?.code ?? '',
    value: '',
    products: [],
    fresh: true,
  };
}

/** A new output row of a type: empty, except that an endpoint output starts at the first endpoint. */
export function blankOutput(spec: OutputSpec, catalog: RuleCatalog, newKey: NewKey): DraftOutput {
  return {
    key: newKey('o'),
    type: spec.type,
    products: [],
    collection_id: null,
    value: '',
    endpoint: spec.value === 'endpoint' ? (catalog.endpoints[0] ?? '') : '',
    fresh: true,
  };
}

/** A new rule named by its position: no conditions (it always matches) and one row of the first output type. */
export function blankRule(catalog: RuleCatalog, position: number, newKey: NewKey): DraftRule {
  const output = catalog.outputs[0];
  return {
    key: newKey('r'),
    name: `Rule ${position}`,
    enabled: true,
    exit_if_matched: false,
    groups: [],
    outputs: output ? [blankOutput(output, catalog, newKey)] : [],
  };
}

/**
 * A row stays `fresh` (left out of the live preview) only while it still waits for a value its
 * type needs; choosing a type or operator alone does not make it ready.
 */
export function touchedCondition(condition: DraftCondition, catalog: RuleCatalog): DraftCondition {
  const operator = catalog.conditions
    .find((c) => c.type === condition.type)
    ?.operators.find((o) => o.code === condition.operator);
  const waiting =
    operator !== undefined &&
    operator.value !== 'none' &&
    condition.value.trim() === '' &&
    condition.products.length === 0;
  return { ...condition, fresh: condition.fresh === true && waiting };
}

/** The same for an output row. */
export function touchedOutput(output: DraftOutput, catalog: RuleCatalog): DraftOutput {
  const kind = catalog.outputs.find((o) => o.type === output.type)?.value;
  const waiting =
    (kind === 'products' && output.products.length === 0) ||
    (kind === 'collection' && output.collection_id === null) ||
    (kind === 'tag_list' && output.value.trim() === '') ||
    (kind === 'endpoint' && output.endpoint.trim() === '');
  return { ...output, fresh: output.fresh === true && waiting };
}

/** Moves an item of a list; out-of-range moves leave it as it is. */
export function move<T>(items: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= items.length || to >= items.length) return [...items];
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

/** Whether two documents are the same, field for field (what "Unsaved changes" compares). */
export const sameDocument = (a: Ruleset, b: Ruleset) => JSON.stringify(a) === JSON.stringify(b);
