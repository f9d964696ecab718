import {
  closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { ApiError } from '../api';
import { Announcer } from '../components/Announcer';
import { useConsole } from '../context';
import { Preview } from '../editor/Preview';
import { Problems, RuleBlock, type RuleProblems } from '../editor/RuleBlock';
import {
  blankRule, draftFrom, draftGroupIndex, emptyDraft, isFreshAt, move, placeOf, previewDocumentOf, problemsAt, rulesetOf, sameDocument, type Draft, type DraftRule,
} from '../editor/model';
import { focusSoon, useLoad } from '../hooks';
import type { Problem, RuleCatalog, Ruleset } from '../types';

interface Props {
  id: number | null;
  catalog: RuleCatalog;
  onDirty(dirty: boolean): void;
  navigate(to: string, force?: boolean): void;
}

/** The message a save of a new ruleset leaves for the editor that opens it under its new id. */
let flash: string | null = null;

/** Loads a ruleset (or starts a new one) and hands it to the editor. */
export function RulesetEditorPage({ id, catalog, onDirty, navigate }: Props) {
  const { api, shop } = useConsole();
  const loaded = useLoad<Ruleset | null>(
    () => (id === null ? Promise.resolve(null) : api.get<{ ruleset: Ruleset }>(`/shops/${encodeURIComponent(shop.handle)}/rulesets/${id}`).then((r) => r.ruleset)),
    [id, shop.handle],
  );
  if (loaded.loading) return <p className="muted">Loading ruleset…</p>;
  if (loaded.error) return <p className="error" role="alert">{loaded.error}</p>;
  const start = loaded.data ? draftFrom(loaded.data) : { ...emptyDraft(), name: 'New ruleset', rules: [blankRule(catalog, 1)] };
  return <RulesetEditor key={`${shop.handle}:${id ?? 'new'}`} initial={start} savedDocument={loaded.data ? rulesetOf(draftFrom(loaded.data), catalog) : null}
    catalog={catalog} onDirty={onDirty} navigate={navigate} />;
}

function RulesetEditor({ initial, savedDocument, catalog, onDirty, navigate }: {
  initial: Draft; savedDocument: Ruleset | null; catalog: RuleCatalog; onDirty(dirty: boolean): void; navigate(to: string, force?: boolean): void;
}) {
  const { api, shop } = useConsole();
  const [draft, setDraft] = useState(initial);
  const [saved, setSaved] = useState<Ruleset | null>(savedDocument);
  // A new ruleset nobody has touched yet has nothing to lose.
  const [untouchedNew] = useState(() => (savedDocument === null ? rulesetOf(initial, catalog) : null));
  // Problems of the last save, or of the last live preview (which keeps quiet about untouched new rows).
  const [reported, setReported] = useState<{ source: 'save' | 'preview'; problems: Problem[] }>({ source: 'save', problems: [] });
  const setProblems = (problems: Problem[]) => setReported({ source: 'save', problems });
  const fullPathRef = useRef<(path: string) => string>((path) => path);
  const onPreviewProblems = useCallback((problems: Problem[]) => {
    setReported({ source: 'preview', problems: problems.map((p) => ({ ...p, path: fullPathRef.current(p.path) })) });
    // A preview that validates clean clears a stale "not saved" message.
    if (problems.length === 0) setStatus((s) => (s?.kind === 'error' ? null : s));
  }, []);
  const [status, setStatus] = useState<{ kind: 'ok' | 'error'; text: string } | null>(() => {
    const message = flash;
    flash = null;
    return message ? { kind: 'ok', text: message } : null;
  });
  const [saving, setSaving] = useState(false);
  const nameId = useId();
  const document = useMemo(() => rulesetOf(draft, catalog), [draft, catalog]);
  const forPreview = useMemo(() => previewDocumentOf(draft, catalog), [draft, catalog]);
  fullPathRef.current = forPreview.fullPath;
  const problems = reported.source === 'save' ? reported.problems : reported.problems.filter((p) => !isFreshAt(draft, p.path));
  const dirty = saved === null ? !sameDocument(document, untouchedNew!) : !sameDocument(document, saved);

  useEffect(() => { onDirty(dirty); }, [dirty, onDirty]);
  useEffect(() => () => onDirty(false), [onDirty]);

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const setRules = (rules: DraftRule[]) => setDraft({ ...draft, rules });
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = draft.rules.findIndex((r) => r.key === active.id);
    const to = draft.rules.findIndex((r) => r.key === over.id);
    setRules(move(draft.rules, from, to));
    // Problems point at rule positions of the last answer; after a move they would point at the wrong rows.
    setProblems([]);
  };

  async function save() {
    setSaving(true);
    setStatus(null);
    const base = `/shops/${encodeURIComponent(shop.handle)}/rulesets`;
    try {
      const answer = draft.id === null
        ? await api.send<{ ruleset: Ruleset }>('POST', base, document)
        : await api.send<{ ruleset: Ruleset }>('PUT', `${base}/${draft.id}`, document);
      setProblems([]);
      setSaved(document);
      const message = `Saved ${answer.ruleset.name} (version ${answer.ruleset.version ?? 1}).`;
      setStatus({ kind: 'ok', text: message });
      if (draft.id === null && answer.ruleset.id !== undefined) {
        // The new ruleset opens under its id; the editor there shows this message.
        flash = message;
        navigate(`/rulesets/${answer.ruleset.id}`, true);
      }
    } catch (error) {
      const failure = error as ApiError;
      setProblems(failure.problems);
      setStatus({ kind: 'error', text: failure.problems.length > 0 ? `Not saved: ${failure.problems.length} problem${failure.problems.length === 1 ? '' : 's'}, shown next to ${failure.problems.length === 1 ? 'its row' : 'their rows'}.` : `Not saved: ${failure.message}` });
    } finally {
      setSaving(false);
    }
  }

  const rulesetProblems = problemsAt(problems, draft, {});
  const problemsFor = (r: number): RuleProblems => ({
    rule: problemsAt(problems, draft, { rule: r }),
    condition: (g, c) => problemsAt(problems, draft, { rule: r, group: g, condition: c }),
    output: (o) => problemsAt(problems, draft, { rule: r, output: o }),
  });
  // Problems the rows cannot show (a group the draft no longer has) are listed at the top.
  const orphans = problems.filter((p) => {
    const place = placeOf(p.path);
    const rule = place.rule !== undefined ? draft.rules[place.rule] : undefined;
    if (place.rule === undefined) return false;
    if (!rule) return true;
    return place.group !== undefined && draftGroupIndex(rule, place.group) < 0;
  });

  return (
    <div className="editor-layout">
      <form className="editor" onSubmit={(e) => { e.preventDefault(); void save(); }} aria-label="Ruleset editor">
        <div className="editor-head">
          <h1>{draft.id === null ? 'New ruleset' : `Ruleset ${draft.id}`}</h1>
          {dirty && <span className="badge unsaved" role="status">Unsaved changes</span>}
        </div>
        <div className="settings">
          <div className="field">
            <label htmlFor={nameId}>Ruleset name</label>
            <input id={nameId} value={draft.name} required maxLength={200} onChange={(e) => setDraft({ ...draft, name: e.target.value })}
              aria-invalid={rulesetProblems.length > 0 || undefined} />
          </div>
          <label className="toggle"><input type="checkbox" checked={draft.enabled} onChange={(e) => setDraft({ ...draft, enabled: e.target.checked })} /> Enabled</label>
          <label className="toggle"><input type="checkbox" checked={draft.filter_oos} onChange={(e) => setDraft({ ...draft, filter_oos: e.target.checked })} /> Hide out-of-stock products</label>
          <label className="toggle"><input type="checkbox" checked={draft.filter_input_products} onChange={(e) => setDraft({ ...draft, filter_input_products: e.target.checked })} /> Hide the input products</label>
        </div>
        <Problems problems={[...rulesetProblems, ...orphans]} />

        <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}
          accessibility={{ announcements: announcements(draft.rules) }}>
          <SortableContext items={draft.rules.map((r) => r.key)} strategy={verticalListSortingStrategy}>
            <ol className="rules" aria-label="Rules, in the order they run">
              {draft.rules.map((rule, index) => (
                <SortableRule key={rule.key} id={rule.key}>
                  {(handle) => (
                    <RuleBlock rule={rule} index={index} count={draft.rules.length} catalog={catalog} problems={problemsFor(index)} handle={handle}
                      onChange={(next) => setRules(draft.rules.map((r) => (r.key === rule.key ? next : r)))}
                      onRemove={() => {
                        const next = draft.rules[index + 1] ?? draft.rules[index - 1];
                        setRules(draft.rules.filter((r) => r.key !== rule.key));
                        setProblems([]);
                        focusSoon([...(next ? [`[data-rule="${next.key}"] .drag-handle`] : []), '#add-rule']);
                      }}
                      onMove={(to) => {
                        setRules(move(draft.rules, index, to));
                        setProblems([]);
                        const way = to < index ? 'up' : 'down';
                        const other = way === 'up' ? 'down' : 'up';
                        focusSoon([`[data-rule="${rule.key}"] [data-move="${way}"]:not([disabled])`, `[data-rule="${rule.key}"] [data-move="${other}"]:not([disabled])`, `[data-rule="${rule.key}"] .drag-handle`]);
                      }} />
                  )}
                </SortableRule>
              ))}
            </ol>
          </SortableContext>
        </DndContext>
        {draft.rules.length === 0 && <p className="muted">No rules: the ruleset returns nothing.</p>}
        <button type="button" className="add" id="add-rule" onClick={() => {
          const rule = blankRule(catalog, draft.rules.length + 1);
          setRules([...draft.rules, rule]);
          focusSoon([`[data-rule="${rule.key}"] .rule-name`]);
        }}>+ Add rule</button>

        {draft.id !== null && <UseIt id={draft.id} />}
        <div className="savebar">
          <button type="submit" className="primary" disabled={saving}>{saving ? 'Saving…' : 'Save ruleset'}</button>
          <Announcer message={status} />
        </div>
      </form>
      <Preview ruleset={forPreview.document} onProblems={onPreviewProblems} />
    </div>
  );
}

type Handle = Parameters<typeof RuleBlock>[0]['handle'];

/** How a saved ruleset reaches a storefront: the widget's script tag and the API call, ready to copy. */
function UseIt({ id }: { id: number }) {
  const origin = window.location.origin;
  return (
    <details className="use-it">
      <summary>Use this ruleset on a storefront</summary>
      <p>A product-card widget (replace the key with the shop's public key and the ids with the page's products):</p>
      <pre><code>{`<script src="${origin}/widget.js" async\n  data-key="YOUR_PUBLIC_KEY" data-ruleset="${id}"\n  data-product-ids="PRODUCT_ID" data-title="You may also like"></script>`}</code></pre>
      <p>Or the JSON answer from a back end or an email tool:</p>
      <pre><code>{`GET ${origin}/api/v1/custom/id/${id}?key=YOUR_PUBLIC_KEY&shop_product_ids=PRODUCT_ID`}</code></pre>
    </details>
  );
}

function SortableRule({ id, children }: { id: string; children(handle: Handle): React.ReactNode }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id });
  return (
    <li ref={setNodeRef} className={isDragging ? 'dragging' : undefined}
      style={{ transform: CSS.Transform.toString(transform), transition }}>
      {children({ attributes, listeners, setActivatorNodeRef })}
    </li>
  );
}

/** Screen-reader sentences for keyboard drags, by rule position rather than internal keys. */
function announcements(rules: DraftRule[]) {
  const position = (id: string | number) => rules.findIndex((r) => r.key === id) + 1;
  return {
    onDragStart: ({ active }: { active: { id: string | number } }) => `Picked up rule ${position(active.id)}.`,
    onDragOver: ({ active, over }: { active: { id: string | number }; over: { id: string | number } | null }) =>
      over ? `Rule ${position(active.id)} is over position ${position(over.id)}.` : `Rule ${position(active.id)} is not over a position.`,
    onDragEnd: ({ active, over }: { active: { id: string | number }; over: { id: string | number } | null }) =>
      over ? `Rule ${position(active.id)} dropped at position ${position(over.id)}.` : `Rule ${position(active.id)} dropped.`,
    onDragCancel: ({ active }: { active: { id: string | number } }) => `Moving rule ${position(active.id)} was cancelled.`,
  };
}
