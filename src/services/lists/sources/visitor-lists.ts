import { MissingInputError } from '../../../domain/errors.js';
import { positiveId } from '../../../domain/params/kinds.js';
import { sessionId } from '../../../domain/params/text-kinds.js';
import type { IndexedProduct } from '../../../indexes/shop-catalog.js';
import { defineList, type ListContext } from './types.js';

export const MISSING_IDENTITY = 'Missing required args. You must pass either shop_customer_id or uuid.';

const identity = {
  // Any session id a view was stored under (bulk events take any, as the platform's widget sends them).
  uuid: sessionId('session whose views to return (this or shop_customer_id)'),
  shop_customer_id: positiveId('customer whose views to return (this or uuid)'),
};

/**
 * Products the visitor viewed, most recent first, each once;
 * handles are resolved now, so late catalog syncs still count.
 */
async function viewedProducts(context: ListContext): Promise<IndexedProduct[]> {
  if (context.uuid === null && context.customerId === null) throw new MissingInputError('uuid', MISSING_IDENTITY);
  const handles = await context.viewedHandles();
  return handles.map((h) => context.catalog.byHandle.get(h)).filter((p): p is IndexedProduct => p !== undefined);
}

export const viewedSource = defineList({
  path: '/products/viewed',
  summary: 'Products a session or customer viewed, most recent first, each once',
  params: identity,
  cacheable: false,
  candidates: viewedProducts,
});

export const recentlyViewedSource = defineList({
  path: '/products/recently_viewed',
  summary: 'Alias of /products/viewed',
  params: identity,
  cacheable: false,
  candidates: viewedProducts,
});
