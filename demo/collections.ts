import type { CollectionInput, ProductInput } from '../src/domain/inputs/catalog.js';
import { parseMoney } from '../src/domain/catalog/money.js';
import { splitTags } from '../src/domain/catalog/product.js';
import { DAY, isoSeconds, slugify } from './format.js';
import { ID_BASE } from './ids.js';
import type { ProductProfile } from './catalog.js';
import { at, type Random } from './random.js';
import { PRODUCT_TYPES } from './words.js';

interface Member {
  product: ProductInput;
  profile: ProductProfile;
  tags: Set<string>;
  minPrice: number;
}

type Order = 'popular' | 'newest';

const GIFT_LIMIT = parseMoney('50.00') ?? 0;

/** One collection per product type plus the merchandising ones (best sellers, new, sale, gifts, seasons). */
export function generateCollections(
  rng: Random,
  products: ProductInput[],
  profiles: ProductProfile[],
  now: Date,
): CollectionInput[] {
  const members: Member[] = products.map((product, i) => ({
    product,
    profile: at(profiles, i),
    tags: new Set(splitTags(typeof product.tags === 'string' ? product.tags : '')),
    minPrice: Math.min(...product.variants.map((v) => parseMoney(v.price) ?? 0)),
  }));
  const definitions: [string, (m: Member) => boolean, Order][] = [
    ...PRODUCT_TYPES.map((spec): [string, (m: Member) => boolean, Order] => [
      spec.name,
      (m) => m.product.product_type === spec.name,
      'popular',
    ]),
    ['Best sellers', (m) => m.tags.has('bestseller'), 'popular'],
    ['New arrivals', (m) => m.tags.has('new'), 'newest'],
    ['Sale', (m) => m.tags.has('sale'), 'popular'],
    ['Gifts under 50', (m) => m.tags.has('gift') && m.minPrice < GIFT_LIMIT, 'popular'],
    ['Summer', (m) => m.tags.has('summer'), 'popular'],
    ['Winter', (m) => m.tags.has('winter'), 'popular'],
  ];
  return definitions.map(([title, include, order], i): CollectionInput => {
    const chosen = members
      .filter(include)
      .sort(
        order === 'newest'
          ? (a, b) => b.profile.createdMs - a.profile.createdMs || a.profile.id - b.profile.id
          : (a, b) => a.profile.rank - b.profile.rank,
      );
    return {
      id: ID_BASE.collection + i + 1,
      title,
      handle: slugify(title),
      products: chosen.map((m, position) => ({ product_id: m.product.id, position: position + 1 })),
      updated_at: isoSeconds(now.getTime() - rng.between(0.2, 20) * DAY),
    };
  });
}
