import { phoneDigits, phonesIn, samePhone } from '../../domain/phone.js';
import type { NamedElsewhere } from './privacy.js';
import { tailPatterns } from './webhook-phones.js';
import { inSlices } from './in-slices.js';
import type { Kysely } from 'kysely';
import { visitorsOf } from '../../domain/experiments/assign.js';
import type { Database } from '../schema.js';
import { bodyIsAbout, parsedBody } from '../../domain/erased-bodies.js';

/**
 * The rest of what a data request's export holds beside the customer's rows, events and billing
 * documents (`customerRecords`): the stored webhook bodies about them, their experiment assignments
 * and counted visits (as the customer and in their sessions), their reactivation claims and their
 * billing charges' orders.
 */
export async function moreRecordsOf(
  db: Kysely<Database>,
  shopId: number,
  customer: { id: number; emails: readonly string[]; sessions: readonly string[]; billingIds: readonly number[] },
  named: NamedElsewhere = {},
): Promise<Record<string, unknown[]>> {
  const emails = new Set(customer.emails);
  const orderIds = new Set(named.orderIds ?? []);
  const phones = (named.phones ?? []).filter((phone) => phoneDigits(phone).length >= 7);
  // Found by text first (the id's digits, an e-mail, an order's id, a phone's last digits as written), then
  // read: the digits alone name other things too.
  const patterns = [
    ...[String(customer.id), ...customer.emails, ...[...orderIds].map(String)].map((p) => `%${p.toLowerCase()}%`),
    ...phones.flatMap((phone) => tailPatterns(phoneDigits(phone).slice(-4))),
  ];
  const candidates = await db
    .selectFrom('shop_webhooks')
    .select(['topic', 'payload', 'received_at'])
    .where('shop_id', '=', shopId)
    // Applied ones: a request's own body, being applied, is not kept past it.
    .where('applied_at', 'is not', null)
    .where((eb) => eb.or(patterns.map((pattern) => eb(eb.fn<string>('lower', ['payload']), 'like', pattern))))
    .execute();
  const webhooks = candidates
    .filter((w) => {
      const body = parsedBody(w.payload);
      return bodyIsAbout(w.topic, body, customer.id, emails) || namesOrderOrPhone(w.topic, body, orderIds, phones);
    })
    .map((w) => ({ topic: w.topic, received_at: Number(w.received_at), body: JSON.parse(w.payload) as unknown }));
  const visitors = visitorsOf(customer.id, customer.sessions);
  const experimentVisitors: { experiment_id: number; visitor: string; arm: number; created_at: number }[] = [];
  const counted = [];
  for (const slice of inSlices(visitors)) {
    experimentVisitors.push(
      ...(await db
        .selectFrom('experiment_visitors')
        .select(['experiment_id', 'visitor', 'arm', 'created_at'])
        .where('shop_id', '=', shopId)
        .where('visitor', 'in', slice)
        .execute()),
    );
    counted.push(
      ...(await db
        .selectFrom('track_counted')
        .selectAll()
        .where('shop_id', '=', shopId)
        .where('visitor', 'in', slice)
        .execute()),
    );
  }
  const { billingIds } = customer;
  const claims =
    billingIds.length === 0
      ? []
      : await db
          .selectFrom('campaign_claims')
          .select(['campaign_id', 'customer_id', 'claims', 'updated_at'])
          .where('shop_id', '=', shopId)
          .where('customer_id', 'in', billingIds)
          .execute();
  const billingOrders =
    billingIds.length === 0
      ? []
      : await db
          .selectFrom('billing_orders')
          .select('billing_orders.document')
          .innerJoin('billing_charges', (join) =>
            join
              .onRef('billing_charges.shop_id', '=', 'billing_orders.shop_id')
              .onRef('billing_charges.id', '=', 'billing_orders.charge_id'),
          )
          .where('billing_orders.shop_id', '=', shopId)
          .where('billing_charges.customer_id', 'in', billingIds)
          .execute();
  return {
    webhooks,
    experiment_visitors: experimentVisitors,
    track_counted: counted.map(({ shop_id: _, ...row }) => row),
    campaign_claims: claims,
    billing_orders: billingOrders.map((r) => JSON.parse(r.document) as unknown),
  };
}

/** Whether a body is an order a request names (or about one), or names one of its phones in a `phone` field. */
function namesOrderOrPhone(topic: string, body: unknown, orderIds: ReadonlySet<number>, phones: readonly string[]) {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  const fields = body as Record<string, unknown>;
  if (orderIds.size > 0 && topic.startsWith('orders/') && orderIds.has(Number(fields.id))) return true;
  if (orderIds.size > 0 && orderIds.has(Number(fields.order_id))) return true;
  return phones.length > 0 && phonesIn(body).some((found) => phones.some((phone) => samePhone(found, phone)));
}
