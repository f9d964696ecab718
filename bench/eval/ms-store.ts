import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsvRecord } from './csv.js';
import type { Invoice, RetailProduct } from './retail.js';
import { getOrCreate } from '../../src/domain/maps.js';

/**
 * The Microsoft store log as products and baskets (a user's items bought
 * at one time), split by time: the last `validShare` of rows validate.
 */
export function loadMsStore(
  dir: string,
  validShare = 0.2,
): { rows: number; products: RetailProduct[]; train: Invoice[]; valid: Invoice[]; cutoff: number; lastAt: number } {
  const lines = readFileSync(join(dir, 'ms_usage_train.csv'), 'utf8').trim().split('\n');
  const records = lines
    .slice(1)
    .map((line) => parseCsvRecord(line)!)
    .map(([user, item, time]) => ({ user: user!, item: item!, at: Date.parse(`${time}Z`) }));
  const catalog = readFileSync(join(dir, 'ms_catalog.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => parseCsvRecord(line)!);
  const names = new Map(catalog.map(([item, name, category]) => [item!, { name: name!, category: category! }]));
  const codes = [...new Set([...records.map((r) => r.item), ...names.keys()])].sort();
  const idOf = new Map(codes.map((code, i) => [code, 1000 + i]));
  const users = [...new Set(records.map((r) => r.user))].sort();
  const customerOf = new Map(users.map((user, i) => [user, 1 + i]));
  const products = codes.map((code): RetailProduct => {
    const known = names.get(code);
    const tag = known?.category.toLowerCase().replace(/[^a-z]/g, '') || null;
    return { id: idOf.get(code)!, code, title: known?.name.slice(0, 200) || code, price: '10.00', tag };
  });
  const baskets = new Map<string, Invoice>();
  for (const r of records) {
    const key = `${r.user}|${r.at}`;
    const basket = getOrCreate(baskets, key, () => ({
      id: 0,
      at: r.at,
      customer: customerOf.get(r.user)!,
      items: new Map(),
    }));
    const id = idOf.get(r.item)!;
    const item = basket.items.get(id);
    if (item) item.quantity++;
    else basket.items.set(id, { quantity: 1, price: 10 });
  }
  const ordered = [...baskets.values()].sort((a, b) => a.at - b.at || a.customer! - b.customer!);
  ordered.forEach((b, i) => {
    b.id = i + 1;
    b.items = new Map([...b.items].sort((x, y) => x[0] - y[0]));
  });
  const times = records.map((r) => r.at).sort((a, b) => a - b);
  const cutoff = times[Math.floor(times.length * (1 - validShare))]!;
  return {
    rows: records.length,
    products,
    train: ordered.filter((b) => b.at < cutoff),
    valid: ordered.filter((b) => b.at >= cutoff),
    cutoff,
    lastAt: times[times.length - 1]!,
  };
}
