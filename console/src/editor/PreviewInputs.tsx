import { useId } from 'react';
import { useConsole } from '../context';
import type { PreviewInputs as Inputs } from './preview-request';
import { ProductPicker } from './ProductPicker';

/** The inputs the live preview runs the draft on, as the custom endpoint's parameters. */
export function PreviewInputs({ inputs, onChange }: { inputs: Inputs; onChange(next: Inputs): void }) {
  const { shop } = useConsole();
  const set = (name: Exclude<keyof Inputs, 'products'>) => (e: React.ChangeEvent<HTMLInputElement>) =>
    onChange({ ...inputs, [name]: e.target.value });
  return (
    <div className="preview-inputs">
      <div className="field wide">
        <span className="field-label" id="preview-products-label">
          Products on the page
        </span>
        <ProductPicker
          label="Products on the page"
          value={inputs.products}
          onChange={(products) => onChange({ ...inputs, products })}
          describedBy="preview-products-label"
        />
      </div>
      <Field
        label="Cart subtotal"
        hint={shop.currency}
        value={inputs.cart_subtotal}
        onChange={set('cart_subtotal')}
        type="number"
        step="0.01"
      />
      <Field
        label="Cart item count"
        value={inputs.cart_item_count}
        onChange={set('cart_item_count')}
        type="number"
        step="1"
      />
      <Field
        label="Cart line count"
        value={inputs.cart_line_count}
        onChange={set('cart_line_count')}
        type="number"
        step="1"
      />
      <Field
        label="Customer id"
        value={inputs.shop_customer_id}
        onChange={set('shop_customer_id')}
        inputMode="numeric"
      />
      <Field
        label="Time"
        hint={`in the shop's time zone, ${shop.timezone}; empty = now`}
        value={inputs.time}
        onChange={set('time')}
        type="datetime-local"
      />
      <Field label="Page URL" value={inputs.url} onChange={set('url')} />
      <Field label="Country code" value={inputs.country_code} onChange={set('country_code')} maxLength={2} />
      <Field label="Limit" hint="default 5" value={inputs.limit} onChange={set('limit')} type="number" step="1" />
    </div>
  );
}

function Field({
  label,
  hint,
  ...input
}: { label: string; hint?: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {hint && <span className="muted"> ({hint})</span>}
      </label>
      <input id={id} {...input} />
    </div>
  );
}
