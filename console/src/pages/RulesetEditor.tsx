import { LoadState } from '../components/LoadState';
import { useConsole } from '../context';
import { RulesetEditor } from '../editor/RulesetEditor';
import { useLoad } from '../hooks';
import { usePageTitle } from '../title';
import type { RuleCatalog, Ruleset } from '../types';

interface Props {
  id: number | null;
  catalog: RuleCatalog;
  onDirty(dirty: boolean): void;
  navigate(to: string, force?: boolean): void;
}

/** Loads a ruleset (or starts a new one) and hands it to the editor. */
export function RulesetEditorPage({ id, catalog, onDirty, navigate }: Props) {
  const { api, shop } = useConsole();
  const loaded = useLoad<Ruleset | null>(
    () =>
      id === null
        ? Promise.resolve(null)
        : api
            .get<{ ruleset: Ruleset }>(`/shops/${encodeURIComponent(shop.handle)}/rulesets/${id}`)
            .then((r) => r.ruleset),
    [id, shop.handle],
  );
  const ready = !loaded.loading && !loaded.error;
  // Once loaded, the editor names the page by the ruleset's name.
  usePageTitle(ready ? null : id === null ? 'New ruleset' : `Ruleset ${id}`);
  if (loaded.loading || loaded.error) return <LoadState loaded={loaded} what={`ruleset ${id}`} />;
  return (
    <RulesetEditor
      key={`${shop.handle}:${id ?? 'new'}`}
      stored={loaded.data ?? null}
      catalog={catalog}
      onDirty={onDirty}
      navigate={navigate}
    />
  );
}
