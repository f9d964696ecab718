import { MAX_CART_TOKEN_LENGTH } from '../attribution/attribute.js';
import { MAX_SOURCE_LENGTH } from '../attribution/source.js';
import { TRACK_TYPES, type TrackEvent, type TrackType } from '../attribution/track.js';
import { MissingInputError } from '../errors.js';
import { customerSigParam, keyParam } from './common.js';
import { MISSING_IDENTITY } from './event.js';
import { clip, invalid, param, params, type ParamsOf, type TParam } from './param.js';
import { positiveId } from './kinds.js';
import { sessionId, text, time } from './text-kinds.js';

/** At most this many events in one `{"events": [...]}` body. */
export const MAX_TRACK_EVENTS = 100;

const MISSING_TYPE = 'Missing required parameter type (impression, click or add_to_cart).';

/** `type`, optional here: a JSON body of events carries its own (then the query string names none). */
function trackType(): TParam<TrackType | null> {
  return param(
    { description: `what happened (${TRACK_TYPES.join(', ')})`, examples: ['click'] },
    {
      decode(raw, name) {
        if (raw === undefined) return null;
        const value = raw.trim().toLowerCase();
        if ((TRACK_TYPES as readonly string[]).includes(value)) return value as TrackType;
        throw invalid(name, `Parameter ${name} must be impression, click or add_to_cart, got "${clip(raw)}".`);
      },
      key: (value) => value,
    },
  );
}

/** One tracked event's fields (docs/attribution.md, "Tracking"): in the query string, or each element of `events`. */
export const trackParams = params({
  ...keyParam,
  type: trackType(),
  uuid: sessionId('client-made session UUID (this or shop_customer_id is required)'),
  shop_customer_id: positiveId('storefront customer id (this or uuid is required)'),
  ...customerSigParam,
  source: text('metadata.source of the answer the product came from', { max: MAX_SOURCE_LENGTH }),
  product_id: positiveId('the product shown, clicked or added'),
  variant_id: positiveId('the variant added, when known'),
  cart_token: text("the storefront cart's token (its order gets its clicks)", { max: MAX_CART_TOKEN_LENGTH }),
  at: time('when it happened: RFC 3339 (also unix seconds or milliseconds); default now'),
});

export type TrackParams = ParamsOf<typeof trackParams.properties>;

/** The stored form of a tracked event; `type` and a visitor are required. */
export function trackEventOf(values: TrackParams, now: number, where = ''): TrackEvent {
  if (values.type === null)
    throw new MissingInputError(
      `${where}type`,
      where ? `${where}type is required (impression, click or add_to_cart).` : MISSING_TYPE,
    );
  if (values.uuid === null && values.shop_customer_id === null)
    throw new MissingInputError(`${where}uuid`, where ? `${where}: ${MISSING_IDENTITY}` : MISSING_IDENTITY);
  return {
    type: values.type,
    uuid: values.uuid,
    customer_id: values.shop_customer_id,
    source: values.source,
    product_id: values.product_id,
    variant_id: values.variant_id,
    cart_token: values.cart_token,
    created_at: values.at ?? now,
  };
}
