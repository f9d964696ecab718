import { productParams } from '../product-params.js';
import type { ProductRef } from '../types.js';

/** What a storefront page would send with the widget's request: its products and the signed-in customer. */
export interface PageContext {
  products: ProductRef[];
  customerId: string;
}

/** The preview's query string: the page's context, as the widget script sends it. */
export function pageQueryOf(page: PageContext): string {
  const query = new URLSearchParams(productParams(page.products));
  if (page.customerId.trim() !== '') query.set('shop_customer_id', page.customerId.trim());
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}

/** What a list the page's context feeds says when the preview's page lacks it: what to fill in, in words. */
export function previewErrorText(error: {
  message: string;
  code?: string | null;
  parameter?: string | null;
  problems?: readonly { path: string }[];
}): string {
  if (error.code === 'invalid_document') {
    // A new widget before its name is typed: Create waits for the name too, so that is the thing to say.
    const problems = error.problems ?? [];
    if (problems.length > 0 && problems.every((p) => p.path === 'name')) return 'Name the widget to see its preview.';
    // Another draft not yet complete: the save names what is missing.
    return 'The preview shows once the form is complete: Save names what is missing.';
  }
  if (error.code !== 'missing_parameter') return error.message;
  if (error.parameter === 'shop_product_ids' || error.parameter === 'shop_variant_ids')
    return 'This list shows products for the product on the page: choose one under “Products on the page” to see it.';
  if (error.parameter === 'shop_customer_id' || error.parameter === 'uuid')
    return 'This list is personal: enter a customer id under “Signed-in customer id” to see what that customer gets.';
  return error.message;
}
