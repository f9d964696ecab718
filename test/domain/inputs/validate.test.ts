import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { InvalidDocumentError } from '../../../src/domain/errors.js';
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
      message: 'Expected integer to be less or equal to 365',
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
    expect(colour).toEqual({ path: 'style.accent', message: "Expected string to match '^#[0-9A-Fa-f]{6}$'" });
  });

  it('keeps the union error when two variants of the same kind are as near', () => {
    const either = Type.Union([Type.String({ minLength: 5 }), Type.String({ maxLength: 1 })]);
    expect(problemOf(Type.Object({ name: either }), { name: 'abc' })).toEqual({
      path: 'name',
      message: 'Expected union value',
    });
  });
});
