import { gidType } from '../../domain/platform/gid.js';
import { list } from '../../domain/platform/map.js';
import type { PlatformStore } from '../../store/kysely/platform.js';
import { parseUpstreamJson } from '../../domain/inputs/nul.js';

type Node = Record<string, unknown>;

/** The field of its parent a child line of a bulk export belongs to, by the child's type. */
const FIELD_OF: Record<string, string> = {
  ProductVariant: 'variants',
  ProductImage: 'images',
  MediaImage: 'images',
  Metafield: 'metafields',
  Product: 'products',
  LineItem: 'lineItems',
  RefundLineItem: 'refundLineItems',
};

const STAGE_BATCH = 1000;

/**
 * Stages the lines of a bulk export as they stream in. The platform writes a parent before its
 * children but not always right before them, so lines are kept in the database (not in memory)
 * until every line has arrived; then `assembled` joins each parent with its children.
 */
export async function stageExport(
  store: PlatformStore,
  shopId: number,
  lines: AsyncIterable<string>,
): Promise<{ lines: number; roots: number }> {
  await store.clearStaging(shopId);
  let batch: { seq: number; gid: string; parent: string | null; line: string }[] = [];
  let seq = 0;
  let roots = 0;
  for await (const line of lines) {
    const head = JSON.parse(line) as { id?: unknown; __parentId?: unknown };
    const parent = typeof head.__parentId === 'string' ? head.__parentId : null;
    if (parent === null) roots++;
    batch.push({ seq: ++seq, gid: typeof head.id === 'string' ? head.id : '', parent, line });
    if (batch.length >= STAGE_BATCH) {
      await store.stageLines(shopId, batch);
      batch = [];
    }
  }
  if (batch.length > 0) await store.stageLines(shopId, batch);
  return { lines: seq, roots };
}

/** The staged parents a page at a time, each with its children (two levels) joined in as arrays. */
export async function* assembled(store: PlatformStore, shopId: number, pageSize: number): AsyncGenerator<Node[]> {
  for (let after = 0; ; ) {
    const roots = await store.stagedRoots(shopId, after, pageSize);
    if (roots.length === 0) return;
    after = roots[roots.length - 1]!.seq;
    const nodes = roots.map((r) => parseUpstreamJson(r.line) as Node);
    const byGid = new Map<string, Node>(nodes.map((n) => [String(n.id), n]));
    // Objects listed inline (an order's refunds) can have connections of their own.
    for (const node of nodes)
      for (const refund of list(node.refunds)) if (typeof refund.id === 'string') byGid.set(refund.id, refund);
    const children = await store.stagedChildren(shopId, [...byGid.keys()]);
    const level2 = attach(children, byGid);
    const grandchildren = await store.stagedChildren(shopId, level2);
    attach(grandchildren, byGid);
    yield nodes;
  }
}

/** Puts each line into its parent's field; answers the GIDs of the attached children. */
function attach(lines: { gid: string; parent: string | null; line: string }[], byGid: Map<string, Node>): string[] {
  const gids: string[] = [];
  for (const staged of lines) {
    const parent = byGid.get(staged.parent ?? '');
    if (!parent) continue;
    const child = parseUpstreamJson(staged.line) as Node;
    delete child.__parentId;
    const field = FIELD_OF[gidType(staged.gid) ?? ''] ?? 'children';
    const into = Array.isArray(parent[field]) ? (parent[field] as Node[]) : [];
    into.push(child);
    parent[field] = into;
    if (staged.gid !== '') {
      byGid.set(staged.gid, child);
      gids.push(staged.gid);
    }
  }
  return gids;
}
