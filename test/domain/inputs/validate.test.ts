import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { InvalidDocumentError } from '../../../src/domain/errors.js';
import { CampaignInput } from '../../../src/domain/inputs/billing.js';
import { ExperimentInput } from '../../../src/domain/inputs/experiment.js';
import { RulesetInput } from '../../../src/domain/inputs/ruleset.js';
import { ShopPatchInput } from '../../../src/domain/inputs/shop.js';
import { validateDocument } from '../../../src/domain/inputs/validate.js';
import { WidgetInput } from '../../../src/domain/widgets/widget.js';
import { widgetInput } from '../../helpers/widgets.js';
import { productInput } from '../../helpers/fixtures.js';
import * as billingInputs from '../../../src/domain/inputs/billing.js';
import * as catalogInputs from '../../../src/domain/inputs/catalog.js';
import * as experimentInputs from '../../../src/domain/inputs/experiment.js';
import * as shopInputs from '../../../src/domain/inputs/shop.js';
import * as tokenInputs from '../../../src/domain/inputs/token.js';
import * as connectionInputs from '../../../src/services/platform/connection.js';
import * as billingProviderInputs from '../../../src/domain/inputs/billing-provider.js';
import * as rulesetInputs from '../../../src/domain/inputs/ruleset.js';
import * as widgetInputs from '../../../src/domain/widgets/widget.js';

const { ProductInput } = catalogInputs;
const INPUT_MODULES = {
  billingInputs,
  catalogInputs,
  experimentInputs,
  shopInputs,
  tokenInputs,
  connectionInputs,
  billingProviderInputs,
  rulesetInputs,
  widgetInputs,
};

/** The one problem a document is refused with: its path and message. */
function problemOf(schema: Parameters<typeof validateDocument>[0], value: unknown): { path: string; message: string } {
  try {
    validateDocument(schema, value, 'document');
  } catch (error) {
    if (error instanceof InvalidDocumentError) return error.problems[0] as { path: string; message: string };
    throw error;
  }
  throw new Error('accepted');
}

describe('the problem a document that matches no variant of a union is told', () => {
  it('is that of the variant of its kind: a setting out of range, not that it is not null', () => {
    expect(problemOf(ShopPatchInput, { settings: { trending_window_days: 1000 } })).toEqual({
      path: 'settings.trending_window_days',
      message: 'must be at most 365',
    });
  });

  it('lists what each variant expects when the value is of none of their kinds', () => {
    expect(problemOf(ShopPatchInput, { settings: { trending_window_days: 'x' } })).toEqual({
      path: 'settings.trending_window_days',
      message: 'must be a whole number or null',
    });
    expect(problemOf(ShopPatchInput, { settings: { trending_window_days: 1.5 } }).message).toBe(
      'must be a whole number or null',
    );
    expect(problemOf(WidgetInput, { ...widgetInput(), layout: 'list' })).toEqual({
      path: 'layout',
      message: 'must be "grid" or "carousel"',
    });
  });

  it('is the nearest variant of a list source, and the pattern of a colour that may be null', () => {
    expect(problemOf(WidgetInput, { ...widgetInput(), source: { list: 'top_sellers', limit: 500 } }).path).toBe(
      'source.limit',
    );
    const colour = problemOf(WidgetInput, { ...widgetInput(), style: { accent: 'red', text: null, font: null } });
    expect(colour).toEqual({ path: 'style.accent', message: 'must be a colour written #rrggbb, such as #1a73e8' });
  });

  it('keeps the union error when two variants of the same kind are as near', () => {
    const either = Type.Union([Type.String({ minLength: 5 }), Type.String({ maxLength: 1 })]);
    expect(problemOf(Type.Object({ name: either }), { name: 'abc' })).toEqual({
      path: 'name',
      message: 'Expected union value',
    });
  });
});

/** Problems in words a merchant reads in the console, not the validator's (docs/api.md, "Errors"). */
describe('the words of a problem', () => {
  it('refuse a name of blanks for whatever the console lists by name', () => {
    const blank = { path: 'name', message: 'must not be blank' };
    expect(problemOf(RulesetInput, { name: '   ', rules: [] })).toEqual(blank);
    expect(problemOf(WidgetInput, { ...widgetInput(), name: ' \t ' })).toEqual(blank);
    expect(problemOf(CampaignInput, { name: '  ', discount_code: null })).toEqual(blank);
    expect(problemOf(ShopPatchInput, { name: '  ' })).toEqual(blank);
    const arms = [
      { name: 'a', ruleset_id: 1, weight: 1 },
      { name: 'b', ruleset_id: 2, weight: 1 },
    ];
    expect(problemOf(ExperimentInput, { name: '   ', ruleset_id: 1, arms })).toEqual(blank);
  });

  it('say lengths, bounds and patterns plainly', () => {
    expect(problemOf(RulesetInput, { name: 'x'.repeat(201), rules: [] })).toEqual({
      path: 'name',
      message: 'must be at most 200 characters',
    });
    expect(problemOf(RulesetInput, { name: '', rules: [] }).message).toBe('must not be empty');
    expect(problemOf(ShopPatchInput, { currency: 'usd' })).toEqual({
      path: 'currency',
      message: 'must be a three-letter currency code in capitals, such as USD',
    });
    expect(problemOf(CampaignInput, { name: 'Spring', discount_code: 'SAVE 10' }).message).toBe(
      "may hold only letters, digits, '-' and '_' (at most 100)",
    );
    expect(problemOf(ShopPatchInput, { settings: { trending_window_days: 0 } }).message).toBe('must be at least 1');
  });

  it('say formats and kinds plainly, with an example', () => {
    const product = { ...productInput(1) };
    expect(problemOf(ProductInput, { ...product, handle: 'a,b' })).toEqual({
      path: 'handle',
      message: 'must not hold blanks, slashes, commas, ? or #',
    });
    const timestamp = 'must be a real date and time with its offset, such as 2026-11-29T10:00:00Z';
    expect(problemOf(ProductInput, { ...product, updated_at: 'yesterday' }).message).toBe(timestamp);
    // An offset given, the date or the time impossible: the message says real, not only offset.
    for (const updated_at of ['2026-02-30T00:00:00Z', '2026-11-01T24:30:00Z', '2026-11-01T10:00:00+25:00'])
      expect(problemOf(ProductInput, { ...product, updated_at }).message, updated_at).toBe(timestamp);
    expect(problemOf(ProductInput, { ...product, title: 12 }).message).toBe('must be text');
    // A list of one value: the value, not the validator's `Expected 'read_markets'`.
    expect(problemOf(shopInputs.NewShopInput, { handle: 'h', name: 'H', scopes: ['read_products'] })).toEqual({
      path: 'scopes[0]',
      message: 'must be "read_markets"',
    });
    expect(problemOf(billingProviderInputs.BillingProviderInput, { type: 'remote', api_version: '2022-01' })).toEqual({
      path: 'api_version',
      message: 'must be "2021-11"',
    });
    expect(problemOf(ProductInput, { ...product, variants: [{ id: 1, price: 'cheap' }] }).message).toBe(
      'must be a decimal amount below 900000000000, such as "19.99"',
    );
  });

  it('have words for every pattern of the documents an API caller or a merchant sends', () => {
    const bare: string[] = [];
    const walk = (schema: unknown, where: string) => {
      if (schema === null || typeof schema !== 'object') return;
      const node = schema as Record<string, unknown>;
      if (typeof node.pattern === 'string' && typeof node.patternMessage !== 'string') bare.push(where);
      for (const [key, child] of Object.entries(node)) walk(child, `${where}.${key}`);
    };
    for (const [name, module] of Object.entries(INPUT_MODULES))
      for (const [exported, value] of Object.entries(module)) walk(value, `${name}.${exported}`);
    expect(bare).toEqual([]);
  });
});
