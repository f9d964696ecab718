import { gidType } from '../../domain/platform/gid.js';
import { isNode, list } from '../../domain/platform/map.js';
import type { PlatformStore } from '../../store/kysely/platform.js';
import { parseUpstreamJson } from '../../domain/inputs/upstream-json.js';
import { nextTurn } from '../../indexes/turns.js';
import { PlatformError } from './graphql.js';

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
    const head = objectOf(line, seq + 1);
    if (head === null) continue;
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

/**
 * Lines one object of the export may hold below it (its children and theirs): a product of 2,048
 * variants, 250 images and metafields, and a few metafields a variant. An object past it is one the
 * import would refuse, and is skipped unread: one product of a million variant lines held every
 * shop's thread 20 s and took the process to 2.35 GB.
 */
export const MAX_LINES_PER_OBJECT = 20_000;

/** Lines read for one page of objects at most (beyond one object's own): what a page holds in memory. */
const LINES_PER_PAGE = 50_000;

/**
 * The staged parents a page at a time, each with its children (two levels) joined in as arrays. A
 * page holds at most `pageSize` parents and, past its first, LINES_PER_PAGE lines below them; a
 * parent holding more than MAX_LINES_PER_OBJECT is skipped (`skipped` is told its GID and count).
 */
export async function* assembled(
  store: PlatformStore,
  shopId: number,
  pageSize: number,
  skipped: (gid: string, lines: number) => void = () => undefined,
  bounds = { objectLines: MAX_LINES_PER_OBJECT, pageLines: LINES_PER_PAGE },
): AsyncGenerator<Node[]> {
  for (let after = 0; ; ) {
    const roots = await store.stagedRoots(shopId, after, pageSize);
    if (roots.length === 0) return;
    const parsed: { seq: number; node: Node; gids: string[] }[] = [];
    await inTurns(roots, (r) => {
      const node = objectOf(r.line, r.seq);
      if (node === null) return;
      // Objects listed inline (an order's refunds) can have connections of their own.
      const gids = [String(node.id), ...list(node.refunds).flatMap((f) => (typeof f.id === 'string' ? [f.id] : []))];
      parsed.push({ seq: r.seq, node, gids });
    });
    const counts = await store.stagedLineCounts(
      shopId,
      parsed.flatMap((p) => p.gids),
    );
    const nodes: Node[] = [];
    const byGid = new Map<string, Node>();
    let lines = 0;
    after = roots[roots.length - 1]!.seq;
    for (const { seq, node, gids } of parsed) {
      const below = gids.reduce((n, gid) => n + (counts.get(gid) ?? 0), 0);
      if (below > bounds.objectLines) {
        skipped(String(node.id), below);
        continue;
      }
      if (nodes.length > 0 && lines + below > bounds.pageLines) {
        after = seq - 1; // this one starts the next page
        break;
      }
      lines += below;
      nodes.push(node);
      byGid.set(String(node.id), node);
      for (const refund of list(node.refunds)) if (typeof refund.id === 'string') byGid.set(refund.id, refund);
    }
    if (nodes.length === 0) continue;
    const children = await store.stagedChildren(shopId, [...byGid.keys()]);
    const level2 = await attach(children, byGid);
    const grandchildren = await store.stagedChildren(shopId, level2);
    await attach(grandchildren, byGid);
    yield nodes;
  }
}

/** Puts each line into its parent's field; answers the GIDs of the attached children. */
async function attach(
  lines: { gid: string; parent: string | null; line: string }[],
  byGid: Map<string, Node>,
): Promise<string[]> {
  const gids: string[] = [];
  await inTurns(lines, (staged) => {
    const parent = byGid.get(staged.parent ?? '');
    const child = parent ? objectOf(staged.line) : null;
    if (!parent || !child) return;
    delete child.__parentId;
    const field = FIELD_OF[gidType(staged.gid) ?? ''] ?? 'children';
    const into = Array.isArray(parent[field]) ? (parent[field] as Node[]) : [];
    into.push(child);
    parent[field] = into;
    if (staged.gid !== '') {
      byGid.set(staged.gid, child);
      gids.push(staged.gid);
    }
  });
  return gids;
}

/**
 * Characters of lines parsed between two turns of the event loop: a page of 250 parents of up to
 * 4 MB each was parsed in one stretch, seconds of every shop's event loop.
 */
const CHARS_PER_TURN = 1024 * 1024;

/** Calls `each` for every staged line, a turn of the event loop after each megabyte of them. */
async function inTurns<T extends { line: string }>(lines: readonly T[], each: (line: T) => void): Promise<void> {
  let chars = 0;
  for (const line of lines) {
    each(line);
    chars += line.line.length;
    if (chars < CHARS_PER_TURN) continue;
    chars = 0;
    await nextTurn();
  }
}

/**
 * A line of the export as an object; null for one that holds another value (a null, a number),
 * which is left out. A line that is not JSON, or nests deeper than an export's objects do, means
 * the file is not what the platform writes: the sync ends failed, naming the line.
 */
function objectOf(line: string, number?: number): Node | null {
  let value: unknown;
  try {
    value = parseUpstreamJson(line);
  } catch {
    // The parser's message quotes the line: the sync's error names where, never what the file holds.
    const which = number === undefined ? 'a line' : `line ${number}`;
    throw new PlatformError(`${which} of the export file is not JSON, or nests deeper than an export's objects`);
  }
  return isNode(value) ? value : null;
}
