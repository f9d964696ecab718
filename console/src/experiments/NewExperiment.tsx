import { useId, useMemo, useState } from 'react';
import { useConsole } from '../context';
import type { Experiment } from './types';
import { ActionMessage } from '../components/ActionMessage';
import { refusal } from '../problem-words';
import { experimentConflictText } from './conflict-words';

interface RulesetRef {
  id: number;
  name: string;
  enabled: boolean;
}
interface ArmDraft {
  name: string;
  ruleset: string;
  weight: string;
}

const EMPTY = 'empty';

/**
 * Starts an experiment: a ruleset, and its arms with their rulesets (or the empty control) and
 * weights. A ruleset already under test cannot be picked (the server would refuse it), and arm A —
 * the one the others are compared with — is the picked ruleset until the merchant changes it.
 */
export function NewExperiment({
  rulesets,
  underTest,
  onCreated,
}: {
  rulesets: RulesetRef[];
  underTest: ReadonlySet<number>;
  onCreated(experiment: Experiment): void;
}) {
  const { api, shop } = useConsole();
  const ids = useId();
  const free = rulesets.filter((r) => !underTest.has(r.id));
  const first = free[0]?.id ?? 0;
  const [name, setName] = useState('');
  const [ruleset, setRuleset] = useState(String(first));
  const [arms, setArms] = useState<ArmDraft[]>([
    { name: 'A', ruleset: String(first), weight: '1' },
    { name: 'B', ruleset: String(rulesets.find((r) => r.id !== first)?.id ?? EMPTY), weight: '1' },
  ]);
  const pick = (next: string) => {
    // Arm A follows the ruleset under test when it was serving the previous pick.
    setArms((list) => list.map((a, i) => (i === 0 && a.ruleset === ruleset ? { ...a, ruleset: next } : a)));
    setRuleset(next);
  };
  const [error, setError] = useState<string | null>(null);
  // One object per refusal: the message takes focus when it changes, not on every render while it shows.
  const said = useMemo(() => (error ? { error: true, text: error } : null), [error]);
  const [busy, setBusy] = useState(false);

  const change = (i: number, patch: Partial<ArmDraft>) =>
    setArms((list) => list.map((a, j) => (j === i ? { ...a, ...patch } : a)));
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const body = {
        name: name.trim(),
        ruleset_id: Number(ruleset),
        arms: arms.map((a) => ({
          name: a.name.trim(),
          ruleset_id: a.ruleset === EMPTY ? null : Number(a.ruleset),
          weight: Number(a.weight),
        })),
      };
      const { experiment } = await api.send<{ experiment: Experiment }>(
        'POST',
        `/shops/${encodeURIComponent(shop.handle)}/experiments`,
        body,
      );
      onCreated(experiment);
    } catch (e) {
      setError(
        experimentConflictText(e as Error) ??
          refusal(e, {
            name: 'Name',
            ruleset_id: 'Ruleset under test',
            'arms[].name': 'Name of arm',
            'arms[].ruleset_id': 'Ruleset of arm',
            'arms[].weight': 'Weight of arm',
          }),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="experiment-form"
      aria-labelledby={`${ids}-h`}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h2 id={`${ids}-h`}>New experiment</h2>
      <p className="muted">
        Visitors of the ruleset are split between the arms by weight, each visitor always to the same arm. The first arm
        is the one the others are compared with.
      </p>
      <div className="field">
        <label htmlFor={`${ids}-name`}>Name</label>
        <input id={`${ids}-name`} value={name} required maxLength={200} onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${ids}-ruleset`}>Ruleset under test (its widget tags keep working)</label>
        <select id={`${ids}-ruleset`} value={ruleset} onChange={(e) => pick(e.target.value)}>
          {rulesets.map((r) => (
            <option key={r.id} value={r.id} disabled={underTest.has(r.id)}>
              {r.name} (#{r.id}){underTest.has(r.id) ? ' — already in a running experiment' : ''}
            </option>
          ))}
        </select>
        {free.length === 0 && (
          <p className="muted">Every ruleset is already in a running experiment: stop one first.</p>
        )}
      </div>
      <fieldset>
        <legend>Arms</legend>
        {arms.map((arm, i) => (
          <div className="arm-row" key={i}>
            <span className="field inline">
              <label htmlFor={`${ids}-arm${i}`}>Arm {i + 1} name</label>
              <input
                id={`${ids}-arm${i}`}
                value={arm.name}
                required
                maxLength={64}
                size={10}
                onChange={(e) => change(i, { name: e.target.value })}
              />
            </span>
            <span className="field inline">
              <label htmlFor={`${ids}-arm${i}-rs`}>
                <span className="visually-hidden">Arm {i + 1} </span>served by
              </label>
              <select
                id={`${ids}-arm${i}-rs`}
                value={arm.ruleset}
                onChange={(e) => change(i, { ruleset: e.target.value })}
              >
                {rulesets.map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.name} (#{r.id})
                  </option>
                ))}
                <option value={EMPTY}>Empty control (no products)</option>
              </select>
            </span>
            <span className="field inline">
              <label htmlFor={`${ids}-arm${i}-w`}>
                <span className="visually-hidden">Arm {i + 1} </span>weight
              </label>
              <input
                id={`${ids}-arm${i}-w`}
                type="number"
                min="0.01"
                step="any"
                value={arm.weight}
                size={4}
                onChange={(e) => change(i, { weight: e.target.value })}
              />
            </span>
            {arms.length > 2 && (
              <button type="button" onClick={() => setArms((list) => list.filter((_, j) => j !== i))}>
                Remove arm {i + 1}
              </button>
            )}
          </div>
        ))}
        {arms.length < 10 && (
          <button
            type="button"
            onClick={() =>
              setArms((list) => [...list, { name: String.fromCharCode(65 + list.length), ruleset: EMPTY, weight: '1' }])
            }
          >
            Add an arm
          </button>
        )}
      </fieldset>
      <ActionMessage message={said} />
      <button type="submit" className="primary" disabled={busy || free.length === 0}>
        Start the experiment
      </button>
    </form>
  );
}
