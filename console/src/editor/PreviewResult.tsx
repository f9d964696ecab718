import { ProductCard } from '../components/ProductCard';
import type { PreviewAnswer, RuleTrace } from '../types';

/** The preview's answer: the product cards, the evaluation's errors, and the trace of every rule. */
export function PreviewResult({ answer, currency }: { answer: PreviewAnswer; currency: string }) {
  const errors = answer.metadata.errors ?? [];
  return (
    <>
      <h3>Products</h3>
      {answer.data.length === 0 ? (
        <p className="muted">No products: no matched rule returned any that passed the filters.</p>
      ) : (
        <ul className="cards" aria-label="Preview products">
          {answer.data.map((product) => (
            <li key={product.id}>
              <ProductCard product={product} currency={currency} />
            </li>
          ))}
        </ul>
      )}
      {errors.length > 0 && (
        <ul className="problems" aria-label="Preview errors">
          {errors.map((e, i) => (
            <li key={i}>
              <strong>{e.code}</strong> {e.message}
              {e.rule_index !== undefined ? ` (rule ${e.rule_index + 1})` : ''}
            </li>
          ))}
        </ul>
      )}
      <h3>Trace</h3>
      <ol className="trace" aria-label="Trace">
        {answer.trace.map((rule) => (
          <TraceRule key={rule.index} rule={rule} />
        ))}
      </ol>
    </>
  );
}

const STATUS: Record<RuleTrace['status'], string> = { matched: 'matched', unmatched: 'not matched', unevaluated: 'not evaluated', disabled: 'disabled' };

function show(value: unknown): string {
  if (value === null || value === undefined) return '(absent)';
  if (typeof value === 'string') return value === '' ? '(empty)' : value;
  if (Array.isArray(value))
    return value.length === 0
      ? '(none)'
      : value.map((v) => (typeof v === 'object' && v !== null && 'product_id' in v ? String((v as { product_id: number }).product_id) : show(v))).join(', ');
  return JSON.stringify(value);
}

/** One rule of the trace: its status, and per condition what was compared and what was observed. */
function TraceRule({ rule }: { rule: RuleTrace }) {
  return (
    <li className={`trace-rule trace-${rule.status}`} aria-label={`Rule ${rule.index + 1}: ${STATUS[rule.status]}`}>
      <span className="badge">{STATUS[rule.status]}</span> <strong>Rule {rule.index + 1}</strong>
      {rule.name ? ` — ${rule.name}` : ''}
      {rule.exit_if_matched && rule.status === 'matched' && <span className="muted"> (exit: later rules not evaluated)</span>}
      {rule.groups.length === 0 && rule.status !== 'unevaluated' && rule.status !== 'disabled' && <p className="muted">IF anything</p>}
      {rule.groups.map((group, g) => (
        <div key={g} className="trace-group">
          {g > 0 && <span className="keyword or">OR IF</span>}
          <ul>
            {group.conditions.map((condition, c) => (
              <li key={c} className={condition.result === true ? 'pass' : condition.result === false ? 'fail' : 'unchecked'}>
                <span aria-hidden="true">{condition.result === true ? '✓' : condition.result === false ? '✗' : '·'}</span> <code>{condition.type}</code>{' '}
                {condition.operator ?? ''}
                {condition.value !== null && condition.value !== undefined && (
                  <>
                    {' '}
                    <code>{show(condition.value)}</code>
                  </>
                )}
                {' — observed '}
                <code>{show(condition.observed)}</code>
                <span className="visually-hidden">{condition.result === true ? ' holds' : condition.result === false ? ' does not hold' : ' not checked'}</span>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </li>
  );
}
