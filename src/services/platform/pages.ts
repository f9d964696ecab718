import { createHash } from 'node:crypto';
import { list } from '../../domain/platform/map.js';
import { PlatformError, type GraphqlClient } from './graphql.js';

/**
 * Pages one connection may take: 20,000 pages of 250 are five million objects, far above any shop,
 * and a bound on a platform that answers a new cursor forever.
 */
export const MAX_PAGES = 20_000;
/** The platform's cursors are some 100 characters; one sent back as a query variable need not be longer. */
export const MAX_CURSOR_CHARS = 4096;

interface Page {
  edges?: unknown;
  pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
}

/**
 * The nodes of a connection (`field` of the query's answer), a page at a time, following
 * `pageInfo.endCursor` while `hasNextPage`. A next page without a cursor, a cursor answered before
 * (the platform looping) or more than MAX_PAGES end the sync with a PlatformError: followed, each
 * kept it asking the same page for ever, its shop's later syncs queued behind it.
 */
export async function* pagesOf(
  gql: GraphqlClient,
  query: string,
  field: string,
  variables: Record<string, unknown> = {},
): AsyncGenerator<Record<string, unknown>[]> {
  // Digests, not the cursors: a platform answering ever-new cursors of megabytes grew the set without bound.
  const seen = new Set<string>();
  for (let after: string | null = null; ; ) {
    const data: Record<string, Page | undefined> = await gql.request(query, { ...variables, after });
    const page = data[field];
    if (!page || typeof page !== 'object') throw new PlatformError(`the platform answered no ${field}`);
    yield list(page);
    if (page.pageInfo?.hasNextPage !== true) return;
    const cursor = page.pageInfo.endCursor;
    if (typeof cursor !== 'string' || cursor === '')
      throw new PlatformError(`the platform answered a next page of ${field} without a cursor`);
    if (cursor.length > MAX_CURSOR_CHARS)
      throw new PlatformError(`the platform answered a cursor of ${field} longer than ${MAX_CURSOR_CHARS} characters`);
    const digest = createHash('sha256').update(cursor).digest('base64url');
    if (seen.has(digest)) throw new PlatformError(`the platform answered a page of ${field} twice (a repeated cursor)`);
    if (seen.size >= MAX_PAGES)
      throw new PlatformError(`the platform answered more than ${MAX_PAGES} pages of ${field}`);
    seen.add(digest);
    after = cursor;
  }
}
