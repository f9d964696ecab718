import { useEffect, useId, useRef, useState } from 'react';
import { variantLabel } from '../components/ProductCard';
import { useConsole } from '../context';
import { count, focusAfterChipRemoval, useDebounced } from '../hooks';
import type { Product, ProductRef } from '../types';

interface Props {
  label: string;
  value: ProductRef[];
  onChange(next: ProductRef[]): void;
  invalid?: boolean;
  describedBy?: string;
}

/** Chosen products as chips (each optionally narrowed to some variants) and a catalog search to add more. */
export function ProductPicker({ label, value, onChange, invalid, describedBy }: Props) {
  const { products } = useConsole();
  const [, setLoaded] = useState(0);
  const ids = value.map((v) => v.product_id);
  /* biome-ignore lint/correctness/useExhaustiveDependencies: the ids, compared by value, decide; the product cache is
     the shop's own and stable */
  useEffect(() => {
    products.load(ids).then(
      () => setLoaded((n) => n + 1),
      () => undefined,
    );
  }, [ids.join(',')]);

  const pickerId = useId();
  const scope = `[data-picker="${pickerId}"]`;
  const remove = (index: number) => {
    onChange(value.filter((_, i) => i !== index));
    focusAfterChipRemoval(
      scope,
      value.map((v) => String(v.product_id)),
      index,
    );
  };
  const setVariants = (productId: number, variantIds: number[]) =>
    onChange(value.map((ref) => (ref.product_id === productId ? { ...ref, variant_ids: variantIds } : ref)));

  return (
    <fieldset className="picker" aria-label={label} aria-describedby={describedBy} data-picker={pickerId}>
      {value.length > 0 && (
        <ul className="chips">
          {value.map((ref, index) => (
            <ProductChip
              key={ref.product_id}
              refValue={ref}
              product={products.get(ref.product_id)}
              missing={products.isMissing(ref.product_id)}
              onRemove={() => remove(index)}
              onVariants={(variantIds) => setVariants(ref.product_id, variantIds)}
            />
          ))}
        </ul>
      )}
      <ProductSearch
        label={`${label}: add a product`}
        invalid={invalid}
        exclude={ids}
        onPick={(product) => onChange([...value, { product_id: product.id, variant_ids: [] }])}
      />
    </fieldset>
  );
}

function ProductChip({
  refValue,
  product,
  missing,
  onRemove,
  onVariants,
}: {
  refValue: ProductRef;
  product: Product | undefined;
  missing: boolean;
  onRemove(): void;
  onVariants(ids: number[]): void;
}) {
  const chosen = refValue.variant_ids ?? [];
  const title =
    product?.title ?? (missing ? `Unknown product ${refValue.product_id}` : `Product ${refValue.product_id}`);
  const toggle = (id: number, on: boolean) => onVariants(on ? [...chosen, id] : chosen.filter((v) => v !== id));
  return (
    <li className={missing ? 'chip chip-missing' : 'chip'} data-chip={refValue.product_id}>
      <span className="chip-title">
        <bdi>{title}</bdi>
      </span>{' '}
      <span className="muted">#{refValue.product_id}</span>
      {product && product.variants.length > 1 && (
        <details className="chip-variants">
          <summary>
            {chosen.length === 0 ? 'all variants' : `${chosen.length} of ${product.variants.length} variants`}
          </summary>
          <fieldset>
            <legend className="visually-hidden">Variants of {title}</legend>
            {product.variants.map((variant) => (
              <label key={variant.id} className="check">
                <input
                  type="checkbox"
                  checked={chosen.includes(variant.id)}
                  onChange={(e) => toggle(variant.id, e.target.checked)}
                />
                {variantLabel(variant)} <span className="muted">#{variant.id}</span>
              </label>
            ))}
          </fieldset>
        </details>
      )}
      <button type="button" className="icon-button" onClick={onRemove} aria-label={`Remove ${title}`}>
        ×
      </button>
    </li>
  );
}

/** A search box whose results are buttons: keyboard users tab through them, screen readers hear a count. */
export function ProductSearch({
  label,
  onPick,
  exclude = [],
  invalid,
  renderResult,
}: {
  label: string;
  onPick(product: Product): void;
  exclude?: number[];
  invalid?: boolean;
  renderResult?: (product: Product, pick: (p: Product) => void) => React.ReactNode;
}) {
  const { products } = useConsole();
  const id = useId();
  const [text, setText] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const [results, setResults] = useState<Product[] | null>(null);
  const settled = useDebounced(text.trim(), 200);
  useEffect(() => {
    if (settled === '') {
      setResults(null);
      return;
    }
    let current = true;
    products.search(settled).then(
      (found) => {
        if (current) setResults(found);
      },
      () => {
        if (current) setResults([]);
      },
    );
    return () => {
      current = false;
    };
  }, [settled, products]);
  const shown = (results ?? []).filter((p) => !exclude.includes(p.id));
  // Back to the search box after a pick, ready for the next product.
  const pick = (product: Product) => {
    onPick(product);
    setText('');
    setResults(null);
    input.current?.focus();
  };
  return (
    <div className="search">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input
        id={id}
        ref={input}
        type="search"
        placeholder="Search products by title, handle or id"
        value={text}
        aria-invalid={invalid || undefined}
        onChange={(e) => setText(e.target.value)}
        autoComplete="off"
      />
      {/* Always rendered, so the first count is announced too. */}
      <p className="visually-hidden" aria-live="polite">
        {results === null ? '' : `${count(shown.length, 'product')} found`}
      </p>
      {results !== null && (
        <div className="search-results">
          {shown.length === 0 ? (
            <p className="muted">No products match “{settled}”.</p>
          ) : (
            <ul aria-label={`${label}: results`}>
              {shown.map((product) => (
                <li key={product.id}>
                  {renderResult ? (
                    renderResult(product, pick)
                  ) : (
                    <button type="button" className="result" onClick={() => pick(product)}>
                      Add <bdi>{product.title}</bdi> <span className="muted">#{product.id}</span>
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
