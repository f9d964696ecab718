import { productParams } from '../product-params';
import type { ProductRef, Ruleset } from '../types';
import { instantOfLocal } from '../../../src/domain/rules/local-time';

/** The custom endpoint's inputs a merchant can type; empty ones are not sent. */
export interface PreviewInputs {
  products: ProductRef[];
  cart_subtotal: string;
  cart_item_count: string;
  cart_line_count: string;
  shop_customer_id: string;
  time: string;
  url: string;
  country_code: string;
  limit: string;
}

export const EMPTY_INPUTS: PreviewInputs = Object.freeze({
  products: [],
  cart_subtotal: '',
  cart_item_count: '',
  cart_line_count: '',
  shop_customer_id: '',
  time: '',
  url: '',
  country_code: '',
  limit: '',
});

const TEXT_INPUTS = [
  'cart_subtotal',
  'cart_item_count',
  'cart_line_count',
  'shop_customer_id',
  'url',
  'country_code',
  'limit',
] as const;

/** The preview endpoint's body: the draft document and the inputs that are filled in (Time in the shop's zone). */
export function previewBodyOf(inputs: PreviewInputs, ruleset: Ruleset, timeZone: string): Record<string, unknown> {
  const body: Record<string, unknown> = { ruleset, ...productParams(inputs.products) };
  for (const name of TEXT_INPUTS) {
    if (inputs[name].trim() !== '') body[name] = inputs[name].trim();
  }
  // datetime-local has no zone: it is read in the shop's, as the trace shows times, whatever the browser's is.
  if (inputs.time) body.time = instantOfLocal(inputs.time, timeZone);
  return body;
}
