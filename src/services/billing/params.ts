import type { ReactivateQuery } from '../../domain/params/billing.js';

export interface ReactivateParams {
  customerId: number;
  subscriptionIds: number[] | 'all';
  campaignId: number | null;
  discountCode: string | null;
  tk: string | null;
  live: boolean;
}

/** The reactivation context's request, from its decoded parameters. */
export function reactivateParamsOf(values: ReactivateQuery): ReactivateParams {
  return {
    customerId: values.billing_customer_id,
    subscriptionIds: values.billing_subscription_ids,
    campaignId: values.campaign_id,
    discountCode: values.billing_discount_code,
    tk: values.tk,
    live: values.request_type === 'live',
  };
}
