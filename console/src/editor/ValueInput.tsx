import { useId } from 'react';
import { useConsole } from '../context';
import type { ProductRef, ValueKind } from '../types';
import { CollectionsPicker } from './CollectionPicker';
import { ProductPicker } from './ProductPicker';
import { VariantPicker } from './VariantPicker';
import { decimalTyped } from '../decimal';

const WEEKDAYS = [
  ['mon', 'Mon'],
  ['tue', 'Tue'],
  ['wed', 'Wed'],
  ['thu', 'Thu'],
  ['fri', 'Fri'],
  ['sat', 'Sat'],
  ['sun', 'Sun'],
] as const;

interface Props {
  kind: ValueKind;
  unit?: 'money' | 'count' | undefined;
  label: string;
  value: string;
  products: ProductRef[];
  onValue(next: string): void;
  onProducts(next: ProductRef[]): void;
  invalid: boolean;
  describedBy?: string | undefined;
}

/** The value widget a value kind of the rule catalog asks for; every one writes the string the server parses. */
export function ValueInput(props: Props) {
  const { kind, label, value, onValue, invalid, describedBy } = props;
  const common = { 'aria-invalid': invalid || undefined, 'aria-describedby': describedBy };
  const pair = value.split(',');
  const setPair = (index: 0 | 1, part: string) => {
    const next: [string, string] = [pair[0] ?? '', pair[1] ?? ''];
    next[index] = part;
    onValue(next.join(','));
  };
  switch (kind) {
    case 'none':
      return null;
    case 'products':
      return (
        <ProductPicker
          label={label}
          value={props.products}
          onChange={props.onProducts}
          invalid={invalid}
          describedBy={describedBy}
        />
      );
    case 'variant_id_list':
      return (
        <VariantPicker label={label} value={value} onChange={onValue} invalid={invalid} describedBy={describedBy} />
      );
    case 'collection_id_list':
      return <CollectionsPicker label={label} value={value} onChange={onValue} describedBy={describedBy} />;
    case 'number':
      return <NumberField label={label} unit={props.unit} value={value} onChange={onValue} common={common} />;
    case 'number_range':
      return (
        <span className="range">
          <NumberField
            label={`${label}: from`}
            unit={props.unit}
            value={pair[0] ?? ''}
            onChange={(v) => setPair(0, v)}
            common={common}
          />
          <span aria-hidden="true">and</span>
          <NumberField
            label={`${label}: to`}
            unit={props.unit}
            value={pair[1] ?? ''}
            onChange={(v) => setPair(1, v)}
            common={common}
          />
        </span>
      );
    case 'date':
      return <DateField label={label} value={value} onChange={onValue} common={common} />;
    case 'date_range':
      return (
        <span className="range">
          <DateField label={`${label}: from`} value={pair[0] ?? ''} onChange={(v) => setPair(0, v)} common={common} />
          <span aria-hidden="true">to</span>
          <DateField label={`${label}: to`} value={pair[1] ?? ''} onChange={(v) => setPair(1, v)} common={common} />
        </span>
      );
    case 'time_range':
      return (
        <span className="range">
          <TextField
            type="time"
            label={`${label}: from`}
            value={pair[0] ?? ''}
            onChange={(v) => setPair(0, v)}
            common={common}
          />
          <span aria-hidden="true">to</span>
          <TextField
            type="time"
            label={`${label}: until`}
            value={pair[1] ?? ''}
            onChange={(v) => setPair(1, v)}
            common={common}
          />
        </span>
      );
    case 'weekday_list': {
      const days = value
        .split(',')
        .map((d) => d.trim())
        .filter(Boolean);
      const toggle = (day: string, on: boolean) =>
        onValue(
          WEEKDAYS.map(([d]) => d)
            .filter((d) => (d === day ? on : days.includes(d)))
            .join(','),
        );
      return (
        <fieldset className="checks weekdays" aria-describedby={describedBy}>
          <legend className="visually-hidden">{label}</legend>
          {WEEKDAYS.map(([day, name]) => {
            const checked = days.includes(day);
            return (
              <label key={day} className="check">
                <input type="checkbox" checked={checked} onChange={(e) => toggle(day, e.target.checked)} /> {name}
              </label>
            );
          })}
        </fieldset>
      );
    }
    case 'text_list':
    case 'country_list':
      return (
        <TextField
          label={label}
          value={value}
          onChange={onValue}
          common={common}
          placeholder={kind === 'country_list' ? 'e.g. US, CA' : 'comma-separated, e.g. sale, summer'}
        />
      );
    case 'text_list_or_regex':
    case 'text_or_regex':
      return (
        <TextField
          label={label}
          value={value}
          onChange={onValue}
          common={common}
          placeholder="text, or /pattern/flags"
        />
      );
    default:
      return <TextField label={label} value={value} onChange={onValue} common={common} />;
  }
}

type Common = { 'aria-invalid': true | undefined; 'aria-describedby': string | undefined };

function TextField({
  label,
  value,
  onChange,
  common,
  type = 'text',
  placeholder,
}: {
  label: string;
  value: string;
  onChange(v: string): void;
  common: Common;
  type?: string;
  placeholder?: string;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input
        id={id}
        type={type}
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
        {...common}
      />
    </>
  );
}

function NumberField({
  label,
  unit,
  value,
  onChange,
  common,
}: {
  label: string;
  unit?: 'money' | 'count' | undefined;
  value: string;
  onChange(v: string): void;
  common: Common;
}) {
  const { shop } = useConsole();
  const id = useId();
  return (
    <span className="number-field">
      <label htmlFor={id} className="visually-hidden">
        {unit === 'money' ? `${label} (${shop.currency})` : label}
      </label>
      {unit === 'money' && (
        <span className="affix" aria-hidden="true">
          {shop.currency}
        </span>
      )}
      {/* Text, not a number input: that one dropped a decimal comma, and 19,99 was saved as 1999. */}
      <input
        id={id}
        type="text"
        inputMode={unit === 'money' ? 'decimal' : 'numeric'}
        value={value}
        onChange={(e) => onChange(decimalTyped(e.target.value))}
        {...common}
      />
    </span>
  );
}

/** A date, optionally with a time of day (read in the shop's time zone by the server). */
function DateField({
  label,
  value,
  onChange,
  common,
}: {
  label: string;
  value: string;
  onChange(v: string): void;
  common: Common;
}) {
  const [date = '', time = ''] = value.split('T');
  const join = (d: string, t: string) => (t ? `${d}T${t.slice(0, 5)}` : d);
  return (
    <span className="date-field">
      <TextField type="date" label={label} value={date} onChange={(d) => onChange(join(d, time))} common={common} />
      <TextField
        type="time"
        label={`${label} (time, optional)`}
        value={time.slice(0, 5)}
        onChange={(t) => onChange(join(date, t))}
        common={common}
      />
    </span>
  );
}
