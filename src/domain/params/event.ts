import { VERBS } from '../events.js';
import { MissingInputError } from '../errors.js';
import { customerSigParam, keyParam } from './common.js';
import { params, type ParamsOf } from './param.js';
import { positiveId } from './kinds.js';
import { email, oneOf, text, uuid } from './text-kinds.js';

export const MISSING_IDENTITY = 'Missing required args. You must pass either shop_customer_id or uuid.';

/** The event intake's parameters (docs/api.md, "Events"), from the query string and any body fields. */
export const eventParams = params({
  ...keyParam,
  ...customerSigParam,
  subject: oneOf(['user'], 'subject of the event', {
    required: 'Missing required parameter subject (allowed value: user).',
  }),
  verb: oneOf(VERBS, 'what the subject did', {
    required: 'Missing required parameter verb (viewed, added or removed).',
  }),
  noun: oneOf(['product'], 'what the action operated on', {
    required: 'Missing required parameter noun (allowed value: product).',
  }),
  shop_product_handle: text('the product handle (required for product events)', {
    max: 255,
    required: true,
    missing: 'Missing required parameter shop_product_handle: product events need the product handle.',
  }),
  uuid: uuid('client-made session UUID (this or shop_customer_id is required)'),
  shop_customer_id: positiveId('storefront customer id (this or uuid is required)'),
  subject_email: email('email of the subject'),
  theme_id: text('theme identifier', { max: 64 }),
});

export type EventParams = ParamsOf<typeof eventParams.properties>;

/** The visitor an event or read is about: a session and / or a customer; one of them is required. */
export function requireIdentity(values: { uuid: string | null; shop_customer_id: number | null }): void {
  if (values.uuid === null && values.shop_customer_id === null) throw new MissingInputError('uuid', MISSING_IDENTITY);
}
