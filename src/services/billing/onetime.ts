import { createHash } from 'node:crypto';
import { addDays, billingTimestamp, shopToday } from '../../domain/billing/dates.js';
import type { BillingCharge, BillingOrder, Onetime } from '../../domain/billing/types.js';
import { formatMoney } from '../../domain/catalog/money.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../../domain/errors.js';
import { isCalendarDate } from '../../domain/rules/local-time.js';
import type { Shop } from '../../domain/shop.js';
import type { CatalogIndex } from '../../indexes/catalog-index.js';
import type { Query } from '../params.js';
import { loadCatalog } from '../products.js';
import { positiveId } from './params.js';
import type { BillingProvider } from './provider.js';

export interface OnetimeRequest {
  addressId: number | null;
  chargeId: number | null;
  variantId: number;
  quantity: number;
  date: string | null; // YYYY-MM-DD, 'today' or 'tomorrow'
  chargeNow: boolean;
}

/** `POST /api/v1/billing/onetime` parameters (product.md §7). */
export function parseOnetimeQuery(query: Query): OnetimeRequest {
  const addressId = positiveId(query, 'address_id', false);
  const chargeId = positiveId(query, 'charge_id', false);
  if (addressId === null && chargeId === null) throw new InvalidInputError('address_id', 'Missing required args. You must pass either address_id or charge_id.');
  const variantId = positiveId(query, 'shop_variant_id', true)!;
  const rawQuantity = query.quantity === undefined || query.quantity === '' ? '1' : String(query.quantity).trim();
  if (!/^\d{1,4}$/.test(rawQuantity) || Number(rawQuantity) < 1 || Number(rawQuantity) > 1000) throw new InvalidInputError('quantity', 'Parameter quantity must be a whole number from 1 to 1000.');
  const rawDate = query.next_charge_scheduled_at === undefined || query.next_charge_scheduled_at === '' ? null : String(query.next_charge_scheduled_at).trim().toLowerCase();
  if (rawDate !== null && rawDate !== 'today' && rawDate !== 'tomorrow') {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(rawDate);
    if (!m || !isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]))) throw new InvalidInputError('next_charge_scheduled_at', 'Parameter next_charge_scheduled_at must be a date (YYYY-MM-DD), today or tomorrow.');
  }
  const chargeNowRaw = query.charge_now === undefined || query.charge_now === '' ? 'no' : String(query.charge_now).trim().toLowerCase();
  if (chargeNowRaw !== 'yes' && chargeNowRaw !== 'no') throw new InvalidInputError('charge_now', 'Parameter charge_now must be yes or no.');
  return { addressId, chargeId, variantId, quantity: Number(rawQuantity), date: rawDate, chargeNow: chargeNowRaw === 'yes' };
}

/** One-time purchases on a subscription address, idempotent by Idempotency-Key. */
export function createOnetimeService(deps: { provider: BillingProvider; catalog: CatalogIndex; clock?: () => number }) {
  const { provider, catalog } = deps;
  const clock = deps.clock ?? Date.now;

  return {
    async create(shop: Shop, request: OnetimeRequest, idempotencyKey: string | null): Promise<{ status: number; body: string }> {
      if (idempotencyKey !== null && (idempotencyKey.length > 200 || !/^[\x21-\x7e]+$/.test(idempotencyKey))) {
        throw new InvalidInputError('Idempotency-Key', 'The Idempotency-Key header must be 1 to 200 printable characters.');
      }
      let addressId = request.addressId;
      if (request.chargeId !== null) {
        const charge = await provider.charge(shop.id, request.chargeId);
        if (!charge) throw new NotFoundError(`Charge ${request.chargeId} not found.`);
        addressId = charge.address_id;
      }
      const address = await provider.address(shop.id, addressId!);
      if (!address) throw new NotFoundError(`Address ${addressId} not found.`);
      const product = (await loadCatalog(catalog, shop.id)).byVariant.get(request.variantId);
      const variantIndex = product?.variants.findIndex((v) => v.id === request.variantId) ?? -1;
      if (!product || variantIndex < 0) throw new InvalidInputError('shop_variant_id', `Parameter shop_variant_id: variant ${request.variantId} is not in the catalog.`);
      const customer = await provider.customer(shop.id, address.customer_id);
      const now = clock();
      const today = shopToday(now, shop.timezone);
      let date: string;
      if (request.date === 'today') date = today;
      else if (request.date === 'tomorrow') date = addDays(today, 1);
      else if (request.date !== null) date = request.date;
      else {
        const queued = await provider.nextQueuedCharge(shop.id, address.id, today);
        if (!queued) throw new InvalidInputError('next_charge_scheduled_at', 'Parameter next_charge_scheduled_at is required: the address has no queued charge to join.');
        date = queued.scheduled_at.slice(0, 10);
      }
      if (date < today) throw new InvalidInputError('next_charge_scheduled_at', `Parameter next_charge_scheduled_at must not be in the past (today is ${today} in the shop's time zone).`);

      const variant = JSON.parse(product.json.variants[variantIndex]!) as { title: string };
      const unit = product.variants[variantIndex]!.price;
      const price = formatMoney(unit);
      const total = formatMoney(unit * request.quantity);
      const stamp = billingTimestamp(now);
      const paid = customer?.has_valid_payment_method === true;
      const hash = createHash('sha256').update(JSON.stringify({ ...request, addressId })).digest('hex');

      const outcome = await provider.createOnetime(shop.id, idempotencyKey ? { key: idempotencyKey, hash } : null, (ids) => {
        const onetime: Onetime = {
          id: ids.onetime, address_id: address.id, customer_id: address.customer_id, shop_product_id: product.id, shop_variant_id: request.variantId,
          quantity: request.quantity, price, product_title: product.title, variant_title: variant.title, next_charge_scheduled_at: `${date}T00:00:00`,
          status: request.chargeNow && !paid ? 'CANCELLED' : 'ACTIVE', created_at: stamp, updated_at: stamp,
        };
        if (!request.chargeNow) {
          return { status: 201, response: { data: { onetime, charge: null, order: null } }, docs: [{ kind: 'billing_onetimes', doc: { ...onetime } }] };
        }
        const charge: BillingCharge = {
          id: ids.charge, address_id: address.id, customer_id: address.customer_id, status: paid ? 'SUCCESS' : 'ERROR',
          scheduled_at: stamp, processed_at: stamp, total_price: total, updated_at: stamp,
        };
        if (!paid) {
          const reason = customer?.reason_payment_method_not_valid ?? 'the customer has no valid payment method';
          return {
            status: 402,
            response: { error: `The charge failed: ${reason}. The one-time purchase was cancelled.`, charge },
            docs: [{ kind: 'billing_onetimes', doc: { ...onetime } }, { kind: 'billing_charges', doc: { ...charge } }],
          };
        }
        const order: BillingOrder = {
          id: ids.order, charge_id: charge.id, customer_id: address.customer_id, created_at: stamp,
          line_items: [{ shop_product_id: product.id, shop_variant_id: request.variantId, quantity: request.quantity, price, title: product.title }],
        };
        return {
          status: 201,
          response: { data: { onetime, charge, order } },
          docs: [{ kind: 'billing_onetimes', doc: { ...onetime } }, { kind: 'billing_charges', doc: { ...charge } }, { kind: 'billing_orders', doc: { ...order, updated_at: stamp } }],
        };
      });
      if ('conflict' in outcome) throw new ConflictError('This Idempotency-Key was used with other parameters.');
      return { status: outcome.status, body: outcome.response };
    },
  };
}

export type OnetimeService = ReturnType<typeof createOnetimeService>;
