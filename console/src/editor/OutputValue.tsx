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
      return <CollectionSelect label="Collection" value={output.collection_id} onChange={(collection_id) => onValue({ collection_id })} invalid={invalid} />;
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

/** A list endpoint from the catalog's list, and its query parameters as typed. */
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
  const queryId = useId();
  // Split at the first `?` only and keep the parameters as typed (spaces and all).
  const mark = endpoint.indexOf('?');
  const path = mark < 0 ? endpoint : endpoint.slice(0, mark);
  const search = mark < 0 ? '' : endpoint.slice(mark + 1);
  const join = (p: string, s: string) => (s === '' ? p : `${p}?${s}`);
  return (
    <span className="endpoint">
      <label htmlFor={pathId} className="visually-hidden">
        List endpoint
      </label>
      <select id={pathId} value={path} onChange={(e) => onChange(join(e.target.value, search))} aria-invalid={invalid || undefined}>
        {!endpoints.includes(path) && <option value={path}>{path || 'Choose…'}</option>}
        {endpoints.map((e) => (
          <option key={e} value={e}>
            {e}
          </option>
        ))}
      </select>
      <label htmlFor={queryId} className="visually-hidden">
        Endpoint parameters
      </label>
      <input
        id={queryId}
        value={search}
        placeholder="parameters, e.g. limit=3"
        onChange={(e) => onChange(join(path, e.target.value))}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
      />
    </span>
  );
}
