import type { Money } from '../catalog/money.js';
import { utcDay } from '../events.js';
import { getOrCreate } from '../maps.js';

/** The longest cart token kept: the platform's are 32 to 64 characters. */
export const MAX_CART_TOKEN_LENGTH = 255;

/**
 * A cart token as orders carry it. Since 2024 the platform's cart cookie and its Ajax cart's `token`
 * hold `<token>?key=<key>`, and an order's `cart_token` the token alone. The key lets whoever holds
 * it change the cart, so it is cut off wherever a token comes in (also URL-encoded) and never kept.
 */
export function cartTokenOf(value: string | null | undefined): string | null {
  if (!value) return null;
  const token = value.split(/\?|%3F/i, 1)[0]!.trim();
  return token === '' ? null : token;
}

/** An order as attribution reads it: its lines with the property a storefront tagged them with, net of refunds. */
export interface OrderToAttribute {
  id: number;
  customer_id: number | null;
  /** The storefront cart the order was placed from: its clicks count as the customer's would. */
  cart_token: string | null;
  /** Epoch ms. */
  created_at: number;
  cancelled: boolean;
  lines: {
    /** The line's position in the order (stable across re-imports of the same order). */
    line_no: number;
    product_id: number;
    /** Units left after refunds. */
    quantity: number;
    /** Unit price. */
    price: Money;
    /** The `_rebound_source` property, when the line carries one. */
    source: string | null;
  }[];
}

/** A tracked click, as the click window reads it: by a signed-in customer, in a known cart, or both. */
export interface Click {
  customer_id: number | null;
  cart_token: string | null;
  product_id: number;
  source: string;
  /** Epoch ms. */
  created_at: number;
}

/** A line given to a source, with the experiment arm that source belongs to (if any). */
export interface AttributedLine {
  order_id: number;
  line_no: number;
  source: string;
  via: 'property' | 'click';
  product_id: number;
  quantity: number;
  revenue: Money;
  /** The order's creation (epoch ms); its UTC day is the day the revenue counts on. */
  created_at: number;
  experiment_id: number | null;
  arm: number | null;
}

/**
 * Attributes an order's lines (docs/attribution.md, "Attribution"): the line-item property wins;
 * otherwise the latest click on the product within the window before the order by its customer or
 * in its cart (an anonymous order has only its cart). A cancelled order, and lines refunded to
 * zero, attribute nothing.
 */
export function attributeOrder(
  order: OrderToAttribute,
  clicks: ClickIndex,
  windowMs: number,
): Omit<AttributedLine, 'experiment_id' | 'arm'>[] {
  if (order.cancelled) return [];
  const out: Omit<AttributedLine, 'experiment_id' | 'arm'>[] = [];
  for (const line of order.lines) {
    if (line.quantity <= 0) continue;
    let source = line.source;
    let via: AttributedLine['via'] = 'property';
    if (source === null && (order.customer_id !== null || order.cart_token !== null)) {
      source = latestClick(clicks, order, line.product_id, order.created_at - windowMs, order.created_at);
      via = 'click';
    }
    if (source === null) continue;
    out.push({
      order_id: order.id,
      line_no: line.line_no,
      source,
      via,
      product_id: line.product_id,
      quantity: line.quantity,
      revenue: line.price * line.quantity,
      created_at: order.created_at,
    });
  }
  return out;
}

/** A batch's clicks by customer and product and by cart and product, each list in the batch's order. */
export interface ClickIndex {
  byCustomer: Map<string, IndexedClick[]>;
  byCart: Map<string, IndexedClick[]>;
}
type IndexedClick = Click & { position: number };

/**
 * The clicks an import's orders may be attributed to, indexed once: each order line searched all of
 * them, and 50,000 clicks a visitor sent against an order of 10,000 lines held the thread 2.9 s.
 */
export function indexClicks(clicks: readonly Click[]): ClickIndex {
  const index: ClickIndex = { byCustomer: new Map(), byCart: new Map() };
  const add = (map: Map<string, IndexedClick[]>, key: string, click: IndexedClick) => {
    const list = map.get(key);
    if (list) list.push(click);
    else map.set(key, [click]);
  };
  clicks.forEach((click, position) => {
    const indexed = { ...click, position };
    if (click.customer_id !== null) add(index.byCustomer, `${click.customer_id}:${click.product_id}`, indexed);
    if (click.cart_token !== null) add(index.byCart, `${click.product_id}:${click.cart_token}`, indexed);
  });
  return index;
}

/**
 * The latest click on the product in the window, by the order's customer or in its cart; of two at
 * one instant, the later listed.
 */
function latestClick(clicks: ClickIndex, order: OrderToAttribute, productId: number, from: number, to: number) {
  const { customer_id: customer, cart_token: cart } = order;
  let best: IndexedClick | null = null;
  const lists = [
    customer === null ? undefined : clicks.byCustomer.get(`${customer}:${productId}`),
    cart === null ? undefined : clicks.byCart.get(`${productId}:${cart}`),
  ];
  for (const list of lists)
    for (const click of list ?? []) {
      if (click.created_at < from || click.created_at > to) continue;
      const later =
        !best ||
        click.created_at > best.created_at ||
        (click.created_at === best.created_at && click.position > best.position);
      if (later) best = click;
    }
  return best?.source ?? null;
}

/**
 * What attributed lines add to the per-day totals: per source, and per experiment arm (with Σ revenue² for intervals).
 */
export interface AttributionTotals {
  sources: Map<string, { day: number; source: string; orders: number; revenue: Money }>;
  arms: Map<
    string,
    { experiment_id: number; arm: number; day: number; orders: number; revenue: Money; revenue_sq: number }
  >;
}

/** Folds attributed lines into per-day totals; an order counts once per source and once per arm. */
export function totalsOf(lines: readonly AttributedLine[]): AttributionTotals {
  const sources: AttributionTotals['sources'] = new Map();
  const perOrderArm = new Map<string, { experiment_id: number; arm: number; day: number; revenue: Money }>();
  const ordersCounted = new Set<string>();
  for (const line of lines) {
    const day = utcDay(line.created_at);
    const key = `${day}\u0000${line.source}`;
    const row = getOrCreate(sources, key, () => ({ day, source: line.source, orders: 0, revenue: 0 }));
    row.revenue += line.revenue;
    if (!ordersCounted.has(`${line.order_id}\u0000${key}`)) {
      ordersCounted.add(`${line.order_id}\u0000${key}`);
      row.orders++;
    }
    if (line.experiment_id === null || line.arm === null) continue;
    const armKey = `${line.order_id}\u0000${line.experiment_id}\u0000${line.arm}`;
    const perOrder = perOrderArm.get(armKey) ?? { experiment_id: line.experiment_id, arm: line.arm, day, revenue: 0 };
    perOrder.revenue += line.revenue;
    perOrderArm.set(armKey, perOrder);
  }
  const arms: AttributionTotals['arms'] = new Map();
  for (const order of perOrderArm.values()) {
    const key = `${order.experiment_id}\u0000${order.arm}\u0000${order.day}`;
    const row = getOrCreate(arms, key, () => ({
      experiment_id: order.experiment_id,
      arm: order.arm,
      day: order.day,
      orders: 0,
      revenue: 0,
      revenue_sq: 0,
    }));
    row.orders++;
    row.revenue += order.revenue;
    // Σ of squared order revenue in currency units: the per-visitor variance of revenue_per_visitor.
    row.revenue_sq += (order.revenue / 10_000) ** 2;
  }
  return { sources, arms };
}
