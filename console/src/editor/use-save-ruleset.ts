import { useEffect, useState } from 'react';
import type { ApiError } from '../api';
import { useConsole } from '../context';
import { useKeptStore } from '../kept-state';
import type { Ruleset } from '../types';
import { savedMessage } from './draft-reducer';
import type { RulesetDraft } from './use-ruleset-draft';

const flashKey = (shop: string, id: number) => `editor.saved:${shop}:${id}`;

/**
 * Saves the draft: POST for a new ruleset, PUT for a stored one. A new ruleset then opens under
 * its id, and the editor there shows the message this save leaves for it.
 */
export function useSaveRuleset(
  { state, dispatch, ruleset }: RulesetDraft,
  navigate: (to: string, force?: boolean) => void,
): () => Promise<void> {
  const { api, shop } = useConsole();
  const kept = useKeptStore();
  const id = state.draft.id;
  return async () => {
    dispatch({ type: 'saveStarted' });
    const base = `/shops/${encodeURIComponent(shop.handle)}/rulesets`;
    try {
      const answer =
        id === null
          ? await api.send<{ ruleset: Ruleset }>('POST', base, ruleset)
          : await api.send<{ ruleset: Ruleset }>('PUT', `${base}/${id}`, ruleset);
      dispatch({ type: 'saved', document: ruleset, answer: answer.ruleset });
      if (id === null && answer.ruleset.id !== undefined) {
        kept.set(flashKey(shop.handle, answer.ruleset.id), savedMessage(answer.ruleset));
        navigate(`/rulesets/${answer.ruleset.id}`, true);
      }
    } catch (error) {
      const failure = error as ApiError;
      dispatch({ type: 'saveFailed', problems: failure.problems ?? [], reason: failure.message });
    }
  };
}

/** The message a save of a new ruleset left for the editor of ruleset `id`: read once, then forgotten. */
export function useSavedMessage(id: number | null): string | null {
  const { shop } = useConsole();
  const kept = useKeptStore();
  const key = id === null ? null : flashKey(shop.handle, id);
  const [message] = useState(() => (key === null ? null : (kept.get<string>(key) ?? null)));
  useEffect(() => {
    if (key !== null) kept.forget(key);
  }, [kept, key]);
  return message;
}
