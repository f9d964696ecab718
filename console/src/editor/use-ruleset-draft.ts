import { useEffect, useMemo, useReducer, type Dispatch } from 'react';
import type { Problem, RuleCatalog, Ruleset } from '../types';
import {
  createEditorReducer,
  initialEditorState,
  visibleProblems,
  type EditorAction,
  type EditorState,
  type FocusRequest,
} from './draft-reducer';
import { rulesetOf, sameDocument } from './model';
import { previewDocumentOf } from './placement';

/** The editor's state with what the page derives from it. */
export interface RulesetDraft {
  state: EditorState;
  dispatch: Dispatch<EditorAction>;
  /** What a save sends. */
  ruleset: Ruleset;
  /** What the live preview runs: the draft without untouched new rows. */
  previewRuleset: Ruleset;
  /** The problems the rows show now. */
  problems: Problem[];
  /** Whether the draft differs from the stored ruleset (or from a new one as it started). */
  dirty: boolean;
}

/**
 * The ruleset editor's state in one reducer: the draft and its row keys, the problems and messages
 * of the last save or preview, and where keyboard focus goes after each change.
 */
export function useRulesetDraft(catalog: RuleCatalog, stored: Ruleset | null, flash: string | null): RulesetDraft {
  const reducer = useMemo(() => createEditorReducer(catalog), [catalog]);
  const [state, dispatch] = useReducer(reducer, null, () => initialEditorState(catalog, stored, flash));
  useFocusRequest(state.focus);
  const ruleset = useMemo(() => rulesetOf(state.draft, catalog), [state.draft, catalog]);
  const previewRuleset = useMemo(() => previewDocumentOf(state.draft, catalog).document, [state.draft, catalog]);
  const problems = useMemo(() => visibleProblems(state), [state]);
  return { state, dispatch, ruleset, previewRuleset, problems, dirty: !sameDocument(ruleset, state.baseline) };
}

/** Focuses the first element a request names, once React has put the change on screen. */
function useFocusRequest(request: FocusRequest | null): void {
  useEffect(() => {
    if (!request) return;
    for (const selector of request.selectors) {
      const element = document.querySelector<HTMLElement>(selector);
      if (element) {
        element.focus();
        return;
      }
    }
  }, [request]);
}
