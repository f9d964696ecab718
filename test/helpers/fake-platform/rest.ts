import type { FakeCatalog, Json } from './catalog.js';

/**
 * The fake platform's shop in the platform's REST shapes (as its REST Admin API and its webhooks
 * write them), for importing the same data through the admin API. Written from the REST
 * documentation, not from Rebound's GraphQL mapping, so the two paths can be compared.
 */
const num = (gid: string) => Number(gid.split('/').pop());
const money = (amount: string) =>
  amount.includes('.') ? `${amount.split('.')[0]}.${amount.split('.')[1]!.padEnd(2, '0')}` : `${amount}.00`;

export function restProduct(catalog: FakeCatalog, i: number): Json {
  const { node, variants, images, metafields } = catalog.product(i);
  const restImages = images.map((image, k) => ({
    id: num(image.id),
    product_id: i,
    position: k + 1,
    alt: image.altText,
    width: image.width,
    height: image.height,
    src: image.url,
    admin_graphql_api_id: image.id,
  }));
  const metafield = (m: Json, owner: number, resource: string) => ({
    id: num(m.id),
    namespace: m.namespace,
    key: m.key,
    value: m.value,
    type: m.type,
    owner_id: owner,
    owner_resource: resource,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
    admin_graphql_api_id: m.id,
  });
  return {
    id: i,
    title: node.title,
    handle: node.handle,
    body_html: node.descriptionHtml,
    vendor: node.vendor,
    product_type: node.productType,
    created_at: node.createdAt,
    updated_at: node.updatedAt,
    published_at: node.publishedAt,
    template_suffix: null,
    tags: node.tags,
    status: String(node.status).toLowerCase(),
    admin_graphql_api_id: node.id,
    variants: variants.map((v) => ({
      id: num(v.id),
      product_id: i,
      title: v.title,
      price: money(v.price),
      compare_at_price: v.compareAtPrice ? money(v.compareAtPrice) : null,
      sku: v.sku,
      position: v.position,
      inventory_policy: 'deny',
      inventory_quantity: v.inventoryQuantity,
      barcode: null,
      taxable: true,
      option1: v.selectedOptions[0].value,
      option2: null,
      option3: null,
      inventory_item_id: num(v.inventoryItem.id),
      created_at: v.createdAt,
      updated_at: v.updatedAt,
      admin_graphql_api_id: v.id,
      metafields: [],
    })),
    options: node.options.map((o: Json) => ({
      id: num(o.id),
      product_id: i,
      name: o.name,
      position: o.position,
      values: o.values,
    })),
    images: restImages,
    image: restImages[0] ?? null,
    metafields: metafields.map((m) => metafield(m, i, 'product')),
  };
}

export function restCollection(catalog: FakeCatalog, c: number): Json {
  const { node, products } = catalog.collection(c);
  return {
    id: c,
    title: node.title,
    handle: node.handle,
    products: products.map((p, position) => ({ product_id: num(p.id), position })),
    updated_at: node.updatedAt,
  };
}

export function restCustomer(catalog: FakeCatalog, j: number): Json {
  const node = catalog.customer(j);
  return { id: j, email: node.defaultEmailAddress.emailAddress, tags: node.tags, updated_at: node.updatedAt };
}

export function restOrder(catalog: FakeCatalog, o: number): Json {
  const { node, lineItems } = catalog.order(o);
  return {
    id: o,
    created_at: node.createdAt,
    updated_at: node.updatedAt,
    cancelled_at: node.cancelledAt,
    customer: node.customer ? { id: num(node.customer.id) } : null,
    line_items: lineItems.map((line) => ({
      id: num(line.id),
      product_id: num(line.product.id),
      variant_id: num(line.variant.id),
      quantity: line.quantity,
      price: money(line.originalUnitPriceSet.shopMoney.amount),
      properties: line.customAttributes.map((a: Json) => ({ name: a.key, value: a.value })),
    })),
    refunds: (node.refunds as Json[]).map((r) => ({
      refund_line_items: (r.refundLineItems as Json[]).map((item) => ({
        line_item_id: num(item.lineItem.id),
        quantity: item.quantity,
      })),
    })),
  };
}
