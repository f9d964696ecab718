import type { StoreEvent } from '../src/domain/events.js';
import type { DemoData } from './generate.js';
import { Random, WeightedSampler, deriveSeed, zipfWeights } from './random.js';

const DAY_MS = 86_400_000;

function uuidOf(rng: Random): string {
  const hex = (n: number) => Array.from({ length: n }, () => rng.int(0, 15).toString(16)).join('');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${(8 + rng.int(0, 3)).toString(16)}${hex(3)}-${hex(12)}`;
}

/**
 * Browsing sessions over the 30 days before `now`: each views a few products (popular ones more
 * often), some add one to the cart and a few remove it; a third are logged-in customers.
 */
export function generateDemoEvents(data: DemoData, options: { now: Date; seed?: number; sessions?: number }): StoreEvent[] {
  const rng = new Random(deriveSeed(options.seed ?? 42, 6));
  const handles = data.products.filter((p) => p.status !== 'draft' && p.published_at !== null).map((p) => p.handle);
  const sampler = new WeightedSampler(zipfWeights(handles.length, 1.05));
  const customers = data.customers.map((c) => c.id);
  const now = options.now.getTime();
  const events: StoreEvent[] = [];
  for (let s = 0; s < (options.sessions ?? 900); s++) {
    const uuid = uuidOf(rng);
    const customer = rng.chance(0.33) ? rng.pick(customers) : null;
    let at = now - rng.between(0, 30) * DAY_MS;
    const base = { uuid, customer_id: customer, subject: 'user' as const, noun: 'product' as const, subject_email: null, theme_id: null };
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
