import { cartTokenOf, MAX_CART_TOKEN_LENGTH } from '../attribution/attribute.js';
import { widgetSource } from '../attribution/source.js';
import type { TrackType } from '../attribution/track.js';
import { InvalidBodyError, InvalidInputError, MissingInputError } from '../errors.js';
import { MISSING_IDENTITY } from './event.js';
import { params, type ParamsOf } from './param.js';
import { readParams } from './read.js';
import { positiveId } from './kinds.js';
import { eventTime, sessionId, text } from './text-kinds.js';

/** At most this many events in one bulk request (the platform widget sends batches of 10). */
export const MAX_BULK_EVENTS = 10;

/** One event of `POST /api/v2/analytics/event/bulk` (docs/api.md, "Bulk events"); the platform's names are aliases. */
export const bulkEventParams = params({
  subject: text('who acted (user)', { max: 64 }),
  verb: text('what they did: viewed, added-from, clicked-to-pdp-from, …', { max: 64 }),
  noun: text('what it was done to: product, widget, …', { max: 64 }),
  uuid: sessionId('client-made session id'),
  shop_customer_id: positiveId('storefront customer id'),
  shop_product_id: positiveId('the product'),
  shop_variant_id: positiveId('the variant'),
  defined_noun_id: text('the noun by handle (a viewed product)', { max: 255 }),
  widget_id: text('the widget the product was shown in', { max: 64 }),
  cart_token: text("the storefront cart's token (kept with a widget event)", { max: MAX_CART_TOKEN_LENGTH }),
  event_time: eventTime('when it happened: epoch milliseconds; default now'),
  customer_sig: text('hex HMAC-SHA256 of the customer id (shops that require customer signatures)', { max: 128 }),
});

type BulkEventValues = ParamsOf<typeof bulkEventParams.properties>;

/** What a bulk event means here: a product view, a tracked widget event, or an event only counted. */
export type BulkEvent =
  | {
      kind: 'view';
      uuid: string | null;
      customerId: number | null;
      customerSig: string | null;
      productId: number | null;
      handle: string | null;
      at: number | null;
    }
  | {
      kind: 'track';
      type: TrackType;
      uuid: string | null;
      customerId: number | null;
      customerSig: string | null;
      productId: number | null;
      variantId: number | null;
      source: string | null;
      cartToken: string | null;
      at: number | null;
    }
  | { kind: 'counted' };

const WIDGET_VERBS: Readonly<Record<string, TrackType>> = {
  'added-from': 'add_to_cart',
  'clicked-to-pdp-from': 'click',
};

function meaningOf(values: BulkEventValues, where: string): BulkEvent {
  const verb = values.verb?.toLowerCase() ?? '';
  const noun = values.noun?.toLowerCase() ?? '';
  const identified = values.uuid !== null || values.shop_customer_id !== null;
  const type = noun === 'widget' ? WIDGET_VERBS[verb] : undefined;
  const isView = verb === 'viewed' && noun === 'product';
  if (!isView && type === undefined) return { kind: 'counted' };
  if (!identified) throw new MissingInputError(`${where}.uuid`, `${where}: ${MISSING_IDENTITY}`);
  const who = {
    uuid: values.uuid,
    customerId: values.shop_customer_id,
    customerSig: values.customer_sig,
    at: values.event_time,
  };
  if (isView) {
    // A view of no product would be acknowledged and stored as nothing at all.
    if (values.shop_product_id === null && values.defined_noun_id === null)
      throw new MissingInputError(
        `${where}.shopify_product_id`,
        `${where}: a product view needs shopify_product_id or defined_noun_id (the product's handle).`,
      );
    return { kind: 'view', ...who, productId: values.shop_product_id, handle: values.defined_noun_id };
  }
  return {
    kind: 'track',
    type: type!,
    ...who,
    productId: values.shop_product_id,
    variantId: values.shop_variant_id,
    source: widgetSource(values.widget_id),
    cartToken: cartTokenOf(values.cart_token),
  };
}

/** Reads a bulk body: a JSON array of at most 10 event objects; anything else is a 400 naming what is wrong. */
export function readBulkEvents(body: unknown): BulkEvent[] {
  if (!Array.isArray(body)) throw new InvalidBodyError('The body must be a JSON array of events.');
  if (body.length > MAX_BULK_EVENTS)
    throw new InvalidBodyError(`A bulk request takes at most ${MAX_BULK_EVENTS} events, got ${body.length}.`);
  return body.map((element, index) => {
    const where = `events[${index}]`;
    if (element === null || typeof element !== 'object' || Array.isArray(element)) {
      throw new InvalidInputError(where, `${where} must be an event object.`);
    }
    try {
      return meaningOf(readParams(bulkEventParams, element as Record<string, unknown>), where);
    } catch (error) {
      if (error instanceof InvalidInputError && !error.param.startsWith(where)) {
        const Named = error instanceof MissingInputError ? MissingInputError : InvalidInputError;
        throw new Named(`${where}.${error.param}`, `${where}: ${error.message}`);
      }
      throw error;
    }
  });
}
