import type { DraggableAttributes, DraggableSyntheticListeners } from '@dnd-kit/core';
import { useId } from 'react';
import type { Problem, RuleCatalog } from '../types';
import { CollectionSelect } from './CollectionPicker';
import { blankCondition, blankOutput, fieldOf, newKey, touchedCondition, touchedOutput, type DraftCondition, type DraftOutput, type DraftRule } from './model';
import { focusSoon } from '../hooks';
import { ValueInput } from './ValueInput';

export interface RuleProblems {
  rule: Problem[];
  condition(group: number, index: number): Problem[];
  output(index: number): Problem[];
}

interface Props {
  rule: DraftRule;
  index: number;
  count: number;
  catalog: RuleCatalog;
  problems: RuleProblems;
  onChange(rule: DraftRule): void;
  onRemove(): void;
  onMove(to: number): void;
  handle: { attributes: DraggableAttributes; listeners: DraggableSyntheticListeners; setActivatorNodeRef(node: HTMLElement | null): void };
}

/** One rule: IF / AND IF / OR IF condition rows, RETURN / AND output rows, and its toggles. */
export function RuleBlock({ rule, index, count, catalog, problems, onChange, onRemove, onMove, handle }: Props) {
  const number = index + 1;
  const nameId = useId();
  const set = (patch: Partial<DraftRule>) => onChange({ ...rule, ...patch });
  const setCondition = (g: number, c: number, next: DraftCondition | null) => set({
    groups: rule.groups
      .map((group, gi) => (gi !== g ? group : { ...group, conditions: next ? group.conditions.map((x, ci) => (ci === c ? next : x)) : group.conditions.filter((_, ci) => ci !== c) }))
      .filter((group) => group.conditions.length > 0),
  });
  const firstCondition = catalog.conditions.find((c) => c.type !== 'anything') ?? catalog.conditions[0]!;
  // A new row takes focus at its first control, so the keyboard user carries on there.
  const focusRow = (key: string) => focusSoon([`[data-row="${key}"] select`]);
  const addCondition = (g: number) => {
    const condition = blankCondition(firstCondition);
    set({ groups: rule.groups.map((group, gi) => (gi === g ? { ...group, conditions: [...group.conditions, condition] } : group)) });
    focusRow(condition.key);
  };
  const addGroup = () => {
    const condition = blankCondition(firstCondition);
    set({ groups: [...rule.groups, { key: newKey('g'), conditions: [condition] }] });
    focusRow(condition.key);
  };
  const setOutput = (o: number, next: DraftOutput | null) => set({ outputs: next ? rule.outputs.map((x, oi) => (oi === o ? next : x)) : rule.outputs.filter((_, oi) => oi !== o) });
  const addOutput = () => {
    const output = blankOutput(catalog.outputs[0]!, catalog);
    set({ outputs: [...rule.outputs, output] });
    focusRow(output.key);
  };
  const here = `[data-rule="${rule.key}"]`;
  // After a row goes, focus stays in its part of the rule: the next row's type, else that part's add button.
  const removeCondition = (g: number, c: number) => {
    const group = rule.groups[g]!;
    const next = group.conditions[c + 1] ?? group.conditions[c - 1];
    setCondition(g, c, null);
    focusSoon([...(next ? [`${here} [data-row="${next.key}"] select`] : []), `${here} [data-add="condition"]`]);
  };
  const removeOutput = (o: number) => {
    const next = rule.outputs[o + 1] ?? rule.outputs[o - 1];
    setOutput(o, null);
    focusSoon([...(next ? [`${here} [data-row="${next.key}"] select`] : []), `${here} [data-add="output"]`]);
  };

  return (
    <section className={`rule${rule.enabled ? '' : ' rule-disabled'}`} aria-label={`Rule ${number}`} data-rule={rule.key}>
      <header className="rule-head">
        <button type="button" className="drag-handle" ref={handle.setActivatorNodeRef} {...handle.attributes} {...handle.listeners}
          aria-label={`Drag rule ${number} to reorder (Space to lift, arrows to move)`}>⠿</button>
        <h3 className="rule-number">Rule {number}</h3>
        <label htmlFor={nameId} className="visually-hidden">Rule {number} name</label>
        <input id={nameId} className="rule-name" value={rule.name} placeholder="Name (optional)" onChange={(e) => set({ name: e.target.value })} />
        <label className="toggle"><input type="checkbox" checked={rule.enabled} onChange={(e) => set({ enabled: e.target.checked })} /> <span className="visually-hidden">Rule {number} </span>Enabled</label>
        <label className="toggle"><input type="checkbox" checked={rule.exit_if_matched} onChange={(e) => set({ exit_if_matched: e.target.checked })} /> <span className="visually-hidden">Rule {number} </span>Exit if matched</label>
        <span className="rule-actions">
          <button type="button" data-move="up" onClick={() => onMove(index - 1)} disabled={index === 0} aria-label={`Move rule ${number} up`}>↑</button>
          <button type="button" data-move="down" onClick={() => onMove(index + 1)} disabled={index === count - 1} aria-label={`Move rule ${number} down`}>↓</button>
          <button type="button" className="danger" onClick={onRemove} aria-label={`Delete rule ${number}`}>Delete</button>
        </span>
      </header>
      <Problems problems={problems.rule} />

      <div className="logic">
        {rule.groups.length === 0 && <p className="keyword-row"><span className="keyword">IF</span> <span className="muted">anything — this rule always matches</span></p>}
        {rule.groups.map((group, g) => (
          <div key={group.key}>
            {g > 0 && <p className="keyword or">OR IF</p>}
            <div className="group" role="group" aria-label={`Rule ${number}, group ${g + 1}`}>
              {group.conditions.map((condition, c) => (
                <ConditionRow key={condition.key} catalog={catalog} condition={condition}
                  keyword={c === 0 ? (g === 0 ? 'IF' : '') : 'AND IF'}
                  label={`Rule ${number}, group ${g + 1}, condition ${c + 1}`}
                  problems={problems.condition(g, c)}
                  onChange={(next) => setCondition(g, c, touchedCondition(next, catalog))} onRemove={() => removeCondition(g, c)} />
              ))}
              <button type="button" className="add" onClick={() => addCondition(g)}>+ AND IF</button>
            </div>
          </div>
        ))}
        <button type="button" className="add" data-add="condition" onClick={addGroup}>{rule.groups.length === 0 ? '+ IF condition' : '+ OR IF'}</button>
      </div>

      <div className="outputs">
        {rule.outputs.map((output, o) => (
          <OutputRow key={output.key} catalog={catalog} output={output} keyword={o === 0 ? 'RETURN' : 'AND'}
            label={`Rule ${number}, output ${o + 1}`} problems={problems.output(o)}
            onChange={(next) => setOutput(o, touchedOutput(next, catalog))} onRemove={() => removeOutput(o)} />
        ))}
        {rule.outputs.length === 0 && <p className="keyword-row"><span className="keyword">RETURN</span> <span className="muted">nothing yet</span></p>}
        <button type="button" className="add" data-add="output" onClick={addOutput}>{rule.outputs.length === 0 ? '+ RETURN' : '+ AND return'}</button>
      </div>
    </section>
  );
}

function ConditionRow({ catalog, condition, keyword, label, problems, onChange, onRemove }: {
  catalog: RuleCatalog; condition: DraftCondition; keyword: string; label: string; problems: Problem[];
  onChange(next: DraftCondition): void; onRemove(): void;
}) {
  const typeId = useId();
  const operatorId = useId();
  const problemId = useId();
  const spec = catalog.conditions.find((c) => c.type === condition.type);
  const operator = spec?.operators.find((o) => o.code === condition.operator);
  const invalid = problems.length > 0;
  const changeType = (type: string) => {
    const next = catalog.conditions.find((c) => c.type === type);
    if (next) onChange({ ...condition, type, operator: next.operators[0]?.code ?? '', value: '', products: [] });
  };
  const changeOperator = (code: string) => {
    const next = spec?.operators.find((o) => o.code === code);
    // Keep the value while the widget stays the same kind (contains any → contains all).
    onChange({ ...condition, operator: code, ...(next?.value !== operator?.value ? { value: '' } : {}) });
  };
  return (
    <div className={`row condition${invalid ? ' row-invalid' : ''}`} role="group" aria-label={label} data-row={condition.key}>
      <span className="keyword">{keyword}</span>
      <label htmlFor={typeId} className="visually-hidden">Condition type</label>
      <select id={typeId} value={condition.type} onChange={(e) => changeType(e.target.value)} aria-invalid={problems.some((p) => fieldOf(p.path) === 'type') || undefined}
        aria-describedby={invalid ? problemId : undefined}>
        {!spec && <option value={condition.type}>Unknown: {condition.type}</option>}
        {catalog.conditions.map((c) => <option key={c.type} value={c.type}>{c.label}</option>)}
      </select>
      {spec && spec.operators.length > 0 && (
        <>
          <label htmlFor={operatorId} className="visually-hidden">Operator</label>
          <select id={operatorId} value={condition.operator} onChange={(e) => changeOperator(e.target.value)} aria-invalid={problems.some((p) => fieldOf(p.path) === 'operator') || undefined}
            aria-describedby={invalid ? problemId : undefined}>
            {!operator && <option value={condition.operator}>Choose…</option>}
            {spec.operators.map((o) => <option key={o.code} value={o.code}>{o.label}</option>)}
          </select>
        </>
      )}
      {operator && (
        <span className="value">
          <ValueInput kind={operator.value} unit={spec?.unit} label="Value" value={condition.value} products={condition.products}
            onValue={(value) => onChange({ ...condition, value })} onProducts={(products) => onChange({ ...condition, products })}
            invalid={invalid} describedBy={invalid ? problemId : undefined} />
        </span>
      )}
      <button type="button" className="icon-button" onClick={onRemove} aria-label={`Remove ${label.toLowerCase()}`}>×</button>
      <Problems id={problemId} problems={problems} />
    </div>
  );
}

function OutputRow({ catalog, output, keyword, label, problems, onChange, onRemove }: {
  catalog: RuleCatalog; output: DraftOutput; keyword: string; label: string; problems: Problem[];
  onChange(next: DraftOutput): void; onRemove(): void;
}) {
  const typeId = useId();
  const problemId = useId();
  const spec = catalog.outputs.find((o) => o.type === output.type);
  const invalid = problems.length > 0;
  const changeType = (type: string) => {
    const next = catalog.outputs.find((o) => o.type === type);
    if (next) onChange({ ...blankOutput(next, catalog), key: output.key });
  };
  return (
    <div className={`row output${invalid ? ' row-invalid' : ''}`} role="group" aria-label={label} data-row={output.key}>
      <span className="keyword">{keyword}</span>
      <label htmlFor={typeId} className="visually-hidden">Output type</label>
      <select id={typeId} value={output.type} onChange={(e) => changeType(e.target.value)}>
        {!spec && <option value={output.type}>Unknown: {output.type}</option>}
        {catalog.outputs.map((o) => <option key={o.type} value={o.type}>{o.label}</option>)}
      </select>
      <span className="value">
        <OutputValue catalog={catalog} output={output} onChange={onChange} invalid={invalid} describedBy={invalid ? problemId : undefined} />
      </span>
      <button type="button" className="icon-button" onClick={onRemove} aria-label={`Remove ${label.toLowerCase()}`}>×</button>
      {spec && spec.value === 'none' && <span className="muted hint">{spec.description}</span>}
      <Problems id={problemId} problems={problems} />
    </div>
  );
}

function OutputValue({ catalog, output, onChange, invalid, describedBy }: {
  catalog: RuleCatalog; output: DraftOutput; onChange(next: DraftOutput): void; invalid: boolean; describedBy: string | undefined;
}) {
  const spec = catalog.outputs.find((o) => o.type === output.type);
  const pathId = useId();
  const queryId = useId();
  switch (spec?.value) {
    case 'products':
      return <ValueInput kind="products" label="Products" value="" products={output.products} onValue={() => undefined}
        onProducts={(products) => onChange({ ...output, products })} invalid={invalid} describedBy={describedBy} />;
    case 'collection':
      return <CollectionValue output={output} onChange={onChange} invalid={invalid} />;
    case 'tag_list':
      return <ValueInput kind="text_list" label="Tags" value={output.value} products={[]} onValue={(value) => onChange({ ...output, value })}
        onProducts={() => undefined} invalid={invalid} describedBy={describedBy} />;
    case 'endpoint': {
      // Split at the first `?` only and keep the parameters as typed (spaces and all).
      const mark = output.endpoint.indexOf('?');
      const path = mark < 0 ? output.endpoint : output.endpoint.slice(0, mark);
      const search = mark < 0 ? '' : output.endpoint.slice(mark + 1);
      const join = (p: string, s: string) => (s === '' ? p : `${p}?${s}`);
      return (
        <span className="endpoint">
          <label htmlFor={pathId} className="visually-hidden">List endpoint</label>
          <select id={pathId} value={path} onChange={(e) => onChange({ ...output, endpoint: join(e.target.value, search) })} aria-invalid={invalid || undefined}>
            {!catalog.endpoints.includes(path) && <option value={path}>{path || 'Choose…'}</option>}
            {catalog.endpoints.map((e) => <option key={e} value={e}>{e}</option>)}
          </select>
          <label htmlFor={queryId} className="visually-hidden">Endpoint parameters</label>
          <input id={queryId} value={search} placeholder="parameters, e.g. limit=3" onChange={(e) => onChange({ ...output, endpoint: join(path, e.target.value) })}
            aria-invalid={invalid || undefined} aria-describedby={describedBy} />
        </span>
      );
    }
    default:
      return null;
  }
}


function CollectionValue({ output, onChange, invalid }: { output: DraftOutput; onChange(next: DraftOutput): void; invalid: boolean }) {
  return <CollectionSelect label="Collection" value={output.collection_id} onChange={(collection_id) => onChange({ ...output, collection_id })} invalid={invalid} />;
}

export function Problems({ problems, id }: { problems: Problem[]; id?: string }) {
  if (problems.length === 0) return null;
  return (
    <ul className="problems" id={id}>
      {problems.map((p) => <li key={`${p.path}:${p.message}`}><strong>{fieldOf(p.path)}</strong> {p.message}</li>)}
    </ul>
  );
}
