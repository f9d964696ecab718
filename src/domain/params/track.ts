import { Type } from '@sinclair/typebox';
import { cartTokenOf, MAX_CART_TOKEN_LENGTH } from '../attribution/attribute.js';
import { MAX_SOURCE_LENGTH } from '../attribution/source.js';
import { TRACK_TYPES, type TrackEvent, type TrackType } from '../attribution/track.js';
import { InvalidInputError, MissingInputError } from '../errors.js';
import { customerSigParam, keyParam } from './common.js';
import { MISSING_IDENTITY } from './event.js';
import { clip, invalid, param, params, type ParamsOf, type TParam } from './param.js';
import { positiveId } from './kinds.js';
import { readParams } from './read.js';
import { eventTime, sessionId, text } from './text-kinds.js';

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
  at: eventTime('when it happened: RFC 3339 (also unix seconds or milliseconds); default now'),
});

export type TrackParams = ParamsOf<typeof trackParams.properties>;

/** The JSON body of several events (docs/attribution.md, "Tracking"): what OpenAPI shows of it. */
export const trackBody = Type.Object(
  {
    events: Type.Optional(
      Type.Array(Type.Object(trackParams.properties, { additionalProperties: true }), {
        minItems: 1,
        maxItems: MAX_TRACK_EVENTS,
      }),
    ),
  },
  { additionalProperties: true },
);

/**
 * The events of a body, each decoded as the query string's one event is and handed to `each`
 * before the next is read (so a request reports its first problem, whatever checks `each`);
 * null when the body names no `events` (then the query string holds the event). A problem is a
 * 400 naming the event and its field by their path (`events[3].product_id`).
 */
export function readTrackBody<T>(body: unknown, each: (values: TrackParams, where: string) => T): T[] | null {
  const list =
    body !== null && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>).events
      : undefined;
  if (list === undefined) return null;
  if (!Array.isArray(list)) throw new InvalidInputError('events', 'Parameter events must be an array of events.');
  if (list.length === 0 || list.length > MAX_TRACK_EVENTS)
    throw new InvalidInputError(
      'events',
      `Parameter events must hold 1 to ${MAX_TRACK_EVENTS} events, got ${list.length}.`,
    );
  return list.map((raw, i) => {
    const where = `events[${i}]`;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
      throw new InvalidInputError(where, `${where} must be an object of event fields.`);
    return each(readParams(trackParams, raw as Record<string, unknown>, where), where);
  });
}

/** The stored form of a tracked event; `type` and a visitor are required. */
export function trackEventOf(values: TrackParams, now: number, where = ''): TrackEvent {
  const field = where ? `${where}.` : '';
  if (values.type === null)
    throw new MissingInputError(
      `${field}type`,
      where ? `${field}type is required (impression, click or add_to_cart).` : MISSING_TYPE,
    );
  if (values.uuid === null && values.shop_customer_id === null)
    throw new MissingInputError(`${field}uuid`, where ? `${where}: ${MISSING_IDENTITY}` : MISSING_IDENTITY);
  return {
    type: values.type,
    uuid: values.uuid,
    customer_id: values.shop_customer_id,
    source: values.source,
    product_id: values.product_id,
    variant_id: values.variant_id,
    cart_token: cartTokenOf(values.cart_token),
    created_at: values.at ?? now,
  };
}
