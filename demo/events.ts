import type { StoreEvent } from '../src/domain/events.js';
import type { DemoData } from './generate.js';
import { Random, WeightedSampler, deriveSeed, zipfWeights } from './random.js';

const DAY_MS = 86_400_000;

function uuidOf(rng: Random): string {
  const hex = (n: number) => Array.from({ length: n }, () => rng.int(0, 15).toString(16)).join('');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${(8 + rng.int(0, 3)).toString(16)}${hex(3)}-${hex(12)}`;
}

/** Units sold per product over the 30 days before `now` (cancelled orders left out). */
function unitsSold30d(data: DemoData, now: number): Map<number, number> {
  const units = new Map<number, number>();
  for (const order of data.orders) {
    if (order.cancelled_at || Date.parse(order.created_at) < now - 30 * DAY_MS) continue;
    for (const line of order.line_items) units.set(line.product_id, (units.get(line.product_id) ?? 0) + line.quantity);
  }
  return units;
}

/**
 * Browsing sessions over the 30 days before `now`: each views a few products, some add one to the
 * cart and a few remove it; a third are logged-in customers. Products are viewed about in
 * proportion to what they sell, with a floor and some Zipf-shaped noise, and about 25 times as
 * often as they are bought: a product-view conversion of a few percent, as in a real shop.
 */
export function generateDemoEvents(
  data: DemoData,
  options: { now: Date; seed?: number; sessions?: number },
): StoreEvent[] {
  const rng = new Random(deriveSeed(options.seed ?? 42, 6));
  const viewable = data.products.filter((p) => p.status !== 'draft' && p.published_at !== null);
  const handles = viewable.map((p) => p.handle);
  const sold = unitsSold30d(data, options.now.getTime());
  const noise = zipfWeights(handles.length, 1.05);
  const total = noise.reduce((sum, w) => sum + w, 0);
  const unitsTotal = [...sold.values()].reduce((sum, u) => sum + u, 0) || 1;
  // Each product's share of views: mostly its share of sales, partly the old popularity curve (browsed, not bought).
  const sampler = new WeightedSampler(
    viewable.map((p, i) => 0.8 * ((sold.get(p.id) ?? 0) / unitsTotal) + 0.2 * (noise[i]! / total)),
  );
  const sessions = options.sessions ?? Math.round((25 * unitsTotal) / 4.5);
  const customers = data.customers.map((c) => c.id);
  const now = options.now.getTime();
  const events: StoreEvent[] = [];
  for (let s = 0; s < sessions; s++) {
    const uuid = uuidOf(rng);
    const customer = rng.chance(0.33) ? rng.pick(customers) : null;
    let at = now - rng.between(0, 30) * DAY_MS;
    const base = {
      uuid,
      customer_id: customer,
      subject: 'user' as const,
      noun: 'product' as const,
      subject_email: null,
      theme_id: null,
    };
    for (let v = rng.int(2, 7); v > 0; v--) {
      const handle = handles[sampler.draw(rng)]!;
      at += rng.int(5, 240) * 1000;
      if (at > now) break;
      events.push({ ...base, verb: 'viewed', handle, created_at: Math.round(at) });
      if (rng.chance(0.12)) {
        events.push({ ...base, verb: 'added', handle, created_at: Math.round(at) + 4000 });
        if (rng.chance(0.2)) events.push({ ...base, verb: 'removed', handle, created_at: Math.round(at) + 60_000 });
      }
    }
  }
  return events.sort((a, b) => a.created_at - b.created_at);
}
