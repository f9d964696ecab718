import { useEffect, useId, useState } from 'react';
import { variantLabel } from '../components/ProductCard';
import { useConsole } from '../context';
import { focusAfterChipRemoval } from '../hooks';
import { ProductSearch } from './ProductPicker';

/** A comma list of variant ids, picked from the catalog search (a product's variants are listed under it). */
export function VariantPicker({
  label,
  value,
  onChange,
  invalid,
  describedBy,
}: {
  label: string;
  value: string;
  onChange(next: string): void;
  invalid?: boolean;
  describedBy?: string | undefined;
}) {
  const { products } = useConsole();
  const ids = value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  const [, setLoaded] = useState(0);
  const pickerId = useId();
  const scope = `[data-picker="${pickerId}"]`;
  /* biome-ignore lint/correctness/useExhaustiveDependencies: the value decides (the ids derive from it); the product
     cache is the shop's own and stable */
  useEffect(() => {
    const numeric = ids.map(Number).filter((n) => Number.isInteger(n) && n > 0);
    if (numeric.length > 0)
      products.loadVariants(numeric).then(
        () => setLoaded((n) => n + 1),
        () => undefined,
      );
  }, [value]);
  const describe = (id: string) => {
    for (const product of products.known()) {
      const variant = product.variants.find((v) => String(v.id) === id);
      if (variant) return `${product.title} — ${variantLabel(variant)}`;
    }
    return `Variant ${id}`;
  };
  return (
    <fieldset className="picker" aria-label={label} aria-describedby={describedBy} data-picker={pickerId}>
      {ids.length > 0 && (
        <ul className="chips">
          {ids.map((id, index) => (
            <li key={id} className="chip" data-chip={id}>
              <span className="chip-title">{describe(id)}</span> <span className="muted">#{id}</span>
              <button
                type="button"
                className="icon-button"
                aria-label={`Remove ${describe(id)}`}
                onClick={() => {
                  onChange(ids.filter((v) => v !== id).join(','));
                  focusAfterChipRemoval(scope, ids, index);
                }}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <ProductSearch
        label={`${label}: add a variant`}
        invalid={invalid}
        onPick={() => undefined}
        renderResult={(product, pick) => (
          <div className="variant-results">
            <span aria-hidden="true">{product.title}</span>
            {product.variants.map((variant) => (
              <button
                key={variant.id}
                type="button"
                className="result"
                disabled={ids.includes(String(variant.id))}
                onClick={() => {
                  onChange([...ids, String(variant.id)].join(','));
                  pick(product);
                }}
              >
                Add {product.title} — {variantLabel(variant)} <span className="muted">#{variant.id}</span>
              </button>
            ))}
          </div>
        )}
      />
    </fieldset>
  );
}
