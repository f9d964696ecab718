import { InvalidDocumentError } from '../errors.js';
import { parseMoney } from './money.js';

interface OrderLines {
  line_items: readonly { id?: number | null; quantity: number }[];
  refunds?: readonly { refund_line_items?: readonly { line_item_id: number; quantity: number }[] }[] | null;
}

/**
 * A refund takes back quantities of its own order's lines: one that names a line the order does
 * not have, or takes back more of a line than was ordered over all its refunds, would count
 * attribution wrong without a word, so the import is refused naming it (docs/api.md, "Admin API").
 */
export function rejectRefundsBeyondLines(rows: readonly OrderLines[]): void {
  rows.forEach((row, index) => {
    const ordered = new Map<number, number>();
    for (const line of row.line_items) if (line.id != null) ordered.set(line.id, line.quantity);
    const refunded = new Map<number, number>();
    (row.refunds ?? []).forEach((refund, r) => {
      (refund.refund_line_items ?? []).forEach((item, i) => {
        const path = `refunds[${r}].refund_line_items[${i}]`;
        const quantity = ordered.get(item.line_item_id);
        if (quantity === undefined) {
          refused(index, `${path}.line_item_id`, `no line of this order has the id ${item.line_item_id}`);
        }
        const total = (refunded.get(item.line_item_id) ?? 0) + item.quantity;
        if (total > quantity) {
          const message = `refunds take back ${total} of line ${item.line_item_id}, which ordered ${quantity}`;
          refused(index, `${path}.quantity`, message);
        }
        refunded.set(item.line_item_id, total);
      });
    });
  });
}

/** The largest line total a shop's figures sum exactly (money's own bound: `MONEY_PATTERN`). */
const MAX_LINE_TOTAL = parseMoney('899999999999.9999')!;

/**
 * Refuses a line whose total (price × quantity) is past what money holds: each bound alone allowed a
 * total of 9 × 10^21, past the database's integers (a 500 on PostgreSQL, and every later sync of the
 * order failing) and past exact sums (SQLite stored a float, and later small orders were lost to it).
 */
export function rejectLineTotalsPastMoney(
  rows: readonly { line_items: { quantity: number; price?: string }[] }[],
): void {
  rows.forEach((row, index) => {
    row.line_items.forEach((line, i) => {
      if ((parseMoney(line.price ?? '0') ?? 0) * line.quantity > MAX_LINE_TOTAL)
        refused(index, `line_items[${i}].quantity`, 'the line total (price × quantity) must be below 900000000000');
    });
  });
}

function refused(index: number, path: string, message: string): never {
  throw new InvalidDocumentError(`Row ${index} of the orders: ${path}: ${message}.`, [{ index, path, message }]);
}
