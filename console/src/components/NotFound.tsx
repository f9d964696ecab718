import { usePageTitle } from '../title';

/** A console address that names nothing in this shop: says so, in the page and in the tab's title. */
export function NotFound({ what }: { what: string }) {
  usePageTitle('Not found');
  return (
    <p className="error" role="alert">
      No {what}.
    </p>
  );
}
