import { useCallback, useEffect, useRef, useState } from 'react';

export interface Loaded<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

/**
 * Runs an async load when its dependencies change; a newer run wins over a slower older one. Data
 * loaded for other dependencies is never handed out: on the render where they change it is loading.
 */
export function useLoad<T>(
  load: () => Promise<T>,
  deps: readonly unknown[],
  options: { keepPrevious?: boolean } = {},
): Loaded<T> {
  const [tick, setTick] = useState(0);
  const [state, setState] = useState<{
    deps: readonly unknown[];
    tick: number;
    data: T | undefined;
    error: string | null;
  } | null>(null);
  const run = useRef(0);
  /* biome-ignore lint/correctness/useExhaustiveDependencies: the caller's dependency list (and a reload) decide when to
     load again */
  useEffect(() => {
    const id = ++run.current;
    load().then(
      (data) => {
        if (id === run.current) setState({ deps, tick, data, error: null });
      },
      (error: Error) => {
        if (id === run.current) setState({ deps, tick, data: undefined, error: error.message });
      },
    );
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  const current =
    state !== null && state.deps.length === deps.length && state.deps.every((d, i) => Object.is(d, deps[i]));
  // A reload keeps showing the previous answer until the new one arrives; so does a list paging on, when asked.
  const shown = current || options.keepPrevious === true;
  return {
    data: shown ? state?.data : undefined,
    error: current ? state.error : null,
    loading: !current || state.tick !== tick,
    reload,
  };
}

/** The value after it has stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The part of the URL after `#`, e.g. `/rulesets/3`; the console routes by it. `allow` may refuse a
 * change made by Back, Forward or a typed address (unsaved work): the page stays and its address is
 * pushed again. Links ask before they change the hash, so a refused click leaves no entry at all.
 */
const readHash = () => window.location.hash.replace(/^#/, '') || '/rulesets';

export function useHashRoute(allow: () => boolean = () => true): string {
  const [route, setRoute] = useState(readHash);
  const current = useRef(route);
  const allowRef = useRef(allow);
  allowRef.current = allow;
  useEffect(() => {
    const onChange = () => {
      const next = readHash();
      if (next === current.current) return;
      if (!allowRef.current()) {
        // Back the page stays: a new entry for it, so the one Back was heading for is still there.
        window.history.pushState(null, '', `#${current.current}`);
        return;
      }
      current.current = next;
      setRoute(next);
    };
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

export function formatMoney(amount: string | number, currency: string): string {
  const value = typeof amount === 'number' ? amount : Number(amount);
  if (!Number.isFinite(value)) return String(amount);
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(value);
  } catch {
    return `${value.toFixed(2)} ${currency}`;
  }
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** `1 product`, `3 products`. */
export const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/**
 * Focuses the view's heading as soon as it is rendered: pages that load first (a ruleset, a
 * product, the chart pages) show it a moment later. Returns the cancel for an effect's cleanup.
 */
export function focusHeadingWhenReady(selector = '#main h1', timeoutMs = 5000): () => void {
  const started = performance.now();
  let frame = 0;
  const attempt = () => {
    const heading = document.querySelector<HTMLElement>(selector);
    if (heading) {
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    } else if (performance.now() - started < timeoutMs) {
      frame = requestAnimationFrame(attempt);
    }
  };
  attempt();
  return () => cancelAnimationFrame(frame);
}

/**
 * Moves keyboard focus once React has committed the change an event made (a moved rule, a removed
 * row), so focus lands on what the user is working on instead of falling back to the page.
 */
export function focusSoon(selectors: string[]): void {
  setTimeout(() => {
    for (const selector of selectors) {
      const element = document.querySelector<HTMLElement>(selector);
      if (element) {
        element.focus();
        return;
      }
    }
  }, 0);
}

/** After a chip goes: the next chip's remove button, else the previous one's, else the picker's search box. */
export function focusAfterChipRemoval(scope: string, chips: readonly string[], removed: number): void {
  const next = chips[removed + 1] ?? chips[removed - 1];
  focusSoon([
    ...(next !== undefined ? [`${scope} [data-chip="${next}"] .icon-button`] : []),
    `${scope} input[type="search"]`,
  ]);
}
