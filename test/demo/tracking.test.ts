import { describe, expect, it } from 'vitest';
import { generateDemoEvents } from '../../demo/events.js';
import { generateDemoShop } from '../../demo/generate.js';
import { generateDemoTraffic } from '../../demo/tracking.js';
import { chooseArm } from '../../src/domain/experiments/assign.js';
import { OrderInput } from '../../src/domain/inputs/catalog.js';
import { validateRows } from '../../src/domain/inputs/validate.js';

const now = new Date('2026-06-15T12:00:00.000Z');
const data = generateDemoShop({ now, productCount: 200 });
const arms = [
  { name: 'A', ruleset_id: 1, weight: 1 },
  { name: 'B', ruleset_id: 4, weight: 1 },
];
const plan = {
  now,
  days: 14,
  visitorsPerDay: 100,
  experiment: { id: 1, arms, sources: ['ruleset:1:v1:arm:A', 'ruleset:4:v1:arm:B'], clickRates: [0.08, 0.11] },
  list: { source: 'list:trending_products' },
};

describe("the demo shop's tracked traffic and browsing", () => {
  it('views products far more often than they sell: a conversion of a few percent', () => {
    const events = generateDemoEvents(data, { now });
    const views = events.filter((e) => e.verb === 'viewed').length;
    let units = 0;
    for (const order of data.orders) {
      if (!order.cancelled_at && Date.parse(order.created_at) >= now.getTime() - 30 * 86_400_000)
        for (const line of order.line_items) units += line.quantity;
    }
    expect(units / views).toBeGreaterThan(0.02);
    expect(units / views).toBeLessThan(0.08);
  });

  it(
    "serves each visitor the arm the server's hash gives, and " +
      'makes orders the import accepts, tagged with a served source',
    () => {
      const traffic = generateDemoTraffic(data, plan);
      expect(traffic).toEqual(generateDemoTraffic(data, plan));
      expect(traffic.visitors).toHaveLength(1400);
      for (const v of traffic.visitors.slice(0, 200)) expect(v.arm).toBe(chooseArm({ id: 1, arms }, v.visitor));
      expect(() => validateRows(OrderInput, traffic.orders, 'orders')).not.toThrow();
      expect(traffic.orders.length).toBeGreaterThan(5);
      const sources = new Set(
        traffic.orders.flatMap((o) => o.line_items.flatMap((l) => l.properties ?? []).map((p) => p.value)),
      );
      for (const source of sources) expect([...plan.experiment.sources, plan.list.source]).toContain(source);
      const impressions = traffic.events.filter((e) => e.type === 'impression').length;
      const clicks = traffic.events.filter((e) => e.type === 'click').length;
      expect(clicks / impressions).toBeGreaterThan(0.03);
      expect(clicks / impressions).toBeLessThan(0.15);
      for (const e of traffic.events) expect(e.created_at).toBeLessThan(now.getTime());
    },
  );
});
