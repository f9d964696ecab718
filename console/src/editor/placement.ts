import type { Problem, RuleCatalog, Ruleset } from '../types.js';
import { rulesetOf, type Draft, type DraftRule } from './model.js';

/** Where a server problem belongs: the ruleset, a rule, a condition or an output, by the JSON path of the 422. */
export interface ProblemPlace {
  rule?: number;
  group?: number;
  condition?: number;
  output?: number;
}

/** The place a problem path names: `rules[0].logic[1].rules[2].value` → rule 0, group 1, condition 2. */
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
export function problemsAt(problems: readonly Problem[], draft: Draft, at: ProblemPlace): Problem[] {
  return problems.filter((problem) => {
    const place = placeOf(problem.path);
    if (at.rule === undefined) return place.rule === undefined;
    if (place.rule !== at.rule) return false;
    const rule = draft.rules[at.rule];
    if (at.condition !== undefined) {
      return (
        place.condition === at.condition &&
        rule !== undefined &&
        place.group !== undefined &&
        draftGroupIndex(rule, place.group) === at.group
      );
    }
    if (at.output !== undefined) return place.output === at.output;
    return place.condition === undefined && place.output === undefined;
  });
}

/** One rule's problems: its own, and a lookup for each of its rows by position. */
export interface RuleProblems {
  rule: Problem[];
  condition(group: number, index: number): Problem[];
  output(index: number): Problem[];
}

/** The problems of the rule at `index`, split as its rows show them. */
export function ruleProblems(problems: readonly Problem[], draft: Draft, index: number): RuleProblems {
  return {
    rule: problemsAt(problems, draft, { rule: index }),
    condition: (group, condition) => problemsAt(problems, draft, { rule: index, group, condition }),
    output: (output) => problemsAt(problems, draft, { rule: index, output }),
  };
}

/** Problems no row can show (a rule or group the draft no longer has): the editor lists them at the top. */
export function orphanProblems(problems: readonly Problem[], draft: Draft): Problem[] {
  return problems.filter((p) => {
    const place = placeOf(p.path);
    if (place.rule === undefined) return false;
    const rule = draft.rules[place.rule];
    if (!rule) return true;
    return place.group !== undefined && draftGroupIndex(rule, place.group) < 0;
  });
}

/** A path's last part, for a message shown next to its row: `rules[0].logic[0].rules[1].value` → `value`. */
export const fieldOf = (path: string) => path.replace(/^.*\]\./, '').replace(/^rules\[\d+\]$/, 'rule');

/** The rule editor's fields as a merchant reads them, by the key a problem names. */
const FIELD_WORDS: Record<string, string> = {
  value: 'The value',
  products: 'Products',
  product_id: 'The product',
  variant_ids: 'Variants',
  collection_id: 'The collection',
  endpoint: 'The list',
  operator: 'The comparison',
  type: 'The kind',
  name: 'The name',
  rule: 'The rule',
  output: 'The products to show',
  logic: 'The conditions',
};

/** The field a problem is about, in words: `The value`, not `value`. */
export const fieldWordOf = (path: string) => {
  const field = fieldOf(path);
  return FIELD_WORDS[field] ?? field;
};

/** The draft without rows added and not yet touched. */
function withoutFreshRows(draft: Draft): Draft {
  return {
    ...draft,
    rules: draft.rules.map((rule) => ({
      ...rule,
      groups: rule.groups.map((g) => ({ ...g, conditions: g.conditions.filter((c) => !c.fresh) })),
      outputs: rule.outputs.filter((o) => !o.fresh),
    })),
  };
}

/**
 * The document the live preview runs: the draft without rows added and not yet touched, so a new
 * rule's empty rows do not stop the preview. `fullPath` maps a problem path of this document back
 * to the path the same row has in the saved document (what the rows show problems by).
 */
export function previewDocumentOf(
  draft: Draft,
  catalog: RuleCatalog,
): { document: Ruleset; fullPath(path: string): string } {
  const trimmed = withoutFreshRows(draft);
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
 * The server's problems with one said once: an emptied name breaks both "not empty" and "not blank",
 * and the second says nothing the first did not.
 */
export function withoutRepeats(problems: readonly Problem[]): Problem[] {
  const emptied = new Set(problems.filter((p) => p.message === 'must not be empty').map((p) => p.path));
  return problems.filter((p) => !(p.message === 'must not be blank' && emptied.has(p.path)));
}

/** What the preview says while problems stop it: where they are marked, the ruleset's settings or its rules. */
export function previewWaitText(problems: readonly Problem[]): string {
  const inRules = problems.some((p) => placeOf(p.path).rule !== undefined);
  const inSettings = problems.some((p) => placeOf(p.path).rule === undefined);
  const where =
    inRules && inSettings
      ? 'in the ruleset settings and the rules'
      : inRules
        ? 'in the rules'
        : 'in the ruleset settings';
  return `The preview runs again once the problems marked ${where} are fixed.`;
}
