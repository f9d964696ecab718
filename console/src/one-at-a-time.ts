import { useCallback, useRef, useState } from 'react';

/**
 * One run of an action at a time: a second click while the first is under way does nothing, and `busy`
 * disables its button. A state flag alone is not enough: a double-click's second click comes before React
 * renders the first one's state, and it made a second campaign, widget or ruleset copy.
 */
export function useOneAtATime(): [boolean, (action: () => Promise<void>) => Promise<void>] {
  const running = useRef(false);
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (action: () => Promise<void>) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    try {
      await action();
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);
  return [busy, run];
}
