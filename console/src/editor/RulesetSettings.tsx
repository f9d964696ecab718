import { useId, type Dispatch } from 'react';
import type { EditorAction } from './draft-reducer';
import type { Problem } from '../types';
import type { Draft } from './model';
import { Problems } from './Problems';

const FLAGS = [
  ['enabled', 'Enabled'],
  ['filter_oos', 'Hide out-of-stock products'],
  ['filter_input_products', 'Hide the input products'],
] as const;

/** The ruleset's own fields: its name and the switches that apply to every rule. */
export function RulesetSettings({
  draft,
  problems,
  dispatch,
  runningTest,
  shownBy,
}: {
  draft: Draft;
  /** The server's problems with the ruleset's own fields, shown under the name and read with it. */
  problems: Problem[];
  dispatch: Dispatch<EditorAction>;
  /** The name of the running experiment testing this ruleset, if any. */
  runningTest: string | null;
  /** The widgets that show this ruleset, by name, read when the merchant switches it off; null before it is saved. */
  shownBy: (() => Promise<string[]>) | null;
}) {
  const nameId = useId();
  const invalid = problems.length > 0;
  const setFlag = (flag: (typeof FLAGS)[number][0], value: boolean) => {
    const breaksTest =
      flag === 'enabled' &&
      !value &&
      runningTest !== null &&
      !window.confirm(
        `Disable this ruleset while the experiment “${runningTest}” runs?\n\n` +
          'Once saved, the ruleset answers no products to any visitor, in every arm it serves, ' +
          "and the experiment's figures stop meaning anything.",
      );
    if (breaksTest) return;
    if (flag !== 'enabled' || value || shownBy === null) return dispatch({ type: 'setRulesetFlag', flag, value });
    // Switched off: the widgets that show it would show nothing once saved.
    void shownBy()
      .catch(() => [])
      .then((names) => {
        const asked =
          names.length === 0 ||
          window.confirm(
            `Disable this ruleset? Once saved, the widgets that show it (${names.map((n) => `“${n}”`).join(', ')}) ` +
              'show nothing until it is enabled again; to change one of them meanwhile, give it another source.',
          );
        if (asked) dispatch({ type: 'setRulesetFlag', flag, value });
      });
  };
  return (
    <div className="settings">
      <div className="field">
        <label htmlFor={nameId}>Ruleset name</label>
        <input
          id={nameId}
          value={draft.name}
          required
          maxLength={200}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? `${nameId}-problems` : undefined}
          onChange={(e) => dispatch({ type: 'rename', name: e.target.value })}
        />
        <Problems problems={problems} id={`${nameId}-problems`} />
      </div>
      {FLAGS.map(([flag, label]) => (
        <label key={flag} className="toggle">
          <input type="checkbox" checked={draft[flag]} onChange={(e) => setFlag(flag, e.target.checked)} /> {label}
        </label>
      ))}
    </div>
  );
}
