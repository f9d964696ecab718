/**
 * The GraphQL documents Rebound sends to the platform's Admin API. The node selections are shared
 * by the bulk exports (nested connections come back as lines joined by `__parentId`) and by the
 * paginated queries of reconciliation (nested connections come back inline).
 */

const MONEY = 'shopMoney { amount }';

export const PRODUCT_FIELDS =
  'id title handle descriptionHtml vendor productType createdAt updatedAt publishedAt status tags templateSuffix\n' +
  '  options { id name position values }';
export const VARIANT_FIELDS =
  'id title price compareAtPrice sku position inventoryPolicy inventoryQuantity barcode taxable createdAt updatedAt\n' +
  '  inventoryItem { id } selectedOptions { name value }';
export const IMAGE_FIELDS = 'id url altText width height';
export const METAFIELD_FIELDS = 'id namespace key value type createdAt updatedAt';
export const CUSTOMER_FIELDS = 'id updatedAt tags defaultEmailAddress { emailAddress }';
export const ORDER_FIELDS = `id createdAt updatedAt cancelledAt customer { id }
  refunds { id refundLineItems { edges { node { quantity lineItem { id } } } } }`;
const PRICE = `originalUnitPriceSet { ${MONEY} }`;
export const LINE_ITEM_FIELDS = `id quantity variant { id } product { id } ${PRICE} customAttributes { key value }`;

const connection = (name: string, fields: string, args = '') => `${name}${args} { edges { node { ${fields} } } }`;

const productSelection = (first: string) =>
  `${PRODUCT_FIELDS}
  ${connection('variants', `${VARIANT_FIELDS} ${connection('metafields', METAFIELD_FIELDS, first)}`, first)}
  ${connection('images', IMAGE_FIELDS, first)}
  ${connection('metafields', METAFIELD_FIELDS, first)}`;

const orderSelection = (first: string) => `${ORDER_FIELDS} ${connection('lineItems', LINE_ITEM_FIELDS, first)}`;

/** The bulk exports of a full sync, one at a time, in this order. */
export const BULK_EXPORTS = {
  products: () => `{ ${connection('products', productSelection(''))} }`,
  collections: () => `{ ${connection('collections', `id title handle updatedAt ${connection('products', 'id')}`)} }`,
  customers: () => `{ ${connection('customers', CUSTOMER_FIELDS)} }`,
  orders: (since: string) => `{ ${connection('orders', orderSelection(''), `(query: "created_at:>='${since}'")`)} }`,
} as const;
export type BulkResource = keyof typeof BULK_EXPORTS;

export const RUN_BULK = `mutation RunBulk($query: String!) {
  bulkOperationRunQuery(query: $query) { bulkOperation { id status } userErrors { field message } }
}`;

export const BULK_STATUS = `query BulkStatus($id: ID!) {
  node(id: $id) { ... on BulkOperation { id status errorCode objectCount rootObjectCount url partialDataUrl } }
}`;

/** A page of resources changed since a moment, nested connections inline (reconciliation). */
export function changedPage(resource: 'products' | 'customers' | 'orders'): string {
  const selection =
    resource === 'products'
      ? productSelection('(first: 100)')
      : resource === 'orders'
        ? orderSelection('(first: 250)')
        : CUSTOMER_FIELDS;
  const page = `edges { node { ${selection} } } pageInfo { hasNextPage endCursor }`;
  return `query Changed($after: String, $query: String!) {
  ${resource}(first: 50, after: $after, query: $query) { ${page} }
}`;
}

/** Every product id, a page at a time: what reconciliation compares with the stored catalog. */
export const PRODUCT_IDS = `query ProductIds($after: String) {
  products(first: 250, after: $after) { edges { node { id } } pageInfo { hasNextPage endCursor } }
}`;

/** Which of these GIDs still exist on the platform (a missing one answers null). */
export const NODES_EXIST = 'query Exists($ids: [ID!]!) { nodes(ids: $ids) { id } }';

export const WEBHOOKS_LIST = `query Webhooks($after: String) {
  webhookSubscriptions(first: 100, after: $after) { edges { node { id topic uri } } pageInfo { hasNextPage endCursor } }
}`;
export const WEBHOOK_CREATE = `mutation WebhookCreate($topic: WebhookSubscriptionTopic!, $uri: String!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: { uri: $uri, format: JSON }) {
    webhookSubscription { id topic uri } userErrors { field message }
  }
}`;
export const WEBHOOK_DELETE = `mutation WebhookDelete($id: ID!) {
  webhookSubscriptionDelete(id: $id) { deletedWebhookSubscriptionId userErrors { field message } }
}`;

/** The topics Rebound subscribes to, as the API's enum names them. */
export const WEBHOOK_TOPICS = [
  'PRODUCTS_CREATE',
  'PRODUCTS_UPDATE',
  'PRODUCTS_DELETE',
  'COLLECTIONS_CREATE',
  'COLLECTIONS_UPDATE',
  'COLLECTIONS_DELETE',
  'INVENTORY_LEVELS_UPDATE',
  'ORDERS_CREATE',
  'ORDERS_UPDATED',
  'ORDERS_CANCELLED',
  'REFUNDS_CREATE',
  'CUSTOMERS_CREATE',
  'CUSTOMERS_UPDATE',
  'CUSTOMERS_DELETE',
  'APP_UNINSTALLED',
] as const;

/** One order with its lines and refunds (a refund webhook re-reads its order). */
export const ORDER_ONE = `query Order($id: ID!) { order(id: $id) { ${orderSelection('(first: 250)')} } }`;
