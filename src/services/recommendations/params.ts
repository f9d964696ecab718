import type { CustomParams } from '../../domain/params/custom.js';
import type { RuleRequest } from '../../domain/rules/types.js';
import type { CallerContext } from '../lists/sources/index.js';

/** The custom endpoint's request, from its decoded parameters (docs/api.md, "Custom"). */
export interface CustomRequest {
  rule: RuleRequest;
  limit: number;
  /** The market the answer is priced in: country_code, or the deprecated presentment_prices currency. */
  place: { countryCode: string | null; currency: string | null };
  /** The filter_oos parameter, which overrides the ruleset's setting when given. */
  filterOos: boolean | null;
  /** The filter_inputs parameter, which overrides the ruleset's filter_input_products when given. */
  filterInputs: boolean | null;
  /** shop_order_ids: their products are the input products when no product or variant ids are given. */
  orderIds: number[] | null;
  /** What `endpoint` outputs inherit from the caller. */
  caller: CallerContext;
}

export function customRequestOf(params: CustomParams, now: number): CustomRequest {
  return {
    rule: {
      productIds: params.shop_product_ids,
      variantIds: params.shop_variant_ids,
      customerId: params.shop_customer_id,
      cartSubtotal: params.cart_subtotal,
      cartItemCount: params.cart_item_count,
      cartLineCount: params.cart_line_count,
      time: params.time ?? now,
      url: params.url,
      countryCode: params.country_code,
    },
    limit: params.limit,
    place: { countryCode: params.country_code, currency: params.presentment_prices },
    filterOos: params.filter_oos,
    filterInputs: params.filter_inputs,
    orderIds: params.shop_order_ids,
    caller: {
      shop_product_ids: params.shop_product_ids,
      shop_variant_ids: params.shop_variant_ids,
      shop_customer_id: params.shop_customer_id,
      uuid: params.uuid,
      country_code: params.country_code,
      limit: params.limit,
    },
  };
}

/** The request with the products of its orders as input products, when it names none itself. */
export async function withOrderProducts(
  request: CustomRequest,
  orderProducts: (orderIds: number[]) => Promise<number[]>,
): Promise<CustomRequest> {
  if (request.orderIds === null || request.rule.productIds !== null || request.rule.variantIds !== null) return request;
  const productIds = await orderProducts(request.orderIds);
  if (productIds.length === 0) return request;
  return {
    ...request,
    rule: { ...request.rule, productIds },
    caller: { ...request.caller, shop_product_ids: productIds },
  };
}
