import { useCallback, useEffect, useMemo } from 'react';
import { Announcer } from '../components/Announcer';
import { useExperimentsByRuleset } from '../experiments/use-running';
import { useConsole } from '../context';
import { widgetsShowing } from '../widgets/use-showing';
import { usePageTitle } from '../title';
import type { Problem, RuleCatalog, Ruleset } from '../types';
import { orphanProblems, problemsAt, ruleProblems } from './placement';
import { Preview } from './Preview';
import { Problems } from './Problems';
import { RuleList } from './RuleList';
import { RulesetSettings } from './RulesetSettings';
import { UseIt } from './UseIt';
import { useRulesetDraft } from './use-ruleset-draft';
import { useSavedMessage, useSaveRuleset } from './use-save-ruleset';
import { useOneAtATime } from '../one-at-a-time';

interface Props {
  /** The ruleset as stored, or null for a new one. */
  stored: Ruleset | null;
  catalog: RuleCatalog;
  onDirty(dirty: boolean): void;
  navigate(to: string, force?: boolean): void;
}

/** The graphical ruleset editor: settings, rules, save, and the live preview beside them. */
export function RulesetEditor({ stored, catalog, onDirty, navigate }: Props) {
  const flash = useSavedMessage(stored?.id ?? null);
  const editor = useRulesetDraft(catalog, stored, flash);
  const {
    state: { draft, baseline, status, saving },
    dispatch,
    problems,
    dirty,
  } = editor;
  const save = useSaveRuleset(editor, navigate);
  const [, oneAtATime] = useOneAtATime();
  usePageTitle(draft.id === null ? 'New ruleset' : `Edit ${baseline.name}`);

  useEffect(() => {
    onDirty(dirty);
  }, [dirty, onDirty]);
  useEffect(() => () => onDirty(false), [onDirty]);
  const onPreviewProblems = useCallback(
    (found: Problem[]) => dispatch({ type: 'previewProblems', problems: found }),
    [dispatch],
  );
  const rulesetProblems = problemsAt(problems, draft, {});
  const tested = useExperimentsByRuleset()?.get(draft.id ?? 0);
  const runningTest = tested?.status === 'running' ? tested.name : null;
  const { api, shop } = useConsole();
  const savedId = draft.id;
  const shownBy = useMemo(
    () => (savedId === null ? null : () => widgetsShowing(api, shop.handle, savedId)),
    [api, shop.handle, savedId],
  );

  return (
    <div className="editor-layout">
      <form
        className="editor"
        onSubmit={(e) => {
          e.preventDefault();
          void oneAtATime(save);
        }}
        aria-label="Ruleset editor"
      >
        <div className="editor-head">
          <h1>{draft.id === null ? 'New ruleset' : `Ruleset ${draft.id}`}</h1>
          {dirty && (
            <span className="badge unsaved" role="status">
              Unsaved changes
            </span>
          )}
        </div>
        {runningTest !== null && (
          <p className="note" role="note">
            This ruleset is in the running experiment <a href="#/experiments">“{runningTest}”</a>. Saving changes what
            its visitors see in the middle of the test, so the experiment then compares two versions mixed together. To
            try a change, duplicate the ruleset instead.
          </p>
        )}
        <RulesetSettings
          draft={draft}
          problems={rulesetProblems}
          dispatch={dispatch}
          runningTest={runningTest}
          shownBy={shownBy}
        />
        {/* Problems the rows cannot show (a group the draft no longer has) are listed at the top. */}
        <Problems problems={orphanProblems(problems, draft)} />
        <RuleList
          rules={draft.rules}
          catalog={catalog}
          problemsOf={(index) => ruleProblems(problems, draft, index)}
          dispatch={dispatch}
        />
        {draft.rules.length === 0 && <p className="muted">No rules: the ruleset returns nothing.</p>}
        <button type="button" className="add" id="add-rule" onClick={() => dispatch({ type: 'addRule' })}>
          + Add rule
        </button>
        {draft.id !== null && <UseIt id={draft.id} ruleset={editor.previewRuleset} catalog={catalog} />}
        <div className="savebar">
          {/* Not disabled while saving: a disabled button drops focus to the page (the run is guarded instead). */}
          <button type="submit" className="primary" aria-disabled={saving || undefined}>
            {saving ? 'Saving…' : 'Save ruleset'}
          </button>
          <Announcer message={status} />
        </div>
      </form>
      <Preview ruleset={editor.previewRuleset} catalog={catalog} onProblems={onPreviewProblems} />
    </div>
  );
}
