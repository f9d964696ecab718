import { gidNumber, toGid } from '../../domain/platform/gid.js';
import { changedPage, NODES_EXIST, PRODUCT_IDS } from '../../domain/platform/queries.js';
import type { SyncCounts } from '../../domain/platform/types.js';
import type { CatalogService } from '../catalog.js';
import type { GraphqlClient } from './graphql.js';
import { pagesOf } from './pages.js';

type Node = Record<string, unknown>;

/** Webhooks and clocks are not exact: a reconciliation looks this far behind the last one. */
export const RECONCILE_MARGIN_MS = 10 * 60_000;

/** Which of these products the platform still has: each one it answers null for is confirmed gone. */
export async function confirmedGone(gql: GraphqlClient, type: string, ids: number[]): Promise<number[]> {
  const gone: number[] = [];
  for (let i = 0; i < ids.length; i += 250) {
    const part = ids.slice(i, i + 250);
    const data = await gql.request<{ nodes: ({ id: string } | null)[] }>(NODES_EXIST, {
      ids: part.map((id) => toGid(type, id)),
    });
    // `nodes` answers in the order asked, null where the object does not exist.
    if (!Array.isArray(data.nodes) || data.nodes.length !== part.length) continue;
    data.nodes.forEach((node, at) => {
      if (node === null) gone.push(part[at]!);
    });
  }
  return gone;
}

/**
 * One reconciliation (docs/api.md, "Connecting the platform"): products, customers and orders
 * changed since the last one (minus a margin) are fetched page by page and upserted; stored
 * products the platform no longer lists are deleted once the platform confirms they are gone.
 */
export async function reconcile(deps: {
  gql: GraphqlClient;
  catalogAdmin: CatalogService;
  /** Maps and upserts a page of objects, one that does not map or is refused skipped alone; answers how many were. */
  importNodes: (shopId: number, resource: 'products' | 'customers' | 'orders', nodes: Node[]) => Promise<number>;
  productIds: (shopId: number) => Promise<number[]>;
  shopId: number;
  since: number | null;
  counts: SyncCounts;
}): Promise<void> {
  const { gql, catalogAdmin, shopId, counts } = deps;
  const since = new Date(Math.max(0, (deps.since ?? 0) - RECONCILE_MARGIN_MS)).toISOString();
  const filter = { query: `updated_at:>'${since}'` };
  for (const resource of ['products', 'customers', 'orders'] as const)
    for await (const nodes of pagesOf(gql, changedPage(resource), resource, filter))
      counts[resource] += await deps.importNodes(shopId, resource, nodes);
  const listed = new Set<number>();
  for await (const nodes of pagesOf(gql, PRODUCT_IDS, 'products'))
    for (const node of nodes) listed.add(gidNumber(node.id) ?? 0);
  const missing = (await deps.productIds(shopId)).filter((id) => !listed.has(id));
  for (const id of await confirmedGone(gql, 'Product', missing)) await catalogAdmin.deleteProduct(shopId, id);
}
