import { useId, type Dispatch } from 'react';
import type { Problem, RuleCatalog } from '../types';
import type { EditorAction } from './draft-reducer';
import type { DraftOutput } from './model';
import { OutputValue } from './OutputValue';
import { Problems } from './Problems';

/** One output: its type, the value its type needs, move buttons when there are several, and its problems. */
export function OutputRow({
  rule,
  output,
  index,
  count,
  catalog,
  keyword,
  label,
  problems,
  dispatch,
}: {
  rule: string;
  output: DraftOutput;
  index: number;
  count: number;
  catalog: RuleCatalog;
  keyword: string;
  label: string;
  problems: Problem[];
  dispatch: Dispatch<EditorAction>;
}) {
  const typeId = useId();
  const problemId = useId();
  const spec = catalog.outputs.find((o) => o.type === output.type);
  const invalid = problems.length > 0;
  const at = { rule, output: output.key };
  const name = label.toLowerCase();
  return (
    <fieldset className={`row output${invalid ? ' row-invalid' : ''}`} aria-label={label} data-row={output.key}>
      <span className="keyword">{keyword}</span>
      <label htmlFor={typeId} className="visually-hidden">
        Output type
      </label>
      <select
        id={typeId}
        value={output.type}
        onChange={(e) => dispatch({ type: 'setOutputType', ...at, outputType: e.target.value })}
      >
        {!spec && <option value={output.type}>Unknown: {output.type}</option>}
        {catalog.outputs.map((o) => (
          <option key={o.type} value={o.type}>
            {o.label}
          </option>
        ))}
      </select>
      <span className="value">
        <OutputValue
          output={output}
          catalog={catalog}
          onValue={(value) => dispatch({ type: 'setOutputValue', ...at, value })}
          invalid={invalid}
          describedBy={invalid ? problemId : undefined}
        />
      </span>
      {count > 1 && (
        <>
          <button
            type="button"
            className="icon-button"
            data-output-move="up"
            disabled={index === 0}
            onClick={() => dispatch({ type: 'moveOutput', ...at, to: index - 1 })}
            aria-label={`Move ${name} up`}
          >
            ↑
          </button>
          <button
            type="button"
            className="icon-button"
            data-output-move="down"
            disabled={index === count - 1}
            onClick={() => dispatch({ type: 'moveOutput', ...at, to: index + 1 })}
            aria-label={`Move ${name} down`}
          >
            ↓
          </button>
        </>
      )}
      <button
        type="button"
        className="icon-button"
        onClick={() => dispatch({ type: 'removeOutput', ...at })}
        aria-label={`Remove ${name}`}
      >
        ×
      </button>
      {spec && spec.value === 'none' && <span className="muted hint">{spec.description}</span>}
      <Problems id={problemId} problems={problems} />
    </fieldset>
  );
}
