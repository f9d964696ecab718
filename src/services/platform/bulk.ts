import { BULK_STATUS, RUN_BULK } from '../../domain/platform/queries.js';
import { PlatformError, type GraphqlClient } from './graphql.js';

interface BulkOperation {
  id: string;
  status: string;
  errorCode?: string | null;
  objectCount?: string | number;
  url?: string | null;
}

const FINISHED = new Set(['COMPLETED', 'FAILED', 'CANCELED', 'EXPIRED']);
/** The states the platform documents for an operation still under way; any other ends the sync. */
const UNDER_WAY = new Set(['CREATED', 'RUNNING', 'CANCELING']);
const CURRENT = '{ currentBulkOperation { id status errorCode objectCount url } }';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs one bulk query to its end (docs/api.md, "Connecting the platform"): `bulkOperationRunQuery`,
 * then `node(id:)` polled until the operation finishes. Answers the JSONL file's URL (null when the
 * export is empty). A failed, cancelled or expired operation ends with the platform's error code.
 * The platform runs one bulk query per shop at a time: one still running (an earlier sync that
 * stopped) is waited for before this one starts.
 */
export async function runBulkExport(
  gql: GraphqlClient,
  query: string,
  options: { pollMs: number; stillWanted: () => Promise<boolean> },
): Promise<{ url: string | null; objects: number }> {
  let operation: BulkOperation | null = null;
  for (let attempt = 0; operation === null; attempt++) {
    const data = await gql.request<{
      bulkOperationRunQuery: { bulkOperation: BulkOperation | null; userErrors: unknown[] };
    }>(RUN_BULK, { query });
    operation = data.bulkOperationRunQuery.bulkOperation;
    if (operation) break;
    const current = (await gql.request<{ currentBulkOperation: BulkOperation | null }>(CURRENT)).currentBulkOperation;
    if (attempt >= 2 || !current || FINISHED.has(current.status))
      throw new PlatformError('the platform refused the bulk query');
    await waitFor(gql, current.id, options);
  }
  const done = await waitFor(gql, operation.id, options);
  if (done.status !== 'COMPLETED')
    throw new PlatformError(`the bulk operation ended ${done.status}${done.errorCode ? ` (${done.errorCode})` : ''}`);
  return { url: done.url ?? null, objects: Number(done.objectCount ?? 0) };
}

async function waitFor(
  gql: GraphqlClient,
  id: string,
  options: { pollMs: number; stillWanted: () => Promise<boolean> },
): Promise<BulkOperation> {
  for (;;) {
    const node = (await gql.request<{ node: BulkOperation | null }>(BULK_STATUS, { id })).node;
    if (!node) throw new PlatformError('the bulk operation disappeared');
    if (FINISHED.has(node.status)) return node;
    // Polled as if under way, an unknown state kept the sync (and the shop's next ones) waiting for ever.
    if (!UNDER_WAY.has(node.status))
      throw new PlatformError(
        `the bulk operation is in a state Rebound does not know (${String(node.status).slice(0, 40)})`,
      );
    if (!(await options.stillWanted())) throw new PlatformError('the sync was stopped');
    await sleep(options.pollMs);
  }
}
