import { useId, type Dispatch } from 'react';
import type { EditorAction } from './draft-reducer';
import type { Draft } from './model';

const FLAGS = [
  ['enabled', 'Enabled'],
  ['filter_oos', 'Hide out-of-stock products'],
  ['filter_input_products', 'Hide the input products'],
] as const;

/** The ruleset's own fields: its name and the switches that apply to every rule. */
export function RulesetSettings({
  draft,
  invalid,
  dispatch,
  runningTest,
}: {
  draft: Draft;
  invalid: boolean;
  dispatch: Dispatch<EditorAction>;
  /** The name of the running experiment testing this ruleset, if any. */
  runningTest: string | null;
}) {
  const nameId = useId();
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
    if (!breaksTest) dispatch({ type: 'setRulesetFlag', flag, value });
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
          onChange={(e) => dispatch({ type: 'rename', name: e.target.value })}
        />
      </div>
      {FLAGS.map(([flag, label]) => (
        <label key={flag} className="toggle">
          <input type="checkbox" checked={draft[flag]} onChange={(e) => setFlag(flag, e.target.checked)} /> {label}
        </label>
      ))}
    </div>
  );
}
