import type { Api } from '../api';
import type { Widget } from './model';

/**
 * The names of the widgets that show a ruleset (disabling it empties them until it is enabled
 * again), read when asked: the editor does not load the widgets while the merchant edits rules.
 */
export async function widgetsShowing(api: Api, handle: string, rulesetId: number | null): Promise<string[]> {
  if (rulesetId === null) return [];
  const { data } = await api.get<{ data: Widget[] }>(`/shops/${encodeURIComponent(handle)}/widgets`);
  return data.filter((w) => 'ruleset_id' in w.source && w.source.ruleset_id === rulesetId).map((w) => w.name);
}
