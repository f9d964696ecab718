/** Shared builders for the rules-engine tests: plain requests and worlds, no databases involved. */
import { expect } from 'vitest';
import { compileRulesetInput, type ReferenceCheck } from '../../../src/domain/rules/compile.js';
import { InvalidDocumentError } from '../../../src/domain/errors.js';
import { evaluateRuleset } from '../../../src/domain/rules/evaluate.js';
import type { InputProduct, RuleRequest, RuleWorld } from '../../../src/domain/rules/types.js';

/** A condition as a client writes it in a ruleset body. */
export interface ConditionBody {
  type: string;
  operator?: string;
  value?: string;
  products?: { product_id: number; variant_ids?: number[] }[];
}

/** 2024-06-12T15:00:00Z, a Wednesday; the default request time. */
export const DEFAULT_TIME = Date.UTC(2024, 5, 12, 15, 0, 0);

export function request(overrides: Partial<RuleRequest> = {}): RuleRequest {
  return {
    productIds: null,
    variantIds: null,
    customerId: null,
    cartSubtotal: null,
    cartItemCount: null,
    cartLineCount: null,
    time: DEFAULT_TIME,
    url: null,
    countryCode: null,
    ...overrides,
  };
}

export function inputProduct(id: number, overrides: Partial<InputProduct> = {}): InputProduct {
  return {
    id,
    handle: `product-${id}`,
    productType: '',
    vendor: '',
    tags: [],
    collections: [],
    requestedVariantIds: [],
    ...overrides,
  };
}

export interface WorldOptions {
  timezone?: string;
  inputProducts?: readonly InputProduct[];
  /** Stored customers' tags by id; an id missing here is an unknown customer (null). */
  customerTags?: Record<number, readonly string[]>;
  /** Stored customers' purchased product ids by id; missing = unknown customer (null). */
  purchased?: Record<number, readonly number[]>;
}

export function world(options: WorldOptions = {}): RuleWorld {
  const tags = options.customerTags ?? {};
  const purchased = options.purchased ?? {};
  return {
    timezone: options.timezone ?? 'UTC',
    inputProducts: options.inputProducts ?? [],
    customerTags: (id) => tags[id] ?? null,
    customerPurchased: (id) => (purchased[id] ? new Set(purchased[id]) : null),
  };
}

/** A ruleset body with one rule holding one group with the given conditions. */
export function oneRuleBody(conditions: ConditionBody[]): unknown {
  return { name: 'test', rules: [{ logic: [{ rules: conditions }], output: [{ type: 'none' }] }] };
}

/** Compiles a one-rule ruleset with this single condition and evaluates it: did the rule match? */
export function matches(condition: ConditionBody, req: RuleRequest, w: RuleWorld): boolean {
  const compiled = compileRulesetInput(oneRuleBody([condition]));
  const evaluation = evaluateRuleset(compiled, req, w);
  expect(evaluation.matched.length + evaluation.unmatched.length).toBe(1);
  return evaluation.matched.length === 1;
}

/** The problems of an invalid body; fails the test when the body compiles. */
export function problemsOf(body: unknown, references?: ReferenceCheck): { path: string; message: string }[] {
  try {
    compileRulesetInput(body, references);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidDocumentError);
    return (error as InvalidDocumentError).problems.map(({ path, message }) => ({ path, message }));
  }
  throw new Error('expected the ruleset to be rejected, but it compiled');
}
