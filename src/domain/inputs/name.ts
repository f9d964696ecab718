import { Type } from '@sinclair/typebox';

/**
 * A name a merchant gives and the console shows (a shop, a ruleset, a widget, an experiment, a
 * campaign): one of blanks only would show as nothing in its lists and headings.
 */
export const DisplayName = () =>
  Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', patternMessage: 'must not be blank' });
