import type { Dispatch } from 'react';
import type { RuleCatalog } from '../types';
import type { EditorAction } from './draft-reducer';
import type { DraftRule } from './model';
import { OutputRow } from './OutputRow';
import type { RuleProblems } from './placement';

/** A rule's RETURN part: output rows whose products are appended in order. */
export function RuleOutputs({
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
    <div className="outputs">
      {rule.outputs.map((output, o) => (
        <OutputRow
          key={output.key}
          rule={rule.key}
          output={output}
          index={o}
          count={rule.outputs.length}
          catalog={catalog}
          keyword={o === 0 ? 'RETURN' : 'AND'}
          label={`Rule ${number}, output ${o + 1}`}
          problems={problems.output(o)}
          dispatch={dispatch}
        />
      ))}
      {rule.outputs.length === 0 && (
        <p className="keyword-row">
          <span className="keyword">RETURN</span> <span className="muted">nothing yet</span>
        </p>
      )}
      <button
        type="button"
        className="add"
        data-add="output"
        onClick={() => dispatch({ type: 'addOutput', rule: rule.key })}
      >
        {rule.outputs.length === 0 ? '+ RETURN' : '+ AND return'}
      </button>
    </div>
  );
}
