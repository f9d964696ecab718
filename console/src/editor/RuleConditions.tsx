import type { Dispatch } from 'react';
import type { RuleCatalog } from '../types';
import { ConditionRow } from './ConditionRow';
import type { EditorAction } from './draft-reducer';
import type { DraftRule } from './model';
import type { RuleProblems } from './placement';

/** A rule's IF part: groups of AND IF rows, joined by OR IF; no group at all means the rule always matches. */
export function RuleConditions({
  rule,
  number,
  catalog,
  problems,
  dispatch,
}: {
  rule: DraftRule;
  number: number;
  catalog: RuleCatalog;
  problems: RuleProblems;
  dispatch: Dispatch<EditorAction>;
}) {
  return (
    <div className="logic">
      {rule.groups.length === 0 && (
        <p className="keyword-row">
          <span className="keyword">IF</span> <span className="muted">anything — this rule always matches</span>
        </p>
      )}
      {rule.groups.map((group, g) => (
        <div key={group.key}>
          {g > 0 && <p className="keyword or">OR IF</p>}
          <fieldset className="group" aria-label={`Rule ${number}, group ${g + 1}`}>
            {group.conditions.map((condition, c) => (
              <ConditionRow
                key={condition.key}
                rule={rule.key}
                condition={condition}
                catalog={catalog}
                keyword={c === 0 ? (g === 0 ? 'IF' : '') : 'AND IF'}
                label={`Rule ${number}, group ${g + 1}, condition ${c + 1}`}
                problems={problems.condition(g, c)}
                dispatch={dispatch}
              />
            ))}
            <button
              type="button"
              className="add"
              onClick={() => dispatch({ type: 'addCondition', rule: rule.key, group: group.key })}
            >
              + AND IF
            </button>
          </fieldset>
        </div>
      ))}
      <button
        type="button"
        className="add"
        data-add="condition"
        onClick={() => dispatch({ type: 'addGroup', rule: rule.key })}
      >
        {rule.groups.length === 0 ? '+ IF condition' : '+ OR IF'}
      </button>
    </div>
  );
}
