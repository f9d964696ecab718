import { inSlices } from './in-slices.js';
import type { Kysely } from 'kysely';
import { visitorsOf } from '../../domain/experiments/assign.js';
import type { Database } from '../schema.js';

/**
 * The rest of what a data request's export holds beside the customer's rows, events and billing
 * documents (`customerRecords`): their experiment assignments
 * and counted visits (as the customer and in their sessions), their reactivation claims and their
 * billing charges' orders.
 */
export async function moreRecordsOf(
  db: Kysely<Database>,
  shopId: number,
  customer: { id: number; sessions: readonly string[]; billingIds: readonly number[] },
): Promise<Record<string, unknown[]>> {
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
    experiment_visitors: experimentVisitors,
    track_counted: counted.map(({ shop_id: _, ...row }) => row),
    campaign_claims: claims,
    billing_orders: billingOrders.map((r) => JSON.parse(r.document) as unknown),
  };
}
