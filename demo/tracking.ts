import { chooseArm, visitorKey } from '../src/domain/experiments/assign.js';
import type { Arm } from '../src/domain/experiments/types.js';
import type { TrackEvent } from '../src/domain/attribution/track.js';
import type { OrderInput } from '../src/domain/inputs/catalog.js';
import type { DemoData } from './generate.js';
import { ID_BASE } from './ids.js';
import { Random, deriveSeed } from './random.js';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** What the demo's widgets did: visitors an experiment served, tracked events and the orders they led to. */
export interface DemoTraffic {
  visitors: { experiment_id: number; arm: number; visitor: string; created_at: number }[];
  events: TrackEvent[];
  orders: OrderInput[];
}

export interface TrafficPlan {
  now: Date;
  seed?: number;
  days: number;
  /** The running experiment: its id (assignment hashes it), arms, and each arm's `metadata.source`. */
  experiment: { id: number; arms: Arm[]; sources: string[]; clickRates: number[] };
  /** A list widget beside it (trending), with its source. */
  list: { source: string };
  visitorsPerDay: number;
}

function uuidOf(rng: Random): string {
  const hex = (n: number) => Array.from({ length: n }, () => rng.int(0, 15).toString(16)).join('');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${(8 + rng.int(0, 3)).toString(16)}${hex(3)}-${hex(12)}`;
}

/**
 * Widget traffic over the last `days`: each visitor is served the experiment's arm the server's
 * hash gives them, sees the widget three times in four, clicks at the arm's rate, adds a third of
 * the clicks to the cart and orders about half of those. Most orders carry `_rebound_source`; the
 * rest belong to signed-in customers and are attributed by their click. A trending widget gets the
 * same treatment at a lower rate.
 */
export function generateDemoTraffic(data: DemoData, plan: TrafficPlan): DemoTraffic {
  const rng = new Random(deriveSeed(plan.seed ?? 42, 8));
  const now = plan.now.getTime();
  const products = data.products
    .filter((p) => p.status === 'active' && p.published_at !== null && p.variants.length > 0)
    .slice(0, 200);
  const customers = data.customers.map((c) => c.id);
  const out: DemoTraffic = { visitors: [], events: [], orders: [] };
  let orderId = ID_BASE.order + 100_000_000;

  const visit = (at: number, uuid: string, customer: number | null, source: string, clickRate: number) => {
    const who = { uuid, customer_id: customer, cart_token: null };
    if (!rng.chance(0.75)) return;
    out.events.push({ ...who, type: 'impression', source, product_id: null, variant_id: null, created_at: at + 2000 });
    if (!rng.chance(clickRate)) return;
    const product = rng.pick(products);
    const variant = rng.pick(product.variants);
    const clicked = at + rng.int(5, 90) * 1000;
    out.events.push({ ...who, type: 'click', source, product_id: product.id, variant_id: null, created_at: clicked });
    if (!rng.chance(0.35)) return;
    out.events.push({
      ...who,
      type: 'add_to_cart',
      source,
      product_id: product.id,
      variant_id: variant.id,
      created_at: clicked + 60_000,
    });
    if (!rng.chance(0.5)) return;
    const ordered = Math.min(now - MINUTE_MS, clicked + rng.int(3, 40) * MINUTE_MS);
    // Signed-in customers' carts sometimes lose the property (a cart
    // rebuilt elsewhere): their click still attributes the line.
    const tagged = customer === null || rng.chance(0.7);
    out.orders.push({
      id: ++orderId,
      created_at: new Date(ordered).toISOString(),
      ...(customer !== null ? { customer: { id: customer } } : {}),
      line_items: [
        {
          id: orderId * 10 + 1,
          product_id: product.id,
          variant_id: variant.id,
          quantity: rng.chance(0.2) ? 2 : 1,
          price: variant.price,
          properties: tagged ? [{ name: '_rebound_source', value: source }] : [],
        },
      ],
    });
  };

  for (let day = plan.days; day >= 1; day--) {
    for (let v = 0; v < plan.visitorsPerDay; v++) {
      const at = Math.round(now - day * DAY_MS + rng.between(0, DAY_MS - 2 * 3_600_000));
      const uuid = uuidOf(rng);
      const customer = rng.chance(0.35) ? rng.pick(customers) : null;
      const arm = chooseArm(plan.experiment, visitorKey(uuid, customer));
      out.visitors.push({
        experiment_id: plan.experiment.id,
        arm,
        visitor: visitorKey(uuid, customer)!,
        created_at: at,
      });
      visit(at, uuid, customer, plan.experiment.sources[arm]!, plan.experiment.clickRates[arm]!);
      if (rng.chance(0.6)) visit(at + 30_000, uuid, customer, plan.list.source, 0.05);
    }
  }
  out.events.sort((a, b) => a.created_at - b.created_at);
  return out;
}
