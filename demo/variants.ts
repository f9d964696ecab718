import type { ProductInput } from '../src/domain/inputs/catalog.js';
import { money } from './format.js';
import type { IdSequences } from './ids.js';
import { at, type Random } from './random.js';
import { COLORS, type ProductTypeSpec } from './words.js';

export type VariantIn = ProductInput['variants'][number];
export type OptionIn = NonNullable<ProductInput['options']>[number];

/** How a product's inventory behaves: mostly tracked stock, some sold out, some sold on backorder. */
export type StockClass = 'normal' | 'soldOut' | 'backorder' | 'untracked';

export interface VariantContext {
  rng: Random;
  ids: IdSequences;
  spec: ProductTypeSpec;
  productId: number;
  sku: string;
  stock: StockClass;
  onSale: boolean;
}

interface Combo {
  size: string | null;
  sizeRank: number;
  color: string | null;
}

const VARIANT_COUNTS = [1, 2, 3, 4, 5, 6];
const VARIANT_COUNT_WEIGHTS = [18, 14, 24, 20, 9, 15];
const FIT_NOTES = ['Runs small: consider one size up.', 'True to size.', 'Roomy cut for layering.'];

/** Options (Size and/or Color) and 1–6 priced, stocked variants for one product. */
export function buildVariants(ctx: VariantContext): { options: OptionIn[]; variants: VariantIn[]; colors: string[] } {
  const { rng, spec } = ctx;
  const { sizes, colors } = chooseOptionValues(rng, spec, rng.weighted(VARIANT_COUNTS, VARIANT_COUNT_WEIGHTS));
  const options: OptionIn[] = [];
  if (sizes.length > 0)
    options.push({ id: ctx.ids.option(), product_id: ctx.productId, name: 'Size', position: 1, values: sizes });
  if (colors.length > 0) {
    options.push({
      id: ctx.ids.option(),
      product_id: ctx.productId,
      name: 'Color',
      position: options.length + 1,
      values: colors,
    });
  }
  const combos: Combo[] = [];
  for (const [sizeRank, size] of (sizes.length > 0 ? sizes : [null]).entries()) {
    for (const color of colors.length > 0 ? colors : [null]) combos.push({ size, sizeRank, color });
  }
  const baseWhole = basePrice(rng, spec, sizes.length);
  const ending99 = rng.chance(0.55);
  const saleFactor = ctx.onSale ? rng.between(1.15, 1.45) : 0;
  const baseGrams = rng.int(spec.grams[0], spec.grams[1]);
  const variants = combos.map((combo, i): VariantIn => {
    const whole = Math.min(
      480,
      Math.max(19, roundWhole(baseWhole * (spec.sizePriced ? 1 + 0.15 * combo.sizeRank : 1))),
    );
    const priceCents = ending99 && whole > 19 ? whole * 100 - 1 : whole * 100;
    const grams = Math.round(baseGrams * (1 + 0.2 * combo.sizeRank));
    const values = [combo.size, combo.color].filter((v): v is string => v !== null);
    const variant: VariantIn = {
      id: ctx.ids.variant(),
      product_id: ctx.productId,
      title: values.join(' / '),
      price: money(priceCents),
      compare_at_price: ctx.onSale ? money(Math.ceil((whole * saleFactor) / 5) * 500) : null,
      sku: [ctx.sku, ...values.map(skuPart)].join('-'),
      position: i + 1,
      ...stockFields(rng, ctx.stock),
      fulfillment_service: 'manual',
      option1: values[0] ?? null,
      option2: values[1] ?? null,
      option3: null,
      taxable: true,
      requires_shipping: true,
      barcode: ean13(rng),
      grams,
      weight: Math.round(grams) / 1000,
      weight_unit: 'kg',
      inventory_item_id: ctx.ids.inventoryItem(),
    };
    if (rng.chance(0.04)) variant.metafields = [variantMetafield(rng, ctx, variant.id, combo)];
    return variant;
  });
  ensureSomethingInStock(rng, ctx.stock, variants);
  return { options, variants, colors };
}

function chooseOptionValues(rng: Random, spec: ProductTypeSpec, wanted: number): { sizes: string[]; colors: string[] } {
  const window = (n: number) => {
    const count = Math.min(n, spec.sizes.length);
    const start = rng.int(0, spec.sizes.length - count);
    return spec.sizes.slice(start, start + count);
  };
  if (spec.sizes.length === 0) return { sizes: [], colors: rng.sample(COLORS, wanted) };
  if (!spec.colors) return { sizes: window(wanted), colors: [] };
  if ((wanted === 4 || wanted === 6) && rng.chance(0.6)) {
    const sizeCount = wanted === 4 ? 2 : rng.pick([2, 3]);
    return { sizes: window(sizeCount), colors: rng.sample(COLORS, wanted / sizeCount) };
  }
  return rng.chance(0.65) ? { sizes: window(wanted), colors: [] } : { sizes: [], colors: rng.sample(COLORS, wanted) };
}

function basePrice(rng: Random, spec: ProductTypeSpec, sizeCount: number): number {
  const [low, high] = spec.price;
  const top = spec.sizePriced ? Math.max(low, high / (1 + 0.15 * Math.max(0, sizeCount - 1))) : high;
  return Math.exp(rng.between(Math.log(low), Math.log(top)));
}

function roundWhole(value: number): number {
  return value > 100 ? Math.round(value / 5) * 5 : Math.round(value);
}

function stockFields(
  rng: Random,
  stock: StockClass,
): Pick<VariantIn, 'inventory_management' | 'inventory_policy' | 'inventory_quantity'> {
  switch (stock) {
    case 'soldOut':
      return { inventory_management: 'shop', inventory_policy: 'deny', inventory_quantity: 0 };
    case 'backorder':
      return {
        inventory_management: 'shop',
        inventory_policy: 'continue',
        inventory_quantity: rng.chance(0.3) ? -rng.int(1, 6) : 0,
      };
    case 'untracked':
      return { inventory_management: null, inventory_policy: 'deny', inventory_quantity: 0 };
    case 'normal': {
      const roll = rng.next();
      const quantity =
        roll < 0.08 ? 0 : roll < 0.095 ? -rng.int(1, 4) : Math.round(Math.exp(rng.between(0, Math.log(180))));
      return { inventory_management: 'shop', inventory_policy: 'deny', inventory_quantity: quantity };
    }
  }
}

/** Products meant to be in stock keep at least one sellable variant. */
function ensureSomethingInStock(rng: Random, stock: StockClass, variants: VariantIn[]): void {
  if (stock !== 'normal' || variants.some((v) => (v.inventory_quantity ?? 0) > 0)) return;
  at(variants, 0).inventory_quantity = rng.int(3, 40);
}

function variantMetafield(rng: Random, ctx: VariantContext, variantId: number, combo: Combo) {
  const field = (key: string, value: string, valueType: string) => ({
    id: ctx.ids.metafield(),
    namespace: 'specs',
    key,
    value,
    value_type: valueType,
    owner_id: variantId,
    owner_resource: 'variant',
  });
  if (combo.size !== null && !ctx.spec.sizePriced) return field('fit_note', rng.pick(FIT_NOTES), 'string');
  return field(
    'packed_size',
    JSON.stringify({ length_cm: rng.int(12, 60), diameter_cm: rng.int(8, 30) }),
    'json_string',
  );
}

function skuPart(value: string): string {
  return value
    .split(/[\s-]+/)
    .map((w) => w.slice(0, 3))
    .join('')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');
}

function ean13(rng: Random): string {
  const digits = [4, 0, ...Array.from({ length: 10 }, () => rng.int(0, 9))];
  const sum = digits.reduce((acc, d, i) => acc + d * (i % 2 === 0 ? 1 : 3), 0);
  return [...digits, (10 - (sum % 10)) % 10].join('');
}
