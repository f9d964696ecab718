import type { ProductInput } from '../src/domain/inputs/catalog.js';
import { DAY, MINUTE, isoSeconds, slugify } from './format.js';
import { ID_BASE, catalogIdSequences } from './ids.js';
import { buildBodyHtml, buildImages, buildMetafields } from './media.js';
import { at, type Random } from './random.js';
import { buildVariants, type StockClass } from './variants.js';
import { ADJECTIVES, PRODUCT_TYPES, type ProductTypeSpec, type Season } from './words.js';

/** What the order and collection generators need to know about a product beyond its input row. */
export interface ProductProfile {
  id: number;
  spec: ProductTypeSpec;
  listable: boolean;
  createdMs: number;
  /** Popularity rank, 0 = best seller; unlisted products rank after every listed one. */
  rank: number;
  variants: { id: number; price: string }[];
}

export interface CatalogOptions {
  count: number;
  now: Date;
  publicUrl: string;
}

const TYPE_WEIGHTS = [10, 9, 13, 14, 12, 12, 10, 9, 11];
const NEW_DAYS = 30;

interface Flags {
  stock: StockClass;
  draft: boolean;
  unpublished: boolean;
  excluded: boolean;
  onSale: boolean;
  ageDays: number;
}

/** The product catalog and, per product, the profile that drives orders and collections. */
export function generateCatalog(
  rng: Random,
  options: CatalogOptions,
): { products: ProductInput[]; profiles: ProductProfile[] } {
  const { count } = options;
  const nowMs = options.now.getTime();
  const ids = catalogIdSequences();
  const flags = assignFlags(rng, count);
  const ranks = assignRanks(rng, flags);
  const bestsellers = Math.max(1, Math.round(count * 0.04));
  const usedHandles = new Set<string>();
  const products: ProductInput[] = [];
  const profiles: ProductProfile[] = [];
  for (let index = 0; index < count; index++) {
    const id = ID_BASE.product + index + 1;
    const flag = at(flags, index);
    const rank = at(ranks, index);
    const spec = rng.weighted(PRODUCT_TYPES, TYPE_WEIGHTS);
    const { title, handle, material, noun } = nameProduct(rng, spec, usedHandles);
    const vendor = rng.pick(spec.vendors);
    const { ageDays } = flag;
    const createdMs = nowMs - ageDays * DAY;
    const publishedMs = createdMs + rng.between(0, Math.min(2, ageDays - 0.5)) * DAY;
    const updatedMs = publishedMs + rng.next() * (nowMs - publishedMs - MINUTE);
    const createdAt = isoSeconds(createdMs);
    const sku = `${spec.code}-${String(index + 1).padStart(4, '0')}`;
    const {
      options: productOptions,
      variants,
      colors,
    } = buildVariants({ rng, ids, spec, productId: id, sku, stock: flag.stock, onSale: flag.onSale });
    const media = { rng, ids, productId: id, title, publicUrl: options.publicUrl, createdAt };
    const images = buildImages(media, variants, colors);
    const tags = buildTags(rng, spec, material, noun, {
      isNew: ageDays < NEW_DAYS,
      bestseller: rank < bestsellers,
      onSale: flag.onSale,
      excluded: flag.excluded,
    });
    const product: ProductInput = {
      id,
      title,
      handle,
      body_html: buildBodyHtml(rng, title, vendor, material, spec),
      vendor,
      product_type: spec.name,
      created_at: createdAt,
      updated_at: isoSeconds(updatedMs),
      published_at: flag.unpublished ? null : isoSeconds(publishedMs),
      template_suffix: null,
      published_scope: 'web',
      tags: tags.join(', '),
      status: flag.draft ? 'draft' : 'active',
      options: productOptions,
      variants,
      images,
    };
    if (rng.chance(0.5)) product.metafields = buildMetafields(media, spec, material);
    products.push(product);
    profiles.push({
      id,
      spec,
      createdMs,
      rank,
      listable: !flag.draft && !flag.unpublished && !flag.excluded,
      variants: variants.map((v) => ({ id: v.id, price: v.price })),
    });
  }
  return { products, profiles };
}

/** Exact shares of each special case, spread at random over the catalog. */
function assignFlags(rng: Random, count: number): Flags[] {
  const flags: Flags[] = Array.from({ length: count }, () => ({
    stock: 'normal',
    draft: false,
    unpublished: false,
    excluded: false,
    onSale: rng.chance(0.15),
    ageDays: rng.chance(0.1) ? rng.between(1, NEW_DAYS) : rng.between(NEW_DAYS, 1100),
  }));
  const share = (p: number) => Math.max(1, Math.round(count * p));
  const stockOrder = rng.shuffle(flags);
  const stockClasses: [StockClass, number][] = [
    ['soldOut', share(0.08)],
    ['backorder', share(0.05)],
    ['untracked', share(0.02)],
  ];
  let cursor = 0;
  for (const [stock, n] of stockClasses) {
    for (const flag of stockOrder.slice(cursor, cursor + n)) flag.stock = stock;
    cursor += n;
  }
  const [drafts, hidden, excluded] = [share(0.01), share(0.01), share(0.01)];
  rng
    .shuffle(flags)
    .slice(0, drafts + hidden + excluded)
    .forEach((flag, i) => {
      if (i < drafts) flag.draft = true;
      else if (i < drafts + hidden) flag.unpublished = true;
      else flag.excluded = true;
    });
  return flags;
}

/** A random popularity order over listed products; new ones have not had time to become top sellers. */
function assignRanks(rng: Random, flags: Flags[]): number[] {
  const indices = flags.map((_, i) => i);
  const keys = flags.map((f) => (f.ageDays < NEW_DAYS ? 0.15 + 0.85 * rng.next() : rng.next()));
  const listed = indices
    .filter((i) => !flags[i]?.draft && !flags[i]?.unpublished && !flags[i]?.excluded)
    .sort((a, b) => at(keys, a) - at(keys, b));
  const listedSet = new Set(listed);
  const unlisted = indices.filter((i) => !listedSet.has(i));
  const ranks = new Array<number>(flags.length).fill(0);
  [...listed, ...unlisted].forEach((index, rank) => {
    ranks[index] = rank;
  });
  return ranks;
}

function nameProduct(rng: Random, spec: ProductTypeSpec, used: Set<string>) {
  let name = { title: '', handle: '', material: '', noun: '' };
  for (let attempt = 0; attempt < 8; attempt++) {
    const material = rng.pick(spec.materials);
    const noun = rng.pick(spec.nouns);
    const sharesWord = material.split(' ').some((w) => noun.includes(w));
    const title = `${rng.pick(ADJECTIVES)} ${sharesWord ? '' : `${material} `}${noun}`;
    name = { title, handle: slugify(title), material, noun };
    if (!used.has(name.handle)) break;
  }
  let handle = name.handle;
  for (let n = 2; used.has(handle); n++) handle = `${name.handle}-${n}`;
  used.add(handle);
  return { ...name, handle };
}

const NOUN_SEASONS: [RegExp, Season][] = [
  [/winter|down|parka|insulated|blanket/i, 'winter'],
  [/sandal|picnic|tumbler|tarp/i, 'summer'],
];

function buildTags(
  rng: Random,
  spec: ProductTypeSpec,
  material: string,
  noun: string,
  facts: { isNew: boolean; bestseller: boolean; onSale: boolean; excluded: boolean },
): string[] {
  const season =
    NOUN_SEASONS.find(([pattern]) => pattern.test(noun))?.[1] ??
    (spec.season !== null && rng.chance(0.6)
      ? spec.season
      : rng.chance(0.1)
        ? rng.pick<Season>(['summer', 'winter'])
        : null);
  const tags = [slugify(spec.name), spec.group, slugify(material)];
  if (season !== null) tags.push(season);
  if (rng.chance(spec.giftRate)) tags.push('gift');
  if (facts.bestseller) tags.push('bestseller');
  if (facts.isNew) tags.push('new');
  if (facts.onSale) tags.push('sale');
  if (facts.excluded) tags.push('exclude_rebound');
  return tags;
}
