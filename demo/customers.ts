import type { CustomerInput } from '../src/domain/inputs/catalog.js';
import { DAY, isoSeconds, slugify } from './format.js';
import { ID_BASE } from './ids.js';
import type { Random } from './random.js';
import { FIRST_NAMES, LAST_NAMES } from './words.js';

/** Storefront customers with example.com addresses and marketing tags. */
export function generateCustomers(rng: Random, count: number, now: Date): CustomerInput[] {
  const used = new Set<string>();
  return Array.from({ length: count }, (_, i): CustomerInput => {
    const first = slugify(rng.pick(FIRST_NAMES));
    const last = slugify(rng.pick(LAST_NAMES)).replace(/-/g, '');
    const local = rng.chance(0.7) ? `${first}.${last}` : `${first}${last.slice(0, 1)}${rng.int(1, 99)}`;
    let email = `${local}@example.com`;
    for (let n = 2; used.has(email); n++) email = `${local}${n}@example.com`;
    used.add(email);
    const tags: string[] = [];
    if (rng.chance(0.45)) tags.push('newsletter');
    if (rng.chance(0.06)) tags.push('vip');
    if (rng.chance(0.03)) tags.push('wholesale');
    return {
      id: ID_BASE.customer + i + 1,
      email,
      tags: tags.join(', '),
      updated_at: isoSeconds(now.getTime() - rng.between(0.5, 400) * DAY),
    };
  });
}
