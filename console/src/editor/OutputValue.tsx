import { LIST_LABELS } from '../widgets/model';
import { useId } from 'react';
import type { RuleCatalog } from '../types';
import { CollectionSelect } from './CollectionPicker';
import type { DraftOutput } from './model';
import type { OutputValue as Value } from './rule-edits';
import { ValueInput } from './ValueInput';

interface Props {
  output: DraftOutput;
  catalog: RuleCatalog;
  onValue(value: Value): void;
  invalid: boolean;
  describedBy: string | undefined;
}

/** The value widget an output type asks for: products, a collection, tags, or a list endpoint. */
export function OutputValue({ output, catalog, onValue, invalid, describedBy }: Props) {
  const kind = catalog.outputs.find((o) => o.type === output.type)?.value;
  switch (kind) {
    case 'products':
      return (
        <ValueInput
          kind="products"
          label="Products"
          value=""
          products={output.products}
          onValue={() => undefined}
          onProducts={(products) => onValue({ products })}
          invalid={invalid}
          describedBy={describedBy}
        />
      );
    case 'collection':
      return (
        <CollectionSelect
          label="Collection"
          value={output.collection_id}
          onChange={(collection_id) => onValue({ collection_id })}
          invalid={invalid}
        />
      );
    case 'tag_list':
      return (
        <ValueInput
          kind="text_list"
          label="Tags"
          value={output.value}
          products={[]}
          onValue={(value) => onValue({ value })}
          onProducts={() => undefined}
          invalid={invalid}
          describedBy={describedBy}
        />
      );
    case 'endpoint':
      return (
        <EndpointValue
          endpoint={output.endpoint}
          endpoints={catalog.endpoints}
          onChange={(endpoint) => onValue({ endpoint })}
          invalid={invalid}
          describedBy={describedBy}
        />
      );
    default:
      return null;
  }
}

/**
 * A list by its name, with how many products to take from it; other settings of the list stay as
 * typed in "More settings". Stored as the endpoint path and query the ruleset document holds.
 */
function EndpointValue({
  endpoint,
  endpoints,
  onChange,
  invalid,
  describedBy,
}: {
  endpoint: string;
  endpoints: string[];
  onChange(next: string): void;
  invalid: boolean;
  describedBy: string | undefined;
}) {
  const pathId = useId();
  const limitId = useId();
  const queryId = useId();
  const mark = endpoint.indexOf('?');
  const path = mark < 0 ? endpoint : endpoint.slice(0, mark);
  // The other parameters stay exactly as typed (spaces and all); only `limit=` is taken out for its own field.
  const parts = mark < 0 ? [] : endpoint.slice(mark + 1).split('&');
  const limit = parts.find((part) => part.startsWith('limit='))?.slice('limit='.length) ?? '';
  const rest = parts.filter((part) => !part.startsWith('limit=')).join('&');
  const build = (p: string, l: string, r: string) => {
    const text = [r, l === '' ? '' : `limit=${l}`].filter((part) => part !== '').join('&');
    return text === '' ? p : `${p}?${text}`;
  };
  const name = (e: string) => e.replace(/^\/products\//, '');
  return (
    <span className="endpoint">
      <label htmlFor={pathId}>List</label>
      <select
        id={pathId}
        value={path}
        onChange={(e) => onChange(build(e.target.value, limit, rest))}
        aria-invalid={invalid || undefined}
      >
        {!endpoints.includes(path) && <option value={path}>{path ? name(path) : 'Choose a list…'}</option>}
        {endpoints.map((e) => (
          <option key={e} value={e}>
            {LIST_LABELS[name(e)] ?? name(e).replace(/_/g, ' ')}
          </option>
        ))}
      </select>
      <label htmlFor={limitId}>How many</label>
      <input
        id={limitId}
        type="number"
        min={1}
        max={100}
        value={limit}
        placeholder="all"
        onChange={(e) => onChange(build(path, e.target.value, rest))}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
      />
      <label htmlFor={queryId}>More settings (optional)</label>
      <input
        id={queryId}
        value={rest}
        placeholder="e.g. shop_collection_ids=5"
        onChange={(e) => onChange(build(path, limit, e.target.value))}
      />
    </span>
  );
}
