import type { Loaded } from '../hooks';

/**
 * What a page shows of a load that has no answer yet: "Loading widgets…" while it runs (an empty page
 * would read as "you have none"; trying again says so too), and when it failed, what could not be
 * loaded, why, and a way to try again. `what` names it as a merchant would: "widgets", "the keys".
 */
export function LoadState({
  loaded,
  what,
  meanwhile,
}: {
  loaded: Loaded<unknown>;
  what: string;
  /** What the page shows instead while it is not loaded, when it shows anything. */
  meanwhile?: string;
}) {
  if (loaded.loading && loaded.data === undefined)
    return (
      <p className="muted" role="status">
        Loading {what}…
      </p>
    );
  if (loaded.error !== null)
    return (
      <div className="load-failed" role="alert">
        <p className="error">
          Could not load {what}. {loaded.error}
          {meanwhile !== undefined && ` ${meanwhile}`}
        </p>
        <button type="button" onClick={loaded.reload}>
          Try again
        </button>
      </div>
    );
  return null;
}
