import type { Condition, ConditionSpec, Output, OutputSpec, Problem, ProductRef, Rule, RuleCatalog, Ruleset } from '../types.js';

/** `fresh`: added and not yet touched; the live preview keeps quiet about its problems until it is edited or saved. */
export interface DraftCondition { key: string; type: string; operator: string; value: string; products: ProductRef[]; fresh?: boolean }
export interface DraftGroup { key: string; conditions: DraftCondition[] }
export interface DraftOutput { key: string; type: string; products: ProductRef[]; collection_id: number | null; value: string; endpoint: string; fresh?: boolean }
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

let counter = 0;
export const newKey = (prefix: string) => `${prefix}${++counter}`;

export function conditionFrom(condition: Condition): DraftCondition {
  return {
    key: newKey('c'),
    type: condition.type,
    operator: condition.operator ?? '',
    value: condition.value ?? '',
    products: (condition.products ?? []).map((p) => ({ product_id: p.product_id, variant_ids: [...(p.variant_ids ?? [])] })),
  };
}

export function outputFrom(output: Output): DraftOutput {
  return {
    key: newKey('o'),
    type: output.type,
    products: (output.products ?? []).map((p) => ({ product_id: p.product_id, variant_ids: [...(p.variant_ids ?? [])] })),
    collection_id: output.collection_id ?? null,
    value: output.value ?? '',
    endpoint: output.endpoint ?? '',
  };
}

export function ruleFrom(rule: Rule): DraftRule {
  return {
    key: newKey('r'),
    name: rule.name ?? '',
    enabled: rule.enabled ?? true,
    exit_if_matched: rule.exit_if_matched ?? false,
    groups: (rule.logic ?? []).map((group) => ({ key: newKey('g'), conditions: group.rules.map(conditionFrom) })),
    outputs: rule.output.map(outputFrom),
  };
}

export function draftFrom(ruleset: Ruleset): Draft {
  return {
    id: ruleset.id ?? null,
    name: ruleset.name,
    enabled: ruleset.enabled ?? true,
    filter_oos: ruleset.filter_oos ?? true,
    filter_input_products: ruleset.filter_input_products ?? true,
    rules: ruleset.rules.map(ruleFrom),
  };
}

export const emptyDraft = (): Draft => ({ id: null, name: '', enabled: true, filter_oos: true, filter_input_products: true, rules: [] });

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
      logic: rule.groups.filter((g) => g.conditions.length > 0).map((group) => ({ rules: group.conditions.map((c) => conditionOf(c, catalog)) })),
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
    case 'products': out.products = output.products; break;
    case 'collection': if (output.collection_id !== null) out.collection_id = output.collection_id; break;
    case 'tag_list': out.value = output.value; break;
    case 'endpoint': out.endpoint = output.endpoint; break;
    default: break;
  }
  return out;
}

/** A new condition row of a type: its first operator, an empty value. */
export function blankCondition(spec: ConditionSpec): DraftCondition {
  return { key: newKey('c'), type: spec.type, operator: spec.operators[0]?.code ?? '', value: '', products: [], fresh: true };
}

export function blankOutput(spec: OutputSpec, catalog: RuleCatalog): DraftOutput {
  return { key: newKey('o'), type: spec.type, products: [], collection_id: null, value: '', endpoint: spec.value === 'endpoint' ? (catalog.endpoints[0] ?? '') : '', fresh: true };
}

export function blankRule(catalog: RuleCatalog, position: number): DraftRule {
  const output = catalog.outputs[0];
  return {
    key: newKey('r'),
    name: `Rule ${position}`,
    enabled: true,
    exit_if_matched: false,
    groups: [],
    outputs: output ? [blankOutput(output, catalog)] : [],
  };
}

/**
 * The document the live preview runs: the draft without rows added and not yet touched, so a new
 * rule's empty rows do not stop the preview. `fullPath` maps a problem path of this document back
 * to the path the same row has in the saved document (what the rows show problems by).
 */
export function previewDocumentOf(draft: Draft, catalog: RuleCatalog): { document: Ruleset; fullPath(path: string): string } {
  const trimmed: Draft = {
    ...draft,
    rules: draft.rules.map((rule) => ({
      ...rule,
      groups: rule.groups.map((g) => ({ ...g, conditions: g.conditions.filter((c) => !c.fresh) })),
      outputs: rule.outputs.filter((o) => !o.fresh),
    })),
  };
  const fullPath = (path: string) => {
    const place = placeOf(path);
    const rule = place.rule !== undefined ? draft.rules[place.rule] : undefined;
    const kept = place.rule !== undefined ? trimmed.rules[place.rule] : undefined;
    if (!rule || !kept) return path;
    if (place.output !== undefined) {
      const index = rule.outputs.findIndex((o) => o.key === kept.outputs[place.output!]?.key);
      return path.replace(/\.output\[\d+\]/, `.output[${index}]`);
    }
    if (place.group !== undefined && place.condition !== undefined) {
      const group = kept.groups[draftGroupIndex(kept, place.group)];
      const key = group?.conditions[place.condition]?.key;
      const g = rule.groups.findIndex((x) => x.conditions.some((c) => c.key === key));
      const c = g < 0 ? -1 : rule.groups[g]!.conditions.findIndex((x) => x.key === key);
      const sentGroup = rule.groups.slice(0, g).filter((x) => x.conditions.length > 0).length;
      return path.replace(/\.logic\[\d+\]\.rules\[\d+\]/, `.logic[${sentGroup}].rules[${c}]`);
    }
    return path;
  };
  return { document: rulesetOf(trimmed, catalog), fullPath };
}

/** Whether a problem path points at a row added and not touched since. */
export function isFreshAt(draft: Draft, path: string): boolean {
  const place = placeOf(path);
  const rule = place.rule !== undefined ? draft.rules[place.rule] : undefined;
  if (!rule) return false;
  if (place.output !== undefined) return rule.outputs[place.output]?.fresh === true;
  if (place.group !== undefined && place.condition !== undefined) {
    return rule.groups[draftGroupIndex(rule, place.group)]?.conditions[place.condition]?.fresh === true;
  }
  return false;
}

/**
 * A row stays `fresh` (left out of the live preview) only while it still waits for a value its
 * type needs; choosing a type or operator alone does not make it ready.
 */
export function touchedCondition(condition: DraftCondition, catalog: RuleCatalog): DraftCondition {
  const operator = catalog.conditions.find((c) => c.type === condition.type)?.operators.find((o) => o.code === condition.operator);
  const waiting = operator !== undefined && operator.value !== 'none' && condition.value.trim() === '' && condition.products.length === 0;
  return { ...condition, fresh: condition.fresh === true && waiting };
}

export function touchedOutput(output: DraftOutput, catalog: RuleCatalog): DraftOutput {
  const kind = catalog.outputs.find((o) => o.type === output.type)?.value;
  const waiting = (kind === 'products' && output.products.length === 0) || (kind === 'collection' && output.collection_id === null)
    || (kind === 'tag_list' && output.value.trim() === '') || (kind === 'endpoint' && output.endpoint.trim() === '');
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

export const sameDocument = (a: Ruleset, b: Ruleset) => JSON.stringify(a) === JSON.stringify(b);

/** Where a server problem belongs: the ruleset, a rule, a condition or an output, by the JSON path of the 422. */
export interface ProblemPlace { rule?: number; group?: number; condition?: number; output?: number }

export function placeOf(path: string): ProblemPlace {
  const rule = /^rules\[(\d+)\]/.exec(path);
  if (!rule) return {};
  const place: ProblemPlace = { rule: Number(rule[1]) };
  const condition = /\.logic\[(\d+)\]\.rules\[(\d+)\]/.exec(path);
  if (condition) return { ...place, group: Number(condition[1]), condition: Number(condition[2]) };
  const output = /\.output\[(\d+)\]/.exec(path);
  if (output) return { ...place, output: Number(output[1]) };
  return place;
}

/**
 * The server's paths count groups as sent; the draft may hold empty groups the document drops.
 * Maps a sent group index back to the draft's.
 */
export function draftGroupIndex(rule: DraftRule, sentGroup: number): number {
  let seen = -1;
  for (let i = 0; i < rule.groups.length; i++) {
    if (rule.groups[i]!.conditions.length > 0) seen++;
    if (seen === sentGroup) return i;
  }
  return -1;
}

/** Problems for one condition row, one output row, one rule (not its rows) or the ruleset itself. */
export function problemsAt(problems: readonly Problem[], draft: Draft, at: { rule?: number; group?: number; condition?: number; output?: number }): Problem[] {
  return problems.filter((problem) => {
    const place = placeOf(problem.path);
    if (at.rule === undefined) return place.rule === undefined;
    if (place.rule !== at.rule) return false;
    const rule = draft.rules[at.rule];
    if (at.condition !== undefined) {
      return place.condition === at.condition && rule !== undefined && place.group !== undefined && draftGroupIndex(rule, place.group) === at.group;
    }
    if (at.output !== undefined) return place.output === at.output;
    return place.condition === undefined && place.output === undefined;
  });
}

/** A path's last part, for a message shown next to its row: `rules[0].logic[0].rules[1].value` → `value`. */
export const fieldOf = (path: string) => path.replace(/^.*\]\./, '').replace(/^rules\[\d+\]$/, 'rule');
