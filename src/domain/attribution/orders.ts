import { parseMoney } from '../catalog/money.js';
import type { OrderInput } from '../inputs/catalog.js';
import { cartTokenOf, type OrderToAttribute } from './attribute.js';
import { SOURCE_PROPERTY, MAX_SOURCE_LENGTH } from './source.js';

/** An imported order as attribution reads it: each line's `_rebound_source`, quantities net of refunds. */
export function orderToAttribute(row: OrderInput, createdAt: number, cancelled: boolean): OrderToAttribute {
  const refunded = new Map<number, number>();
  for (const refund of row.refunds ?? []) {
    for (const item of refund.refund_line_items ?? [])
      refunded.set(item.line_item_id, (refunded.get(item.line_item_id) ?? 0) + item.quantity);
  }
  return {
    id: row.id,
    customer_id: row.customer?.id ?? null,
    cart_token: cartTokenOf(row.cart_token),
    created_at: createdAt,
    cancelled,
    lines: row.line_items.map((line, lineNo) => {
      const property = line.properties?.find((p) => p.name === SOURCE_PROPERTY);
      const value = typeof property?.value === 'string' ? property.value.trim() : '';
      const refund = line.id != null ? (refunded.get(line.id) ?? 0) : 0;
      return {
        line_no: lineNo,
        product_id: line.product_id,
        quantity: Math.max(0, line.quantity - refund),
        price: parseMoney(line.price ?? '0') ?? 0,
        source: value !== '' && value.length <= MAX_SOURCE_LENGTH ? value : null,
      };
    }),
  };
}
