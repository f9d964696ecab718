import { ProductCard } from '../components/ProductCard';
import type { ConditionSpec, PreviewAnswer, RuleCatalog, RuleTrace } from '../types';

/** How the trace speaks: the catalog's labels, the shop's currency and time zone. */
interface Words {
  specs: Map<string, ConditionSpec>;
  currency: string;
  timezone: string;
}

/** The preview's answer: the product cards, the evaluation's errors, and the trace of every rule. */
export function PreviewResult({
  answer,
  currency,
  timezone,
  catalog,
}: {
  answer: PreviewAnswer;
  currency: string;
  timezone: string;
  catalog: RuleCatalog;
}) {
  const errors = answer.metadata.errors ?? [];
  const words: Words = { specs: new Map(catalog.conditions.map((c) => [c.type, c])), currency, timezone };
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
            <li key={i}>{e.message}</li>
          ))}
        </ul>
      )}
      <h3>Trace</h3>
      <p className="muted">
        Which rules matched, and why. Times are in the shop's time zone ({timezone}); amounts in {currency}.
      </p>
      <ol className="trace" aria-label="Trace">
        {answer.trace.map((rule) => (
          <TraceRule key={rule.index} rule={rule} words={words} />
        ))}
      </ol>
    </>
  );
}

const STATUS: Record<RuleTrace['status'], string> = {
  matched: 'matched',
  unmatched: 'not matched',
  unevaluated: 'not evaluated',
  disabled: 'disabled',
};

/** A compared or observed value in the merchant's units: money in the shop's currency, times in its time zone. */
function showAs(value: unknown, spec: ConditionSpec | undefined, words: Words): string {
  if (
    spec?.unit === 'money' &&
    (typeof value === 'number' || (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value)))
  ) {
    try {
      return new Intl.NumberFormat(undefined, { style: 'currency', currency: words.currency }).format(Number(value));
    } catch {
      return show(value);
    }
  }
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) {
      const format = new Intl.DateTimeFormat(undefined, {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone: words.timezone,
      });
      return `${format.format(date)} (${words.timezone})`;
    }
  }
  return show(value);
}

function show(value: unknown): string {
  if (value === null || value === undefined) return '(absent)';
  if (typeof value === 'string') return value === '' ? '(empty)' : value;
  if (Array.isArray(value))
    return value.length === 0
      ? '(none)'
      : value
          .map((v) =>
            typeof v === 'object' && v !== null && 'product_id' in v
              ? String((v as { product_id: number }).product_id)
              : show(v),
          )
          .join(', ');
  return JSON.stringify(value);
}

/** One rule of the trace: its status, and per condition what was compared and what was observed. */
function TraceRule({ rule, words }: { rule: RuleTrace; words: Words }) {
  return (
    <li className={`trace-rule trace-${rule.status}`} aria-label={`Rule ${rule.index + 1}: ${STATUS[rule.status]}`}>
      <span className="badge">{STATUS[rule.status]}</span> <strong>Rule {rule.index + 1}</strong>
      {rule.name ? ` — ${rule.name}` : ''}
      {rule.exit_if_matched && rule.status === 'matched' && (
        <span className="muted"> (exit: later rules not evaluated)</span>
      )}
      {rule.groups.length === 0 && rule.status !== 'unevaluated' && rule.status !== 'disabled' && (
        <p className="muted">IF anything</p>
      )}
      {rule.groups.map((group, g) => (
        <div key={g} className="trace-group">
          {g > 0 && <span className="keyword or">OR IF</span>}
          <ul>
            {group.conditions.map((condition, c) => {
              const spec = words.specs.get(condition.type);
              const operator =
                spec?.operators.find((o) => o.code === condition.operator)?.label ?? condition.operator ?? '';
              return (
                <li
                  key={c}
                  className={condition.result === true ? 'pass' : condition.result === false ? 'fail' : 'unchecked'}
                >
                  <span aria-hidden="true">
                    {condition.result === true ? '✓' : condition.result === false ? '✗' : '·'}
                  </span>{' '}
                  <strong>{spec?.label ?? condition.type}</strong> {operator}
                  {condition.value !== null && condition.value !== undefined && (
                    <>
                      {' '}
                      <code>{showAs(condition.value, spec, words)}</code>
                    </>
                  )}
                  {' — here: '}
                  <code>{showAs(condition.observed, spec, words)}</code>
                  {condition.observed_count !== undefined && Array.isArray(condition.observed) && (
                    <> and {(condition.observed_count - condition.observed.length).toLocaleString()} more</>
                  )}
                  <span className="visually-hidden">
                    {condition.result === true
                      ? ' holds'
                      : condition.result === false
                        ? ' does not hold'
                        : ' not checked'}
                  </span>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </li>
  );
}
