import { LoadState } from '../components/LoadState';
import { useId, useRef, useState } from 'react';
import { useConsole } from '../context';
import { useLoad } from '../hooks';
import { usePageTitle } from '../title';
import { WidgetForm } from '../widgets/WidgetForm';
import { WidgetPreview } from '../widgets/WidgetPreview';
import { blankWidget, inputOf, PLACEMENT_LABELS, snippetOf, type Widget, type WidgetInput } from '../widgets/model';
import { ActionMessage, type Said } from '../components/ActionMessage';
import { CopyButton } from '../components/CopyButton';
import { refusal } from '../problem-words';
import { useOneAtATime } from '../one-at-a-time';

/**
 * Storefront widgets a merchant designs here and places once: the theme holds only the snippet,
 * and every later change of design or source shows on the next page load.
 */
export function WidgetsPage({ endpoints }: { endpoints: string[] }) {
  const { api, shop } = useConsole();
  usePageTitle('Widgets');
  const ids = useId();
  const base = `/shops/${encodeURIComponent(shop.handle)}`;
  const widgets = useLoad(() => api.get<{ data: Widget[] }>(`${base}/widgets`).then((r) => r.data), [base]);
  const rulesets = useLoad(
    () => api.get<{ data: { id: number; name: string; enabled: boolean }[] }>(`${base}/rulesets`).then((r) => r.data),
    [base],
  );
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [draft, setDraft] = useState<WidgetInput>(blankWidget);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const lists = endpoints
    .map((e) => e.replace(/^\/products\//, ''))
    // viewed-related is an older name of a list offered under its own; static, collections and search need what a
    // page never sends.
    .filter((name) => /^[a-z][a-z_]{0,62}$/.test(name) && !['static', 'collections', 'search'].includes(name));
  const saved = widgets.data?.find((w) => w.id === editing);

  const open = (widget: Widget | null) => {
    setMessage(null);
    setEditing(widget ? widget.id : 'new');
    setDraft(widget ? inputOf(widget) : blankWidget());
  };
  const [saving, oneAtATime] = useOneAtATime();
  const save = async () => {
    setMessage(null);
    try {
      const { widget } =
        editing === 'new'
          ? await api.send<{ widget: Widget }>('POST', `${base}/widgets`, draft)
          : await api.send<{ widget: Widget }>('PUT', `${base}/widgets/${editing}`, draft);
      setEditing(widget.id);
      widgets.reload();
      setMessage({ error: false, text: `Saved. Storefronts show this version on their next page load.` });
    } catch (e) {
      setMessage({ error: true, text: refusal(e) });
    }
  };
  // What a delete did, or why it did not, said above the list (the form it may have closed held the save's message).
  const [removal, setRemoval] = useState<Said | null>(null);
  const remove = async (widget: Widget) => {
    if (!window.confirm(`Delete “${widget.name}”? Pages that hold its snippet will show nothing in its place.`)) return;
    setRemoval(null);
    try {
      await api.send('DELETE', `${base}/widgets/${widget.id}`);
      if (editing === widget.id) setEditing(null);
      setRemoval({ error: false, text: `Deleted “${widget.name}”.` });
    } catch (e) {
      setRemoval({ error: true, text: `“${widget.name}” was not deleted: ${refusal(e)}` });
    }
    widgets.reload();
  };

  return (
    <section aria-labelledby={`${ids}-h`}>
      <h1 id={`${ids}-h`}>Widgets</h1>
      <p className="muted">
        A widget shows products on your storefront. Design it here, paste its snippet into your theme once, and change
        it here whenever you like.
      </p>
      <LoadState loaded={widgets} what="widgets" />
      {rulesets.error !== null && <LoadState loaded={rulesets} what="your rulesets (a widget can show one)" />}
      <ActionMessage message={removal} okClass="notice" />
      {widgets.data && widgets.data.length === 0 && <p>No widgets yet.</p>}
      {widgets.data && widgets.data.length > 0 && (
        <table className="widget-list">
          <caption className="visually-hidden">Your widgets</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Where</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {widgets.data.map((w) => (
              <tr key={w.id}>
                <td>{w.name}</td>
                <td>{PLACEMENT_LABELS[w.placement]}</td>
                <td>
                  <button type="button" onClick={() => open(w)}>
                    Edit {w.name}
                  </button>{' '}
                  <button type="button" onClick={() => void remove(w)}>
                    Delete {w.name}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <button type="button" className="primary" onClick={() => open(null)}>
        Create a widget
      </button>
      {editing !== null && (
        <form
          className="widget-editor"
          aria-label={editing === 'new' ? 'New widget' : `Widget ${saved?.name ?? ''}`}
          onSubmit={(e) => {
            e.preventDefault();
            void oneAtATime(save);
          }}
        >
          <h2>{editing === 'new' ? 'New widget' : `Edit “${saved?.name ?? ''}”`}</h2>
          <div className="widget-editor-columns">
            <WidgetForm draft={draft} onChange={setDraft} rulesets={rulesets.data ?? []} lists={lists} />
            <WidgetPreview draft={draft} id={typeof editing === 'number' ? editing : 0} />
          </div>
          <ActionMessage message={message} okClass="notice" />
          <button type="submit" className="primary" disabled={draft.name.trim() === '' || saving}>
            {editing === 'new' ? 'Create the widget' : 'Save changes'}
          </button>
          {saved && <Snippet widget={saved} />}
        </form>
      )}
    </section>
  );
}

function Snippet({ widget }: { widget: Widget }) {
  const { shop } = useConsole();
  const shown = useRef<HTMLPreElement>(null);
  const text = snippetOf(widget, window.location.origin, shop.currency);
  return (
    <div className="widget-snippet">
      <h3>Put it on your storefront</h3>
      <p>
        Paste this where the widget should appear in your theme ({PLACEMENT_LABELS[widget.placement].toLowerCase()}),
        with your shop's public key (it starts with <code>rb_pub_</code>) in place of <code>YOUR_PUBLIC_KEY</code>. You
        only do this once: changes saved here show without touching the theme again.
      </p>
      <pre ref={shown} data-testid="widget-snippet">
        {text}
      </pre>
      <CopyButton text={text} source={shown} label="Copy the snippet" />
    </div>
  );
}
