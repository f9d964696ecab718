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
      message: 'Expected integer or null',
    });
    expect(problemOf(WidgetInput, { ...widgetInput(), layout: 'list' })).toEqual({
      path: 'layout',
      message: "Expected 'grid' or 'carousel'",
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
});
