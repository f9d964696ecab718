import { useEffect, useId, useRef, useState } from 'react';
import { ApiError } from '../api';
import { ProductCard } from '../components/ProductCard';
import { useConsole } from '../context';
import { count, useDebounced } from '../hooks';
import type { PreviewAnswer, Problem, ProductRef, Ruleset, RuleTrace } from '../types';
import { ProductPicker } from './ProductPicker';

/** The custom endpoint's inputs a merchant can type; empty ones are not sent. */
interface Inputs {
  products: ProductRef[];
  cart_subtotal: string;
  cart_item_count: string;
  cart_line_count: string;
  shop_customer_id: string;
  time: string;
  url: string;
  country_code: string;
  limit: string;
}

/** The inputs typed per shop: they outlive one editor, so saving or opening another ruleset keeps the test case. */
const kept = new Map<string, Inputs>();

const EMPTY: Inputs = { products: [], cart_subtotal: '', cart_item_count: '', cart_line_count: '', shop_customer_id: '', time: '', url: '', country_code: '', limit: '' };

function bodyOf(inputs: Inputs, ruleset: Ruleset): Record<string, unknown> {
  const variantIds = inputs.products.flatMap((p) => p.variant_ids ?? []);
  const body: Record<string, unknown> = { ruleset };
  if (inputs.products.length > 0) body.shop_product_ids = inputs.products.map((p) => p.product_id).join(',');
  if (variantIds.length > 0) body.shop_variant_ids = variantIds.join(',');
  for (const name of ['cart_subtotal', 'cart_item_count', 'cart_line_count', 'shop_customer_id', 'url', 'country_code', 'limit'] as const) {
    if (inputs[name].trim() !== '') body[name] = inputs[name].trim();
  }
  // datetime-local has no zone: send it as the browser's local time, which is what the merchant typed.
  if (inputs.time) body.time = new Date(inputs.time).toISOString();
  return body;
}

/**
 * Live preview: runs the unsaved document through the preview endpoint whenever it or the inputs
 * change, and shows the products and the trace. Its 422 problems go to the editor rows.
 */
export function Preview({ ruleset, onProblems }: { ruleset: Ruleset; onProblems(problems: Problem[]): void }) {
  const { api, shop } = useConsole();
  const [inputs, setInputsState] = useState<Inputs>(() => kept.get(shop.handle) ?? EMPTY);
  const setInputs = (next: Inputs) => { kept.set(shop.handle, next); setInputsState(next); };
  const [answer, setAnswer] = useState<PreviewAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const request = useDebounced(JSON.stringify(bodyOf(inputs, ruleset)), 350);
  const latest = useRef(0);
  const problemsRef = useRef(onProblems);
  problemsRef.current = onProblems;

  useEffect(() => {
    const id = ++latest.current;
    setRunning(true);
    api.send<PreviewAnswer>('POST', `/shops/${encodeURIComponent(shop.handle)}/rulesets/new/preview`, JSON.parse(request)).then(
      (result) => {
        if (id !== latest.current) return;
        setAnswer(result); setError(null); setRunning(false); problemsRef.current([]);
      },
      (failure: ApiError) => {
        if (id !== latest.current) return;
        setRunning(false);
        setError(failure.message);
        // Only a 422 says anything about the rows; any other failure leaves them without stale problems.
        problemsRef.current(failure.status === 422 ? failure.problems : []);
      },
    );
  }, [request, api, shop.handle]);

  const set = (name: keyof Inputs) => (e: React.ChangeEvent<HTMLInputElement>) => setInputs({ ...inputs, [name]: e.target.value });
  return (
    <section className="preview" aria-labelledby="preview-heading">
      <h2 id="preview-heading">Live preview</h2>
      <p className="muted">Runs this draft, unsaved, as the custom endpoint would.</p>
      <div className="preview-inputs">
        <div className="field wide">
          <span className="field-label" id="preview-products-label">Input products (shop_product_ids)</span>
          <ProductPicker label="Input products" value={inputs.products} onChange={(products) => setInputs({ ...inputs, products })} describedBy="preview-products-label" />
        </div>
        <Field label="Cart subtotal" hint={shop.currency} value={inputs.cart_subtotal} onChange={set('cart_subtotal')} type="number" step="0.01" />
        <Field label="Cart item count" value={inputs.cart_item_count} onChange={set('cart_item_count')} type="number" step="1" />
        <Field label="Cart line count" value={inputs.cart_line_count} onChange={set('cart_line_count')} type="number" step="1" />
        <Field label="Customer id" value={inputs.shop_customer_id} onChange={set('shop_customer_id')} inputMode="numeric" />
        <Field label="Time" hint="empty = now" value={inputs.time} onChange={set('time')} type="datetime-local" />
        <Field label="Page URL" value={inputs.url} onChange={set('url')} />
        <Field label="Country code" value={inputs.country_code} onChange={set('country_code')} maxLength={2} />
        <Field label="Limit" hint="default 5" value={inputs.limit} onChange={set('limit')} type="number" step="1" />
      </div>
      <p className="status" role="status">{running ? 'Running…' : error ? '' : answer ? count(answer.data.length, 'product') : ''}</p>
      {error && <p className="error" role="alert">{error}</p>}
      {answer && !error && <PreviewResult answer={answer} currency={shop.currency} />}
    </section>
  );
}

function Field({ label, hint, ...input }: { label: string; hint?: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}{hint && <span className="muted"> ({hint})</span>}</label>
      <input id={id} {...input} />
    </div>
  );
}

function PreviewResult({ answer, currency }: { answer: PreviewAnswer; currency: string }) {
  const errors = answer.metadata.errors ?? [];
  return (
    <>
      <h3>Products</h3>
      {answer.data.length === 0 ? <p className="muted">No products: no matched rule returned any that passed the filters.</p> : (
        <ul className="cards" aria-label="Preview products">
          {answer.data.map((product) => <li key={product.id}><ProductCard product={product} currency={currency} /></li>)}
        </ul>
      )}
      {errors.length > 0 && (
        <ul className="problems" aria-label="Preview errors">
          {errors.map((e, i) => <li key={i}><strong>{e.code}</strong> {e.message}{e.rule_index !== undefined ? ` (rule ${e.rule_index + 1})` : ''}</li>)}
        </ul>
      )}
      <h3>Trace</h3>
      <ol className="trace" aria-label="Trace">
        {answer.trace.map((rule) => <TraceRule key={rule.index} rule={rule} />)}
      </ol>
    </>
  );
}

const STATUS: Record<RuleTrace['status'], string> = { matched: 'matched', unmatched: 'not matched', unevaluated: 'not evaluated', disabled: 'disabled' };

function show(value: unknown): string {
  if (value === null || value === undefined) return '(absent)';
  if (typeof value === 'string') return value === '' ? '(empty)' : value;
  if (Array.isArray(value)) return value.length === 0 ? '(none)' : value.map((v) => (typeof v === 'object' && v !== null && 'product_id' in v ? String((v as { product_id: number }).product_id) : show(v))).join(', ');
  return JSON.stringify(value);
}

function TraceRule({ rule }: { rule: RuleTrace }) {
  return (
    <li className={`trace-rule trace-${rule.status}`} aria-label={`Rule ${rule.index + 1}: ${STATUS[rule.status]}`}>
      <span className="badge">{STATUS[rule.status]}</span> <strong>Rule {rule.index + 1}</strong>{rule.name ? ` — ${rule.name}` : ''}
      {rule.exit_if_matched && rule.status === 'matched' && <span className="muted"> (exit: later rules not evaluated)</span>}
      {rule.groups.length === 0 && rule.status !== 'unevaluated' && rule.status !== 'disabled' && <p className="muted">IF anything</p>}
      {rule.groups.map((group, g) => (
        <div key={g} className="trace-group">
          {g > 0 && <span className="keyword or">OR IF</span>}
          <ul>
            {group.conditions.map((condition, c) => (
              <li key={c} className={condition.result === true ? 'pass' : condition.result === false ? 'fail' : 'unchecked'}>
                <span aria-hidden="true">{condition.result === true ? '✓' : condition.result === false ? '✗' : '·'}</span>{' '}
                <code>{condition.type}</code> {condition.operator ?? ''}{condition.value !== null && condition.value !== undefined && <> <code>{show(condition.value)}</code></>}
                {' — observed '}<code>{show(condition.observed)}</code>
                <span className="visually-hidden">{condition.result === true ? ' holds' : condition.result === false ? ' does not hold' : ' not checked'}</span>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </li>
  );
}
