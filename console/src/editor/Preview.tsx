import { useEffect, useRef, useState } from 'react';
import type { ApiError } from '../api';
import { useConsole } from '../context';
import { count, useDebounced } from '../hooks';
import { useKeptState } from '../kept-state';
import type { PreviewAnswer, Problem, RuleCatalog, Ruleset } from '../types';
import { EMPTY_INPUTS, previewBodyOf, type PreviewInputs as Inputs } from './preview-request';
import { PreviewInputs } from './PreviewInputs';
import { PreviewResult } from './PreviewResult';
import { previewWaitText } from './placement';

/**
 * Live preview: runs the unsaved document through the preview endpoint whenever it or the inputs
 * change, and shows the products and the trace. Its 422 problems go to the editor rows.
 */
export function Preview({
  ruleset,
  catalog,
  onProblems,
}: {
  ruleset: Ruleset;
  catalog: RuleCatalog;
  onProblems(problems: Problem[]): void;
}) {
  const { shop } = useConsole();
  // Kept per shop: saving or opening another ruleset keeps the test case.
  const [inputs, setInputs] = useKeptState<Inputs>(`preview.inputs:${shop.handle}`, EMPTY_INPUTS);
  const run = usePreviewRun(JSON.stringify(previewBodyOf(inputs, ruleset, shop.timezone)), onProblems);
  return (
    <section className="preview" aria-labelledby="preview-heading">
      <h2 id="preview-heading">Live preview</h2>
      <p className="muted">Runs this draft, unsaved, as the custom endpoint would.</p>
      <PreviewInputs inputs={inputs} onChange={setInputs} />
      <p className="status" role="status">
        {run.running ? 'Running…' : run.error ? '' : run.answer ? count(run.answer.data.length, 'product') : ''}
      </p>
      {run.error && (
        <p className="error" role="alert">
          {run.error}
        </p>
      )}
      {run.answer && !run.error && (
        <PreviewResult answer={run.answer} currency={shop.currency} timezone={shop.timezone} catalog={catalog} />
      )}
    </section>
  );
}

/** Sends the body once it has settled; a newer request wins over a slower older one. */
function usePreviewRun(body: string, onProblems: (problems: Problem[]) => void) {
  const { api, shop } = useConsole();
  const [answer, setAnswer] = useState<PreviewAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const request = useDebounced(body, 350);
  const latest = useRef(0);
  const problemsRef = useRef(onProblems);
  problemsRef.current = onProblems;

  useEffect(() => {
    const id = ++latest.current;
    setRunning(true);
    api
      .send<PreviewAnswer>(
        'POST',
        `/shops/${encodeURIComponent(shop.handle)}/rulesets/new/preview`,
        JSON.parse(request),
      )
      .then(
        (result) => {
          if (id !== latest.current) return;
          setAnswer(result);
          setError(null);
          setRunning(false);
          problemsRef.current([]);
        },
        (failure: ApiError) => {
          if (id !== latest.current) return;
          setRunning(false);
          // A 422's problems are shown on their rows, in words; the summary's JSON paths would say it twice, worse.
          const onRows = failure.status === 422 && failure.problems.length > 0;
          setError(onRows ? previewWaitText(failure.problems) : failure.message);
          // Only a 422 says anything about the rows; any other failure leaves them without stale problems.
          problemsRef.current(failure.status === 422 ? failure.problems : []);
        },
      );
  }, [request, api, shop.handle]);
  return { answer, error, running };
}
