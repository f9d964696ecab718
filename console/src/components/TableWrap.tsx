import type { ReactNode } from 'react';

/**
 * A table that scrolls sideways on a small screen. A keyboard user must be able to reach it to
 * scroll it (axe: scrollable-region-focusable), so it takes focus and says what it is.
 */
export function TableWrap({ children }: { children: ReactNode }) {
  return (
    /* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable to be scrolled from the
       keyboard */
    <section className="table-wrap" aria-label="Table, scrolls sideways on small screens" tabIndex={0}>
      {children}
    </section>
  );
}
