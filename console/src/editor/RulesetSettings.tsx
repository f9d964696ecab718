import { useId, type Dispatch } from 'react';
import type { EditorAction } from './draft-reducer';
import type { Draft } from './model';

const FLAGS = [
  ['enabled', 'Enabled'],
  ['filter_oos', 'Hide out-of-stock products'],
  ['filter_input_products', 'Hide the input products'],
] as const;

/** The ruleset's own fields: its name and the switches that apply to every rule. */
export function RulesetSettings({ draft, invalid, dispatch }: { draft: Draft; invalid: boolean; dispatch: Dispatch<EditorAction> }) {
  const nameId = useId();
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
          <input type="checkbox" checked={draft[flag]} onChange={(e) => dispatch({ type: 'setRulesetFlag', flag, value: e.target.checked })} /> {label}
        </label>
      ))}
    </div>
  );
}
