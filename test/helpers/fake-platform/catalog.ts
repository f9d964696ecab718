/**
 * The fake platform's shop, generated on demand from a few counts: every object is a pure function
 * of its index, so a shop of 100,000 orders costs no memory until a line is written. Changes made
 * by a test (an edited or deleted product) are kept beside the generated objects.
 */

// biome-ignore lint/suspicious/noExplicitAny: GraphQL objects are loose JSON, as the platform sends them
export type Json = Record<string, any>;

export interface ShopShape {
  products: number;
  variantsPerProduct: number;
  imagesPerProduct: number;
  metafieldsPerProduct: number;
  collections: number;
  customers: number;
  orders: number;
}

export const gid = (type: string, id: number) => `gid://shopify/${type}/${id}`;
const DAY = 86_400_000;
const SIZES = ['S', 'M', 'L', 'XL'];

export class FakeCatalog {
  /** Fixed "now" of the generated history, so timestamps do not move between two reads. */
  readonly epoch = Date.parse('2026-11-20T12:00:00Z');
  readonly edits = new Map<number, Json>();
  readonly deleted = new Set<number>();
  readonly editedAt = new Map<number, number>();
  /** Refunds made by a test: order → [line index, quantity]. */
  readonly refunds = new Map<number, [number, number][]>();

  constructor(readonly shape: ShopShape) {}

  productIds(): number[] {
    const ids: number[] = [];
    for (let i = 1; i <= this.shape.products; i++) if (!this.deleted.has(i)) ids.push(i);
    return ids;
  }

  productUpdatedAt(i: number): number {
    return this.editedAt.get(i) ?? this.epoch - (i % 400) * DAY;
  }

  /** Changes a product on the platform (no webhook is sent). */
  editProduct(i: number, patch: Json): void {
    this.edits.set(i, { ...this.edits.get(i), ...patch });
    this.editedAt.set(i, Date.now());
  }

  deleteProduct(i: number): void {
    this.deleted.add(i);
  }

  /** Refunds `quantity` of an order's line (its index) on the platform. */
  refund(o: number, line: number, quantity: number): void {
    this.refunds.set(o, [...(this.refunds.get(o) ?? []), [line, quantity]]);
  }

  /** A product node without its connections; `children` lists them in the API's field names. */
  product(i: number): { node: Json; variants: Json[]; images: Json[]; metafields: Json[] } {
    const { variantsPerProduct: nv, imagesPerProduct: ni, metafieldsPerProduct: nm } = this.shape;
    const sizes = SIZES.slice(0, Math.max(1, Math.min(nv, SIZES.length)));
    const node: Json = {
      id: gid('Product', i),
      title: `Product ${i}`,
      handle: `product-${i}`,
      descriptionHtml: `<p>Product ${i}</p>`,
      vendor: `Vendor ${i % 20}`,
      productType: `Type ${i % 10}`,
      createdAt: new Date(this.epoch - 400 * DAY).toISOString(),
      updatedAt: new Date(this.productUpdatedAt(i)).toISOString(),
      publishedAt: new Date(this.epoch - 400 * DAY).toISOString(),
      status: i % 50 === 0 ? 'DRAFT' : 'ACTIVE',
      tags: ['all', `t${i % 7}`],
      templateSuffix: null,
      options: [{ id: gid('ProductOption', i), name: 'Size', position: 1, values: sizes }],
      ...this.edits.get(i),
      variantPatch: undefined,
    };
    const variants = Array.from({ length: nv }, (_, k) => ({
      id: gid('ProductVariant', i * 10 + k),
      title: sizes[k % sizes.length],
      price: `${10 + (i % 90)}.${k}`,
      compareAtPrice: k === 0 ? `${20 + (i % 90)}.00` : null,
      sku: `SKU-${i}-${k}`,
      position: k + 1,
      inventoryPolicy: 'DENY',
      inventoryQuantity: (i + k) % 13,
      barcode: null,
      taxable: true,
      createdAt: node.createdAt,
      updatedAt: node.updatedAt,
      inventoryItem: { id: gid('InventoryItem', 500_000 + i * 10 + k) },
      selectedOptions: [{ name: 'Size', value: sizes[k % sizes.length] }],
      ...(this.edits.get(i)?.variantPatch as Json | undefined),
    }));
    const images = Array.from({ length: ni }, (_, k) => ({
      id: gid('ProductImage', i * 10 + k),
      url: `https://cdn.example.com/p/${i}-${k}.jpg`,
      altText: `Product ${i} view ${k}`,
      width: 800,
      height: 800,
    }));
    const metafields = Array.from({ length: nm }, (_, k) => ({
      id: gid('Metafield', i * 10 + k),
      namespace: 'custom',
      key: `field_${k}`,
      value: `value ${i}.${k}`,
      type: 'single_line_text_field',
      createdAt: node.createdAt,
      updatedAt: node.updatedAt,
    }));
    return { node, variants, images, metafields };
  }

  /** A collection holds every product whose index falls in it, in index order. */
  collection(c: number): { node: Json; products: Json[] } {
    const members: Json[] = [];
    for (let i = c; i <= this.shape.products; i += this.shape.collections)
      if (!this.deleted.has(i)) members.push({ id: gid('Product', i) });
    const node = {
      id: gid('Collection', c),
      title: `Collection ${c}`,
      handle: `collection-${c}`,
      updatedAt: new Date(this.epoch).toISOString(),
    };
    return { node, products: members };
  }

  customer(j: number): Json {
    return {
      id: gid('Customer', j),
      updatedAt: new Date(this.epoch - (j % 300) * DAY).toISOString(),
      tags: j % 5 === 0 ? ['vip'] : [],
      defaultEmailAddress: { emailAddress: `customer${j}@example.com` },
    };
  }

  /** Orders spread over the last 300 days; every fifth is anonymous; order 7's first line is refunded. */
  order(o: number): { node: Json; lineItems: Json[] } {
    const { products, customers } = this.shape;
    const lineItems = Array.from({ length: 1 + (o % 3) }, (_, k) => {
      const product = ((o * 7 + k * 13) % products) + 1;
      return {
        id: gid('LineItem', o * 10 + k),
        quantity: 1 + ((o + k) % 3),
        variant: { id: gid('ProductVariant', product * 10) },
        product: { id: gid('Product', product) },
        originalUnitPriceSet: { shopMoney: { amount: `${10 + (product % 90)}.0`, currencyCode: 'USD' } },
        customAttributes: o % 11 === 0 ? [{ key: '_rebound_source', value: 'list:trending_products' }] : [],
      };
    });
    const created = this.epoch - (o % 300) * DAY - (o % 1000) * 1000;
    const node: Json = {
      id: gid('Order', o),
      createdAt: new Date(created).toISOString(),
      updatedAt: new Date(created).toISOString(),
      cancelledAt: o % 97 === 0 ? new Date(created + 3_600_000).toISOString() : null,
      customer: o % 5 === 0 || customers === 0 ? null : { id: gid('Customer', (o % customers) + 1) },
      refunds: [...(o === 7 ? ([[0, 1]] as [number, number][]) : []), ...(this.refunds.get(o) ?? [])].map(
        ([line, quantity], r) => ({
          id: gid('Refund', o * 100 + r),
          refundLineItems: [
            { id: gid('RefundLineItem', o * 100 + r), quantity, lineItem: { id: gid('LineItem', o * 10 + line) } },
          ],
        }),
      ),
    };
    return { node, lineItems };
  }
}
