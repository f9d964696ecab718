import type { OrderInput } from '../src/domain/inputs/catalog.js';
import type { ProductProfile } from './catalog.js';
import { DAY, HOUR, MINUTE, isoSeconds } from './format.js';
import { ID_BASE } from './ids.js';
import { at, type Random, WeightedSampler, zipfWeights } from './random.js';

export interface OrderOptions {
  now: Date;
  days: number;
  customerIds: number[];
}

type LineItem = OrderInput['line_items'][number];

const HOUR_WEIGHTS = [
  1, 0.8, 0.5, 0.4, 0.3, 0.4, 0.8, 1.5, 2.2, 2.6, 2.8, 3, 3.2, 3, 2.8, 2.7, 2.8, 3, 3.4, 3.8, 4, 3.6, 2.6, 1.6,
];
const HOURS = HOUR_WEIGHTS.map((_, h) => h);
const LINE_COUNTS = [1, 2, 3, 4];
const LINE_COUNT_WEIGHTS = [50, 28, 14, 8];
const COMPANION_RATE = 0.4;

/** How a product's demand moves over the window, beyond its Zipf-like base popularity. */
interface Demand {
  base: number;
  rising: boolean;
  fading: boolean;
  companion: number | null;
}

/**
 * Orders over the last `days` days: weekday and weekend rhythm, a mild upward trend, a few
 * spikes, Zipf-like product popularity with some rising and fading products, and companion
 * products that are often bought together.
 */
export function generateOrders(rng: Random, profiles: ProductProfile[], options: OrderOptions): OrderInput[] {
  const nowMs = options.now.getTime();
  const startMs = nowMs - options.days * DAY;
  const demand = planDemand(rng, profiles);
  const customers = rng.shuffle(options.customerIds);
  const customerSampler = new WeightedSampler(zipfWeights(customers.length, 0.7));
  const firstDay = Math.floor(startMs / DAY) * DAY;
  const dayCount = Math.floor((nowMs - firstDay) / DAY) + 1;
  const spikes = new Set(
    rng.sample(
      Array.from({ length: Math.max(0, dayCount - 10) }, (_, i) => i + 5),
      3,
    ),
  );
  const placed: { at: number; order: Omit<OrderInput, 'id'> }[] = [];
  for (let day = 0; day < dayCount; day++) {
    const dayMs = firstDay + day * DAY;
    const sampler = new WeightedSampler(
      profiles.map((p, i) =>
        p.createdMs < dayMs + DAY ? weightAt(at(demand, i), dayMs + DAY / 2, nowMs) * launchBoost(p, dayMs) : 0,
      ),
    );
    const weekday = new Date(dayMs).getUTCDay();
    const rhythm = weekday === 0 || weekday === 6 ? 1.25 : weekday === 5 ? 1.08 : 1;
    const expected =
      (46 + 12 * (day / dayCount)) * rhythm * rng.between(0.88, 1.12) * (spikes.has(day) ? rng.between(1.7, 2.3) : 1);
    for (let n = Math.round(expected); n > 0; n--) {
      const time = Math.floor((dayMs + rng.weighted(HOURS, HOUR_WEIGHTS) * HOUR + rng.next() * HOUR) / 1000) * 1000;
      if (time <= startMs || time > nowMs) continue;
      const lines = pickLines(rng, sampler, profiles, demand, time);
      if (lines.length === 0) continue;
      const customerIndex = customerSampler.draw(rng);
      const customer = customerIndex >= 0 && rng.chance(0.7) ? { id: at(customers, customerIndex) } : null;
      const cancelledMs = rng.chance(0.03) ? time + rng.between(10 * MINUTE, 36 * HOUR) : null;
      const cancelled = cancelledMs !== null && cancelledMs <= nowMs ? cancelledMs : null;
      const updated = cancelled ?? Math.min(nowMs, time + rng.between(2 * HOUR, 4 * DAY));
      const order = {
        created_at: isoSeconds(time),
        updated_at: isoSeconds(updated),
        cancelled_at: cancelled === null ? null : isoSeconds(cancelled),
        customer,
        line_items: lines,
      };
      placed.push({ at: time, order });
    }
  }
  placed.sort((a, b) => a.at - b.at);
  return placed.map(({ order }, i) => ({ id: ID_BASE.order + i + 1, ...order }));
}

function planDemand(rng: Random, profiles: ProductProfile[]): Demand[] {
  const zipf = zipfWeights(profiles.length, 1);
  const listed = profiles.filter((p) => p.listable);
  const risingIds = new Set(
    rng
      .sample(
        listed.filter((p) => p.rank >= 15 && p.rank < 300),
        10,
      )
      .map((p) => p.id),
  );
  const fadingIds = new Set(
    rng
      .sample(
        listed.filter((p) => p.rank < 10),
        3,
      )
      .map((p) => p.id),
  );
  const indexById = new Map(profiles.map((p, i) => [p.id, i]));
  return profiles.map((p): Demand => {
    const candidates =
      p.listable && p.rank < 150 && rng.chance(0.5)
        ? listed
            .filter((c) => c.id !== p.id && p.spec.companions.includes(c.spec.name))
            .sort((a, b) => a.rank - b.rank)
            .slice(0, 30)
        : [];
    const companion = candidates.length > 0 ? (indexById.get(rng.pick(candidates).id) ?? null) : null;
    return { base: at(zipf, p.rank), rising: risingIds.has(p.id), fading: fadingIds.has(p.id), companion };
  });
}

function weightAt(demand: Demand, time: number, nowMs: number): number {
  const daysAgo = (nowMs - time) / DAY;
  if (demand.rising) return demand.base * (1 + 12 * Math.max(0, 1 - daysAgo / 30) ** 2);
  if (demand.fading) return demand.base * (0.2 + 0.8 * Math.min(1, daysAgo / 90));
  return demand.base;
}

/** New products sell briskly in their first couple of weeks. */
function launchBoost(profile: ProductProfile, dayMs: number): number {
  const age = (dayMs - profile.createdMs) / DAY;
  return age < 0 ? 1 : 1 + 4 * Math.exp(-age / 10);
}

function pickLines(
  rng: Random,
  sampler: WeightedSampler,
  profiles: ProductProfile[],
  demand: Demand[],
  time: number,
): LineItem[] {
  const wanted = rng.weighted(LINE_COUNTS, LINE_COUNT_WEIGHTS);
  const chosen: number[] = [];
  const add = (index: number) => {
    if (index >= 0 && !chosen.includes(index) && at(profiles, index).createdMs <= time) chosen.push(index);
  };
  for (let attempt = 0; chosen.length < wanted && attempt < 12; attempt++) {
    const before = chosen.length;
    const index = sampler.draw(rng);
    add(index);
    const companion = index >= 0 ? at(demand, index).companion : null;
    if (chosen.length > before && companion !== null && chosen.length < 4 && rng.chance(COMPANION_RATE)) add(companion);
  }
  return chosen.map((index): LineItem => {
    const variant = rng.pick(at(profiles, index).variants);
    return {
      product_id: at(profiles, index).id,
      variant_id: variant.id,
      quantity: rng.weighted([1, 2, 3], [85, 12, 3]),
      price: variant.price,
    };
  });
}
