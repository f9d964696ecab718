import { describe, expect, it } from 'vitest';
import { initialEditorState, visibleProblems, type EditorState } from '../../console/src/editor/draft-reducer.js';
import { rulesetOf } from '../../console/src/editor/model.js';
import { apply, catalog, dirty, keysOf, problem, start, stored } from './editor-fixtures.js';

/** The ruleset editor's reducer: the ruleset, its rules, saving and the live preview's problems. */
const namesOf = (state: EditorState) => state.draft.rules.map((r) => r.name);

describe('ruleset editor reducer: the ruleset and its rules', () => {
  it('starts from a stored ruleset unchanged, or from a new ruleset with one blank rule, neither one dirty', () => {
    const state = start();
    expect(rulesetOf(state.draft, catalog).rules.map((r) => r.name)).toEqual(['A', 'B', 'C']);
    expect(dirty(state)).toBe(false);
    const fresh = initialEditorState(catalog, null, 'Saved X (version 1).');
    expect(fresh.draft).toMatchObject({
      id: null,
      name: 'New ruleset',
      rules: [{ name: 'Rule 1', groups: [], outputs: [{ type: 'product', fresh: true }] }],
    });
    expect(dirty(fresh)).toBe(false);
    expect(fresh.status).toEqual({ kind: 'ok', text: 'Saved X (version 1).' });
    expect(fresh.focus).toBeNull();
  });

  it('renames the ruleset and sets its switches, which makes it dirty until set back', () => {
    const renamed = apply(
      start(),
      { type: 'rename', name: 'Renamed' },
      { type: 'setRulesetFlag', flag: 'filter_oos', value: true },
    );
    expect(renamed.draft).toMatchObject({ name: 'Renamed', filter_oos: true });
    expect(dirty(renamed)).toBe(true);
    const back = apply(
      renamed,
      { type: 'rename', name: 'Stored' },
      { type: 'setRulesetFlag', flag: 'filter_oos', value: false },
    );
    expect(dirty(back)).toBe(false);
    expect(apply(start(), { type: 'setRulesetFlag', flag: 'enabled', value: false }).draft.enabled).toBe(false);
  });

  it('adds a rule named by its position with a key no row has yet, and hands focus to its name', () => {
    const before = start();
    const after = apply(before, { type: 'addRule' }, { type: 'addRule' });
    const [fourth, fifth] = after.draft.rules.slice(3);
    expect(namesOf(after)).toEqual(['A', 'B', 'C', 'Rule 4', 'Rule 5']);
    expect(fourth!.key).not.toBe(fifth!.key);
    const everyKey = after.draft.rules.flatMap((r) => [
      r.key,
      ...r.groups.flatMap((g) => [g.key, ...g.conditions.map((c) => c.key)]),
      ...r.outputs.map((o) => o.key),
    ]);
    expect(new Set(everyKey).size).toBe(everyKey.length);
    expect(after.keys).toBeGreaterThan(before.keys);
    expect(after.focus?.selectors).toEqual([`[data-rule="${fifth!.key}"] .rule-name`]);
  });

  it(
    'removes a rule and hands focus to the next rule, else the ' + 'previous one, else the add button; old problems go',
    () => {
      const state = apply(start(), { type: 'saveFailed', problems: [problem('rules[2].name')], reason: 'x' });
      const [a, b, c] = keysOf(state);
      const middle = apply(state, { type: 'removeRule', rule: b! });
      expect(namesOf(middle)).toEqual(['A', 'C']);
      expect(middle.focus?.selectors[0]).toBe(`[data-rule="${c}"] .drag-handle`);
      expect(middle.reported.problems).toEqual([]);
      const last = apply(state, { type: 'removeRule', rule: c! });
      expect(last.focus?.selectors[0]).toBe(`[data-rule="${b}"] .drag-handle`);
      const none = apply(
        state,
        { type: 'removeRule', rule: a! },
        { type: 'removeRule', rule: b! },
        { type: 'removeRule', rule: c! },
      );
      expect(none.draft.rules).toEqual([]);
      expect(none.focus?.selectors).toEqual(['#add-rule']);
      expect(apply(state, { type: 'removeRule', rule: 'gone' })).toBe(state);
    },
  );

  it('moves a rule by its buttons; focus stays on the button pressed, or on the other one at the top or bottom', () => {
    const state = start();
    const [a, , c] = keysOf(state);
    const up = apply(state, { type: 'moveRule', rule: c!, to: 1 });
    expect(namesOf(up)).toEqual(['A', 'C', 'B']);
    expect(up.focus?.selectors).toEqual([
      `[data-rule="${c}"] [data-move="up"]:not([disabled])`,
      `[data-rule="${c}"] [data-move="down"]:not([disabled])`,
      `[data-rule="${c}"] .drag-handle`,
    ]);
    const down = apply(state, { type: 'moveRule', rule: a!, to: 1 });
    expect(namesOf(down)).toEqual(['B', 'A', 'C']);
    expect(down.focus?.selectors[0]).toBe(`[data-rule="${a}"] [data-move="down"]:not([disabled])`);
    // Past either end, or onto itself, nothing changes at all.
    for (const to of [-1, 0, 3]) expect(apply(state, { type: 'moveRule', rule: a!, to })).toBe(state);
    expect(apply(state, { type: 'moveRule', rule: 'no-such-rule', to: 0 })).toBe(state);
  });

  it('drops a dragged rule where another one was, leaving focus to the drag and clearing old problems', () => {
    const state = apply(start(), { type: 'saveFailed', problems: [problem('rules[0].name')], reason: 'x' });
    const [a, , c] = keysOf(state);
    const dropped = apply(state, { type: 'dropRule', rule: a!, onto: c! });
    expect(namesOf(dropped)).toEqual(['B', 'C', 'A']);
    expect(dropped.focus).toBe(state.focus);
    expect(dropped.reported.problems).toEqual([]);
    expect(apply(state, { type: 'dropRule', rule: a!, onto: 'gone' })).toBe(state);
  });

  it('renames a rule and toggles its enabled and exit-if-matched switches', () => {
    const state = start();
    const [, b] = keysOf(state);
    const next = apply(
      state,
      { type: 'renameRule', rule: b!, name: 'Big carts' },
      { type: 'setRuleFlag', rule: b!, flag: 'enabled', value: true },
      { type: 'setRuleFlag', rule: b!, flag: 'exit_if_matched', value: false },
    );
    expect(next.draft.rules[1]).toMatchObject({ key: b, name: 'Big carts', enabled: true, exit_if_matched: false });
    expect(next.draft.rules[0]).toBe(state.draft.rules[0]);
    expect(apply(state, { type: 'renameRule', rule: 'gone', name: 'x' }).draft).toBe(state.draft);
  });
});

describe('ruleset editor reducer: saving and the live preview', () => {
  it('saves: busy while it runs, then the saved document is the new baseline and the message is polite', () => {
    const edited = apply(
      start(),
      { type: 'rename', name: 'Renamed' },
      { type: 'saveFailed', problems: [problem('name')], reason: 'x' },
    );
    const busy = apply(edited, { type: 'saveStarted' });
    expect(busy).toMatchObject({ saving: true, status: null });
    const document = rulesetOf(busy.draft, catalog);
    const saved = apply(busy, { type: 'saved', document, answer: { ...document, id: 4, version: 3 } });
    expect(saved).toMatchObject({
      saving: false,
      status: { kind: 'ok', text: 'Saved Renamed (version 3).' },
      reported: { problems: [] },
    });
    expect(dirty(saved)).toBe(false);
  });

  it(
    'a refused save says how many problems there are and shows ' +
      'them on their rows; without problems it gives the reason',
    () => {
      const problems = [problem('rules[0].logic[0].rules[0].value'), problem('rules[1].output[0].products')];
      const refused = apply(start(), { type: 'saveStarted' }, { type: 'saveFailed', problems, reason: 'unused' });
      expect(refused.saving).toBe(false);
      expect(refused.status).toEqual({ kind: 'error', text: 'Not saved: 2 problems, shown next to their rows.' });
      expect(visibleProblems(refused)).toEqual(problems);
      expect(apply(start(), { type: 'saveFailed', problems: [problems[0]!], reason: '' }).status?.text).toBe(
        'Not saved: 1 problem, shown next to its row.',
      );
      const offline = apply(start(), { type: 'saveFailed', problems: [], reason: 'The server could not be reached.' });
      expect(offline.status).toEqual({ kind: 'error', text: 'Not saved: The server could not be reached.' });
    },
  );

  it(
    "maps the preview's problem paths back to the rows, which " + 'count the untouched new rows the preview leaves out',
    () => {
      const state = start();
      const c = state.draft.rules[2]!.key;
      // Rule 3 gets a group of an untouched new row and then a ready
      // one (no value needed): the preview sends only the second.
      const added = apply(state, { type: 'addGroup', rule: c });
      const group = added.draft.rules[2]!.groups[0]!;
      const ready = apply(added, { type: 'addCondition', rule: c, group: group.key });
      const second = ready.draft.rules[2]!.groups[0]!.conditions[1]!.key;
      const both = apply(ready, { type: 'setConditionType', rule: c, condition: second, conditionType: 'customer' });
      const previewed = apply(both, {
        type: 'previewProblems',
        problems: [problem('rules[2].logic[0].rules[0].operator')],
      });
      expect(previewed.reported.source).toBe('preview');
      expect(previewed.reported.problems.map((p) => p.path)).toEqual(['rules[2].logic[0].rules[1].operator']);
    },
  );

  it("shows a preview's problems on untouched new rows only once they are touched; a save's at once", () => {
    const state = start();
    const [a] = keysOf(state);
    const withNew = apply(state, { type: 'addCondition', rule: a!, group: state.draft.rules[0]!.groups[0]!.key });
    const onNewRow = [problem('rules[0].logic[0].rules[1].products')];
    expect(visibleProblems({ ...withNew, reported: { source: 'preview', problems: onNewRow } })).toEqual([]);
    expect(visibleProblems({ ...withNew, reported: { source: 'save', problems: onNewRow } })).toEqual(onNewRow);
  });

  it(
    "a clean preview of changed rules clears a refusal's message but not a " +
      "success's, and a preview with problems leaves either",
    () => {
      const refused = apply(start(), { type: 'saveFailed', problems: [problem('name')], reason: 'x' });
      expect(apply(refused, { type: 'previewProblems', problems: [problem('name')] }).status?.kind).toBe('error');
      // Nothing changed since the refusal: a preview (which checks less than a save) leaves it and its problems.
      const same = apply(refused, { type: 'previewProblems', problems: [] });
      expect(same.status?.kind).toBe('error');
      expect(visibleProblems(same).map((p) => p.path)).toEqual(['name']);
      const renamed = apply(refused, { type: 'rename', name: 'Shorter' });
      expect(apply(renamed, { type: 'previewProblems', problems: [] }).status).toBeNull();
      const saved = apply(start(), { type: 'saved', document: stored, answer: stored });
      expect(apply(saved, { type: 'previewProblems', problems: [] }).status?.kind).toBe('ok');
    },
  );
});
