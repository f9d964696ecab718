import { useConsole } from '../context';
import { useLoad } from '../hooks';
import type { Experiment } from './types';

/**
 * The shop's experiments by the ruleset they test (running ones
 * win over stopped ones), for the rulesets list and the editor.
 */
export function useExperimentsByRuleset(): Map<number, Experiment> | undefined {
  const { api, shop } = useConsole();
  const loaded = useLoad(
    () => api.get<{ data: Experiment[] }>(`/shops/${encodeURIComponent(shop.handle)}/experiments`).then((r) => r.data),
    [shop.handle],
  );
  if (!loaded.data) return undefined;
  const out = new Map<number, Experiment>();
  // The list is newest first: the first seen per ruleset is its latest; a running one replaces it.
  for (const e of loaded.data) if (!out.has(e.ruleset_id) || e.status === 'running') out.set(e.ruleset_id, e);
  return out;
}
