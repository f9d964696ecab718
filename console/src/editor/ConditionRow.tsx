import { useId, type Dispatch } from 'react';
import type { Problem, RuleCatalog } from '../types';
import type { EditorAction } from './draft-reducer';
import type { DraftCondition } from './model';
import { fieldOf } from './placement';
import { Problems } from './Problems';
import { ValueInput } from './ValueInput';

/** One condition: its type, its operator, the value widget the operator asks for, and its problems. */
export function ConditionRow({
  rule,
  condition,
  catalog,
  keyword,
  label,
  problems,
  dispatch,
}: {
  rule: string;
  condition: DraftCondition;
  catalog: RuleCatalog;
  keyword: string;
  label: string;
  problems: Problem[];
  dispatch: Dispatch<EditorAction>;
}) {
  const typeId = useId();
  const operatorId = useId();
  const problemId = useId();
  const spec = catalog.conditions.find((c) => c.type === condition.type);
  const operator = spec?.operators.find((o) => o.code === condition.operator);
  const invalid = problems.length > 0;
  const describedBy = invalid ? problemId : undefined;
  const at = { rule, condition: condition.key };
  const invalidField = (field: string) => problems.some((p) => fieldOf(p.path) === field) || undefined;
  return (
    <fieldset className={`row condition${invalid ? ' row-invalid' : ''}`} aria-label={label} data-row={condition.key}>
      <span className="keyword">{keyword}</span>
      <label htmlFor={typeId} className="visually-hidden">
        Condition type
      </label>
      <select
        id={typeId}
        value={condition.type}
        aria-invalid={invalidField('type')}
        aria-describedby={describedBy}
        onChange={(e) => dispatch({ type: 'setConditionType', ...at, conditionType: e.target.value })}
      >
        {!spec && <option value={condition.type}>Unknown: {condition.type}</option>}
        {catalog.conditions.map((c) => (
          <option key={c.type} value={c.type}>
            {c.label}
          </option>
        ))}
      </select>
      {spec && spec.operators.length > 0 && (
        <>
          <label htmlFor={operatorId} className="visually-hidden">
            Operator
          </label>
          <select
            id={operatorId}
            value={condition.operator}
            aria-invalid={invalidField('operator')}
            aria-describedby={describedBy}
            onChange={(e) => dispatch({ type: 'setOperator', ...at, operator: e.target.value })}
          >
            {!operator && <option value={condition.operator}>Choose…</option>}
            {spec.operators.map((o) => (
              <option key={o.code} value={o.code}>
                {o.label}
              </option>
            ))}
          </select>
        </>
      )}
      {operator && (
        <span className="value">
          <ValueInput
            kind={operator.value}
            unit={spec?.unit}
            label="Value"
            value={condition.value}
            products={condition.products}
            onValue={(value) => dispatch({ type: 'setConditionValue', ...at, value })}
            onProducts={(products) => dispatch({ type: 'setConditionProducts', ...at, products })}
            invalid={invalid}
            describedBy={describedBy}
          />
        </span>
      )}
      <button
        type="button"
        className="icon-button"
        onClick={() => dispatch({ type: 'removeCondition', ...at })}
        aria-label={`Remove ${label.toLowerCase()}`}
      >
        ×
      </button>
      <Problems id={problemId} problems={problems} />
    </fieldset>
  );
}
