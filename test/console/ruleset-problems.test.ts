import { describe, expect, it } from 'vitest';
import { previewWaitText, withoutRepeats } from '../../console/src/editor/placement.js';

describe("the ruleset editor's problems", () => {
  it('says an emptied field is empty once, not also blank', () => {
    const name = [
      { path: 'name', message: 'must not be empty' },
      { path: 'name', message: 'must not be blank' },
    ];
    expect(withoutRepeats(name)).toEqual([{ path: 'name', message: 'must not be empty' }]);
    // Blank only (spaces typed): that is the one thing to say.
    expect(withoutRepeats([{ path: 'name', message: 'must not be blank' }])).toHaveLength(1);
    // Another field's "empty" does not hide this one's "blank".
    const two = [
      { path: 'rules[0].name', message: 'must not be empty' },
      { path: 'name', message: 'must not be blank' },
    ];
    expect(withoutRepeats(two)).toEqual(two);
  });

  it('points the preview at where the problems are marked', () => {
    const name = { path: 'name', message: 'must not be empty' };
    const rule = { path: 'rules[0].logic[0].rules[1].value', message: 'must be a number' };
    expect(previewWaitText([name])).toBe(
      'The preview runs again once the problems marked in the ruleset settings are fixed.',
    );
    expect(previewWaitText([rule])).toBe('The preview runs again once the problems marked in the rules are fixed.');
    expect(previewWaitText([name, rule])).toContain('in the ruleset settings and the rules');
  });
});
