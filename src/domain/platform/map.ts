import { gidNumber } from './gid.js';
import { wholeNumber } from '../inputs/whole-numbers.js';

/**
 * GraphQL objects of the platform mapped to the REST shapes the admin API takes: numeric ids from
 * the GIDs (the GID kept as `admin_graphql_api_id`), prices as decimal strings, enums lower-cased.
 * Nested connections arrive either inline (`{edges: [{node}]}`, `{nodes: []}`) or already joined
 * from a bulk export's lines as arrays: `list` reads all three.
 */

type Node = Record<string, unknown>;

export function list(value: unknown): Node[] {
  if (Array.isArray(value)) return value.filter(isNode);
  if (value && typeof value === 'object') {
    const connection = value as { edges?: unknown[]; nodes?: unknown[] };
    if (Array.isArray(connection.edges)) return connection.edges.map((e) => (isNode(e) ? e.node : null)).filter(isNode);
    if (Array.isArray(connection.nodes)) return connection.nodes.filter(isNode);
  }
  return [];
}

/** An object of the answer: a null, a number or a list where one belongs is left out, not read. */
export const isNode = (value: unknown): value is Node =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A scalar as text (a string, or a number or boolean written out); null for anything else. Never
 * `String()` of an object: a list nested 100,000 deep overflowed the stack in it.
 */
const scalar = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : null;
/** The scalars of a list as text, the rest left out. */
const scalars = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(scalar).filter((t): t is string => t !== null) : [];

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const lower = (value: unknown): string | undefined => (typeof value === 'string' ? value.toLowerCase() : undefined);
const idOf = (value: unknown): number | null => gidNumber((value as Node | null)?.id);
/** A decimal amount as the REST shapes write it: at least two decimals ("19.9" → "19.90"). */
export function decimal(value: unknown): string | undefined {
  const text = typeof value === 'number' ? String(value) : str(value);
  if (text === null || !/^\d{1,12}(\.\d+)?$/.test(text)) return undefined;
  const [whole, fraction = ''] = text.split('.');
  return `${whole}.${fraction.padEnd(2, '0').slice(0, 4)}`;
}
const optional = <K extends string, V>(key: K, value: V | undefined | null): Partial<Record<K, V>> =>
  value === undefined || value === null ? {} : ({ [key]: value } as Record<K, V>);

function metafield(node: Node, ownerId: number, owner: string): Node {
  return {
    id: gidNumber(node.id),
    namespace: node.namespace,
    key: node.key,
    value: scalar(node.value) ?? '',
    ...optional('type', str(node.type)),
    owner_id: ownerId,
    owner_resource: owner,
    ...optional('created_at', str(node.createdAt)),
    ...optional('updated_at', str(node.updatedAt)),
    admin_graphql_api_id: node.id,
  };
}

function variant(node: Node, productId: number, optionNames: string[]): Node {
  const id = gidNumber(node.id)!;
  const selected = list(node.selectedOptions);
  const optionValue = (i: number) =>
    optionNames[i] ? ((selected.find((o) => o.name === optionNames[i])?.value as string) ?? null) : null;
  return {
    id,
    product_id: productId,
    title: str(node.title) ?? 'Default Title',
    // Unreadable, the price is left out and the product refused, never shown to shoppers at 0.00.
    ...optional('price', decimal(node.price)),
    compare_at_price: decimal(node.compareAtPrice) ?? null,
    sku: str(node.sku),
    ...optional('position', typeof node.position === 'number' ? node.position : null),
    ...optional('inventory_policy', lower(node.inventoryPolicy)),
    ...optional('inventory_quantity', wholeNumber(node.inventoryQuantity)),
    barcode: str(node.barcode),
    ...optional('taxable', typeof node.taxable === 'boolean' ? node.taxable : null),
    option1: optionValue(0),
    option2: optionValue(1),
    option3: optionValue(2),
    inventory_item_id: idOf(node.inventoryItem),
    ...optional('created_at', str(node.createdAt)),
    ...optional('updated_at', str(node.updatedAt)),
    admin_graphql_api_id: node.id,
    metafields: list(node.metafields).map((m) => metafield(m, id, 'variant')),
  };
}

/** A product node with its variants, images and metafields → the REST Product. */
export function mapProduct(node: Node): Node {
  const id = gidNumber(node.id)!;
  const options = list(node.options).map((o, i) => ({
    id: gidNumber(o.id) ?? undefined,
    product_id: id,
    name: scalar(o.name) ?? '',
    position: typeof o.position === 'number' ? o.position : i + 1,
    values: scalars(o.values),
  }));
  const names = options.map((o) => o.name);
  const images = list(node.images).map((image, i) => ({
    id: gidNumber(image.id),
    product_id: id,
    position: i + 1,
    alt: str(image.altText),
    ...optional('width', typeof image.width === 'number' ? image.width : null),
    ...optional('height', typeof image.height === 'number' ? image.height : null),
    src: image.url,
    admin_graphql_api_id: image.id,
  }));
  return {
    id,
    title: node.title,
    handle: node.handle,
    body_html: str(node.descriptionHtml),
    vendor: str(node.vendor),
    product_type: str(node.productType),
    ...optional('created_at', str(node.createdAt)),
    ...optional('updated_at', str(node.updatedAt)),
    published_at: str(node.publishedAt),
    template_suffix: str(node.templateSuffix),
    tags: scalars(node.tags),
    ...optional('status', lower(node.status)),
    admin_graphql_api_id: node.id,
    variants: list(node.variants).map((v) => variant(v, id, names)),
    options: options.map(({ id: optionId, ...rest }) => (optionId ? { id: optionId, ...rest } : rest)),
    images,
    image: images[0] ?? null,
    metafields: list(node.metafields).map((m) => metafield(m, id, 'product')),
  };
}

/** A collection node with its products (in the order the platform lists them) → the admin collection. */
export function mapCollection(node: Node): Node {
  return {
    id: gidNumber(node.id),
    title: node.title,
    handle: node.handle,
    products: list(node.products).map((p, position) => ({ product_id: gidNumber(p.id), position })),
    ...optional('updated_at', str(node.updatedAt)),
  };
}

export function mapCustomer(node: Node): Node {
  const email = str((node.defaultEmailAddress as Node | null)?.emailAddress) ?? str(node.email);
  return {
    id: gidNumber(node.id),
    email,
    tags: scalars(node.tags),
    ...optional('updated_at', str(node.updatedAt)),
  };
}

/**
 * An order node with its line items → the admin order. Lines of removed products (no product)
 * cannot count for a product and are left out; refunds keep their quantities per line.
 */
export function mapOrder(node: Node): Node {
  const lines = list(node.lineItems)
    .filter((line) => idOf(line.product) !== null)
    .map((line) => ({
      id: gidNumber(line.id),
      product_id: idOf(line.product),
      variant_id: idOf(line.variant),
      quantity: typeof line.quantity === 'number' ? line.quantity : 0,
      price: decimal(((line.originalUnitPriceSet as Node | null)?.shopMoney as Node | null)?.amount) ?? '0.00',
      properties: list(line.customAttributes).map((a) => ({ name: scalar(a.key) ?? '', value: str(a.value) })),
    }));
  // A refund of a line left out here (its product is gone) has nothing to take back from.
  const kept = new Set(lines.map((line) => line.id));
  const refunds = list(node.refunds).map((refund) => ({
    refund_line_items: list(refund.refundLineItems)
      .filter((r) => idOf(r.lineItem) !== null && kept.has(idOf(r.lineItem)))
      .map((r) => ({ line_item_id: idOf(r.lineItem), quantity: typeof r.quantity === 'number' ? r.quantity : 0 })),
  }));
  const customerId = idOf(node.customer);
  return {
    id: gidNumber(node.id),
    created_at: node.createdAt,
    ...optional('updated_at', str(node.updatedAt)),
    cancelled_at: str(node.cancelledAt),
    customer: customerId === null ? null : { id: customerId },
    line_items: lines,
    refunds,
  };
}
