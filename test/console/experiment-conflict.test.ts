import { describe, expect, it } from 'vitest';
import { experimentConflictText } from '../../console/src/experiments/conflict-words.js';

describe("a new experiment's refusal", () => {
  it("says an arm clashing with a running experiment's arm in a merchant's words", () => {
    const said = experimentConflictText({
      status: 409,
      message: 'Arm "B" would send the same source as an arm of running experiment 4; name it differently.',
    });
    expect(said).toBe(
      'Another running experiment (#4) already sends visitors to this ruleset through an arm named “B”, so their ' +
        'figures could not be told apart. Name this arm differently, or stop that experiment.',
    );
    expect(said).not.toContain('source');
  });

  it('leaves every other refusal to the server', () => {
    expect(
      experimentConflictText({ status: 409, message: 'Ruleset 3 already has a running experiment; stop it first.' }),
    ).toBeNull();
    expect(
      experimentConflictText({
        status: 422,
        message: 'Arm "B" would send the same source as an arm of running ' + 'experiment 4; name it differently.',
      }),
    ).toBeNull();
    expect(experimentConflictText(new Error('The server could not be reached.'))).toBeNull();
  });
});
