import { describe, expect, it } from 'vitest';
import { rejectRefundsBeyondLines } from '../../../src/domain/catalog/refunds.js';
import { OrderInput } from '../../../src/domain/inputs/catalog.js';
import { validateRow } from '../../../src/domain/inputs/validate.js';
import { mapOrder } from '../../../src/domain/platform/map.js';

const gid = (type: string, id: number) => `gid://shopify/${type}/${id}`;
const edges = (nodes: unknown[]) => ({ edges: nodes.map((node) => ({ node })) });

describe('an order read from the platform', () => {
  it('leaves out the refunds of lines it leaves out, so the import takes the rest', () => {
    // The shape the Admin API answers the order query with (src/domain/platform/queries.ts).
    const line = (id: number, product: number | null, quantity: number) => ({
      id: gid('LineItem', id),
      quantity,
      variant: product === null ? null : { id: gid('ProductVariant', product * 10) },
      product: product === null ? null : { id: gid('Product', product) },
      originalUnitPriceSet: { shopMoney: { amount: '5.0' } },
      customAttributes: [],
    });
    const refund = (id: number, lineId: number, quantity: number) => ({
      id: gid('Refund', id),
      refundLineItems: edges([{ quantity, lineItem: { id: gid('LineItem', lineId) } }]),
    });
    const node = {
      id: gid('Order', 9),
      createdAt: '2026-11-01T10:00:00Z',
      updatedAt: '2026-11-02T10:00:00Z',
      cancelledAt: null,
      customer: null,
      // Line 92's product was deleted from the shop since: the line has no product to count for.
      lineItems: edges([line(91, 3, 2), line(92, null, 4)]),
      refunds: [refund(1, 91, 1), refund(2, 92, 4)],
    };
    const order = validateRow(OrderInput, mapOrder(node), 0, 'orders');
    expect(order.line_items.map((l) => l.id)).toEqual([91]);
    expect(order.refunds).toEqual([
      { refund_line_items: [{ line_item_id: 91, quantity: 1 }] },
      { refund_line_items: [] },
    ]);
    expect(() => rejectRefundsBeyondLines([order])).not.toThrow();
  });
});
