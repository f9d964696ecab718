import { useId } from 'react';
import { headingOf, LIST_LABELS, PLACEMENT_LABELS, pageNeedsOf, type WidgetInput } from './model';
import { WholeNumberInput } from './WholeNumberInput';

interface RulesetRef {
  id: number;
  name: string;
  enabled: boolean;
}

type Show = WidgetInput['show'];
const SHOW_LABELS: [keyof Show, string][] = [
  ['price', 'Price'],
  ['compare_at_price', 'Price before the sale'],
  ['vendor', 'Brand (vendor)'],
  ['add_to_cart', 'Add to cart button'],
];

/** The design of a widget: where it goes, what it shows, how it looks. Colours and font left empty follow the theme. */
export function WidgetForm({
  draft,
  onChange,
  rulesets,
  lists,
}: {
  draft: WidgetInput;
  onChange(next: WidgetInput): void;
  rulesets: RulesetRef[];
  lists: string[];
}) {
  const ids = useId();
  const set = (patch: Partial<WidgetInput>) => onChange({ ...draft, ...patch });
  const source = draft.source;
  const sourceValue = 'ruleset_id' in source ? `ruleset:${source.ruleset_id}` : `list:${source.list}`;
  const pickSource = (value: string) => {
    const [kind, rest = ''] = value.split(':');
    const next: WidgetInput['source'] =
      kind === 'ruleset'
        ? { ruleset_id: Number(rest) }
        : { list: rest, limit: 'limit' in source ? source.limit : Math.max(8, draft.cards) };
    // A heading the merchant left as the old list's name follows the new source; one they wrote stays.
    const title = draft.title === headingOf(source) ? headingOf(next) : draft.title;
    set({ source: next, title });
  };
  const needs = 'list' in source ? pageNeedsOf(source.list, draft.placement) : null;
  const colour = (field: 'accent' | 'text', label: string) => (
    <div className="field inline">
      <label htmlFor={`${ids}-${field}`}>{label}</label>
      <input
        id={`${ids}-${field}`}
        type="color"
        value={draft.style[field] ?? '#000000'}
        onChange={(e) => set({ style: { ...draft.style, [field]: e.target.value } })}
      />
      <label>
        <input
          type="checkbox"
          checked={draft.style[field] === null}
          onChange={(e) => set({ style: { ...draft.style, [field]: e.target.checked ? null : '#1f2937' } })}
        />{' '}
        Use the theme's {label.toLowerCase()}
      </label>
    </div>
  );

  return (
    <div className="widget-form">
      <div className="field">
        <label htmlFor={`${ids}-name`}>Name (only you see it)</label>
        <input
          id={`${ids}-name`}
          value={draft.name}
          required
          maxLength={200}
          onChange={(e) => set({ name: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor={`${ids}-placement`}>Where it goes</label>
        <select
          id={`${ids}-placement`}
          value={draft.placement}
          onChange={(e) => set({ placement: e.target.value as WidgetInput['placement'] })}
        >
          {Object.entries(PLACEMENT_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${ids}-source`}>Products from</label>
        <select id={`${ids}-source`} value={sourceValue} onChange={(e) => pickSource(e.target.value)}>
          <optgroup label="Your rulesets">
            {rulesets.map((r) => (
              <option key={r.id} value={`ruleset:${r.id}`}>
                {r.enabled ? r.name : `${r.name} (disabled: enable it on the Rulesets page to show it)`}
              </option>
            ))}
          </optgroup>
          <optgroup label="Lists">
            {lists.map((name) => (
              <option key={name} value={`list:${name}`}>
                {LIST_LABELS[name] ?? name}
              </option>
            ))}
          </optgroup>
        </select>
      </div>
      {needs && (
        <p className="notice" role="note">
          {needs}
        </p>
      )}
      {'list' in source && (
        <div className="field">
          <label htmlFor={`${ids}-limit`}>Products to fetch from the list</label>
          <WholeNumberInput
            id={`${ids}-limit`}
            min={1}
            max={100}
            value={source.limit}
            onChange={(limit) => set({ source: { list: source.list, limit } })}
          />
        </div>
      )}
      <div className="field">
        <label htmlFor={`${ids}-title`}>Heading shoppers see</label>
        <input
          id={`${ids}-title`}
          value={draft.title}
          maxLength={200}
          onChange={(e) => set({ title: e.target.value })}
        />
      </div>
      <fieldset>
        <legend>Layout</legend>
        {(['grid', 'carousel'] as const).map((layout) => (
          <label key={layout} className="choice">
            <input
              type="radio"
              name={`${ids}-layout`}
              checked={draft.layout === layout}
              onChange={() => set({ layout })}
            />{' '}
            {layout === 'grid' ? 'Grid' : 'Carousel (scrolls sideways)'}
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor={`${ids}-cards`}>Number of products shown (1–12)</label>
        <WholeNumberInput
          id={`${ids}-cards`}
          min={1}
          max={12}
          value={draft.cards}
          onChange={(cards) => set({ cards })}
        />
      </div>
      <fieldset>
        <legend>Each product card shows</legend>
        {SHOW_LABELS.map(([field, label]) => (
          <label key={field} className="choice">
            <input
              type="checkbox"
              checked={draft.show[field]}
              onChange={(e) => set({ show: { ...draft.show, [field]: e.target.checked } })}
            />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Colours and font</legend>
        {colour('accent', 'Accent (buttons, links)')}
        {colour('text', 'Text')}
        <div className="field">
          <label htmlFor={`${ids}-font`}>Font (empty: the theme's)</label>
          <input
            id={`${ids}-font`}
            value={draft.style.font ?? ''}
            maxLength={200}
            placeholder="e.g. Georgia, serif"
            onChange={(e) => set({ style: { ...draft.style, font: e.target.value.replace(/[;{}<>]/g, '') || null } })}
          />
        </div>
      </fieldset>
    </div>
  );
}
