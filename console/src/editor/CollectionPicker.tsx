import { LoadState } from '../components/LoadState';
import { useId } from 'react';
import { useConsole } from '../context';
import { useLoad } from '../hooks';
import type { Collection } from '../types';

function useCollections() {
  const { products } = useConsole();
  return useLoad<Collection[]>(() => products.listCollections(), [products]);
}

/** Several collections (a comma list of ids), as checkboxes. */
export function CollectionsPicker({
  label,
  value,
  onChange,
  describedBy,
}: {
  label: string;
  value: string;
  onChange(next: string): void;
  describedBy?: string | undefined;
}) {
  const collections = useCollections();
  const chosen = value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  const toggle = (id: string, on: boolean) =>
    onChange((on ? [...chosen, id] : chosen.filter((c) => c !== id)).join(','));
  if (collections.error) return <LoadState loaded={collections} what="the collections" />;
  const list = collections.data ?? [];
  const unknown = chosen.filter((id) => !list.some((c) => String(c.id) === id));
  return (
    <fieldset className="checks" aria-describedby={describedBy}>
      <legend className="visually-hidden">{label}</legend>
      {list.map((collection) => (
        <label key={collection.id} className="check">
          <input
            type="checkbox"
            checked={chosen.includes(String(collection.id))}
            onChange={(e) => toggle(String(collection.id), e.target.checked)}
          />
          {collection.title}
        </label>
      ))}
      {!collections.loading &&
        unknown.map((id) => (
          <label key={id} className="check chip-missing">
            <input type="checkbox" checked onChange={() => toggle(id, false)} /> Unknown collection {id}
          </label>
        ))}
      {collections.loading && <span className="muted">Loading collections…</span>}
    </fieldset>
  );
}

/** One collection, as a select. */
export function CollectionSelect({
  label,
  value,
  onChange,
  invalid,
}: {
  label: string;
  value: number | null;
  onChange(next: number | null): void;
  invalid?: boolean;
}) {
  const collections = useCollections();
  const id = useId();
  return (
    <>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <select
        id={id}
        value={value ?? ''}
        aria-invalid={invalid || undefined}
        onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))}
      >
        <option value="">Choose a collection…</option>
        {(collections.data ?? []).map((collection) => (
          <option key={collection.id} value={collection.id}>
            {collection.title} ({collection.products.length})
          </option>
        ))}
        {value !== null && collections.data && !collections.data.some((c) => c.id === value) && (
          <option value={value}>Unknown collection {value}</option>
        )}
      </select>
    </>
  );
}
