import { useEffect } from 'react';
import { useConsole } from './context';

const PRODUCT = 'Rebound';

/** The tab's title: the parts, most specific first, then the product (`Catalog — Outfitters — Rebound`). */
export const titleOf = (parts: readonly string[]) => [...parts, PRODUCT].join(' — ');

/**
 * Sets the tab's title while the page is shown, so tabs, history and screen readers name the page.
 * `null` leaves the title to a part of the page that knows better (an editor once its ruleset has loaded).
 */
export function useDocumentTitle(parts: readonly string[] | null): void {
  const title = parts === null ? null : titleOf(parts);
  useEffect(() => {
    if (title !== null) document.title = title;
  }, [title]);
}

/** A signed-in page's title: the page, then the shop it shows. */
export function usePageTitle(page: string | null): void {
  const { shop } = useConsole();
  useDocumentTitle(page === null ? null : [page, shop.name]);
}
