import { MissingInputError } from '../errors.js';
import { commonParams, keyParam } from './common.js';
import { flag, isPositiveId, MAX_LIST, positiveId, wholeNumber } from './kinds.js';
import { clip, invalid, param, params, type ParamsOf } from './param.js';
import { dateOrDay, oneOf, text, token } from './text-kinds.js';

/** `billing_subscription_ids`: comma-separated ids, or `all` (every subscription that is not ACTIVE; the default). */
const subscriptionIds = param<number[] | 'all'>(
  {
    description: 'comma-separated subscription ids, or all (every subscription that is not ACTIVE; the default)',
    examples: ['all'],
  },
  {
    decode(raw, name) {
      const value = raw?.trim() ?? '';
      if (value === '' || value.toLowerCase() === 'all') return 'all';
      const parts = value
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean);
      if (parts.length > MAX_LIST) throw invalid(name, `Parameter ${name} takes at most ${MAX_LIST} ids.`);
      return parts.map((p) => {
        if (!isPositiveId(p))
          throw invalid(name, `Parameter ${name} must be comma-separated ids or all; "${clip(p, 30)}" is neither.`);
        return Number(p);
      });
    },
    key: (value) => (value === 'all' ? null : value.join(',')),
  },
);

/** `GET /api/v1/billing/reactivate` (docs/billing.md, "Reactivation context"). */
export const reactivateParams = params({
  ...keyParam,
  billing_customer_id: positiveId('billing customer to build the context for (required)', { required: true }),
  campaign_id: positiveId('reactivation campaign id'),
  billing_subscription_ids: subscriptionIds,
  billing_discount_code: token('discount code recorded on the address when reactivating', 100),
  tk: token('tracking key placed in the links', 40),
  request_type: oneOf(['preview', 'live'], 'preview: links that never write; live: links that reactivate', {
    fallback: 'preview',
  }),
  bust_cache: commonParams.bust_cache,
  format: commonParams.format,
});
export type ReactivateQuery = ParamsOf<typeof reactivateParams.properties>;

/** `POST /api/v1/billing/onetime` (docs/billing.md, "One-time purchases"): the query string, body fields under it. */
export const onetimeParams = params({
  ...keyParam,
  address_id: positiveId('address to attach the one-time purchase to (this or charge_id)'),
  charge_id: positiveId('a charge whose address is used (this or address_id)'),
  next_charge_scheduled_at: dateOrDay("in the shop time zone; default the address's next queued charge"),
  shop_variant_id: positiveId('variant to purchase (required)', { required: true }),
  quantity: wholeNumber('quantity', { min: 1, max: 1000, fallback: 1 }),
  charge_now: flag('charge now and create the order'),
  widget_id: text('the widget the purchase came from (kept for attribution)', { max: 64 }),
  format: commonParams.format,
});
export type OnetimeQuery = ParamsOf<typeof onetimeParams.properties>;

/** One of address_id and charge_id is required (the public API's message). */
export function requireAddressOrCharge(values: { address_id: number | null; charge_id: number | null }): void {
  if (values.address_id === null && values.charge_id === null) {
    throw new MissingInputError('address_id', 'Missing required args. You must pass either address_id or charge_id.');
  }
}

/** `Idempotency-Key`: 1 to 200 printable characters; absent means the request is not idempotent. */
const idempotencyKey = param<string | null>(
  { description: 'same key and parameters: the first answer again; other parameters: 409' },
  {
    decode(raw) {
      if (raw === undefined) return null;
      if (raw.length > 200 || !/^[\x21-\x7e]+$/.test(raw))
        throw invalid('Idempotency-Key', 'The Idempotency-Key header must be 1 to 200 printable characters.');
      return raw;
    },
    key: () => null,
    keepsEmpty: true,
  },
);

/** The headers of the billing writes (`onetime`, `subscribe`): Idempotency-Key makes retries safe. */
export const idempotencyHeaders = params({ 'idempotency-key': idempotencyKey });
/** `POST /api/v1/billing/subscribe` (docs/billing.md, "New subscriptions"): the query string, body fields under it. */
export const subscribeParams = params({
  ...keyParam,
  address_id: positiveId('address the subscription ships to (this or charge_id)'),
  charge_id: positiveId('a charge whose address is used (this or address_id)'),
  shop_variant_id: positiveId('variant to subscribe to (required)', { required: true }),
  quantity: wholeNumber('quantity', { min: 1, max: 1000, fallback: 1 }),
  order_interval_unit: oneOf(
    ['day', 'week', 'month'],
    'unit of the order interval, any case, plural accepted (required)',
    {
      required: 'Missing required parameter order_interval_unit (day, week or month).',
      aliases: { days: 'day', weeks: 'week', months: 'month' },
    },
  ),
  order_interval_frequency: wholeNumber('orders every this many units (required)', {
    min: 1,
    max: 1000,
    required: 'Missing required parameter order_interval_frequency (a whole number from 1).',
  }),
  charge_interval_frequency: wholeNumber('charges every this many units; default the order frequency', {
    min: 1,
    max: 1000,
    fallback: 0,
  }),
  next_charge_scheduled_at: dateOrDay(
    "the first charge, in the shop time zone; default the address's next queued charge",
  ),
  widget_id: text('the widget the subscription came from (kept for attribution)', { max: 64 }),
  format: commonParams.format,
});
export type SubscribeQuery = ParamsOf<typeof subscribeParams.properties>;
