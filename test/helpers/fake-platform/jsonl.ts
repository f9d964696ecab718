import type { FakeCatalog, Json } from './catalog.js';

/**
 * A bulk export's JSONL as the platform documents it: one object per line, each node of a nested
 * connection on a line of its own with `__parentId`, after its parent but not always right after
 * it (here a parent's children follow the next parent's line). Written lazily, line by line.
 */
export function* bulkLines(catalog: FakeCatalog, resource: string, ordersSince: number): Generator<string> {
  const line = (object: Json, parent?: string) => JSON.stringify(parent ? { ...object, __parentId: parent } : object);
  let delayed: string[] = [];
  const parentThen = function* (parentLine: string, children: string[]) {
    yield parentLine;
    yield* delayed;
    delayed = children;
  };
  if (resource === 'products') {
    for (const i of catalog.productIds()) {
      const { node, variants, images, metafields } = catalog.product(i);
      const children: string[] = [];
      for (const variant of variants) {
        children.push(line(variant, node.id));
        // A variant's own metafields: none in the generated shop, the nesting is still documented.
      }
      for (const image of images) children.push(line(image, node.id));
      for (const metafield of metafields) children.push(line(metafield, node.id));
      yield* parentThen(line(node), children);
    }
  } else if (resource === 'collections') {
    for (let c = 1; c <= catalog.shape.collections; c++) {
      const { node, products } = catalog.collection(c);
      yield* parentThen(
        line(node),
        products.map((p) => line(p, node.id)),
      );
    }
  } else if (resource === 'customers') {
    for (let j = 1; j <= catalog.shape.customers; j++) yield line(catalog.customer(j));
  } else if (resource === 'orders') {
    for (let o = 1; o <= catalog.shape.orders; o++) {
      const { node, lineItems } = catalog.order(o);
      if (Date.parse(node.createdAt) < ordersSince) continue;
      const refunds = (node.refunds as Json[]).map(({ refundLineItems: _, ...refund }) => refund);
      const children = lineItems.map((item) => line(item, node.id));
      for (const refund of node.refunds as Json[])
        for (const item of refund.refundLineItems as Json[]) children.push(line(item, refund.id));
      yield* parentThen(line({ ...node, refunds }), children);
    }
  }
  yield* delayed;
}

/** A paginated connection of the normal API: nested connections inline as `{edges: [{node}]}`. */
export const edges = (nodes: Json[]) => ({ edges: nodes.map((node) => ({ node })) });

export function inlineProduct(catalog: FakeCatalog, i: number): Json {
  const { node, variants, images, metafields } = catalog.product(i);
  return {
    ...node,
    variants: edges(variants.map((v) => ({ ...v, metafields: edges([]) }))),
    images: edges(images),
    metafields: edges(metafields),
  };
}

export function inlineOrder(catalog: FakeCatalog, o: number): Json {
  const { node, lineItems } = catalog.order(o);
  return {
    ...node,
    refunds: (node.refunds as Json[]).map((r) => ({ ...r, refundLineItems: edges(r.refundLineItems as Json[]) })),
    lineItems: edges(lineItems),
  };
}
