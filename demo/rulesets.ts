import type { RulesetInput } from '../src/domain/inputs/ruleset.js';
import type { DemoData } from './generate.js';

type Product = DemoData['products'][number];

const listable = (p: Product) =>
  p.status !== 'draft' &&
  p.published_at !== null &&
  !String(p.tags ?? '').includes('exclude_rebound') &&
  p.variants.some(
    (v) => v.inventory_management !== 'shop' || v.inventory_policy === 'continue' || (v.inventory_quantity ?? 0) > 0,
  );

/** The product the upsell ruleset is about (the demo's example requests use it). */
export function upsellAnchor(data: DemoData): Product {
  return data.products.filter(listable)[0]!;
}

/** Five rulesets that show the engine off, built from the generated catalog (ids differ with the seed). */
export function demoRulesets(data: DemoData): RulesetInput[] {
  const products = data.products.filter(listable);
  const anchor = upsellAnchor(data);
  const others = products.filter((p) => p.product_type !== anchor.product_type).slice(0, 3);
  const giftCollection = data.collections.find((c) => c.handle.includes('gift')) ?? data.collections[0]!;
  const anchorTags = String(anchor.tags ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const ref = (p: Product) => ({ product_id: p.id });
  return [
    {
      name: 'Product page upsell',
      rules: [
        {
          name: `Accessories for ${anchor.title}`,
          logic: [{ rules: [{ type: 'product', operator: 'contains_any', products: [ref(anchor)] }] }],
          output: [{ type: 'product', products: others.map(ref) }],
        },
        {
          name: 'Otherwise, the same type',
          logic: [],
          output: [{ type: 'tag', value: anchorTags[0] ?? 'bestseller' }],
        },
      ],
    },
    {
      name: 'Cart drawer: gift over $150',
      rules: [
        {
          name: 'Big cart gets gift ideas',
          logic: [{ rules: [{ type: 'cart_subtotal', operator: 'greater_than', value: '150' }] }],
          output: [{ type: 'collection', collection_id: giftCollection.id }],
          exit_if_matched: true,
        },
        {
          name: 'Small cart: add-ons',
          logic: [
            { rules: [{ type: 'cart_item_count', operator: 'less_than', value: '3' }] },
            { rules: [{ type: 'customer', operator: 'is_guest' }] },
          ],
          output: [{ type: 'tag', value: 'bestseller' }],
        },
      ],
    },
    {
      name: 'Weekend promotion',
      rules: [
        {
          name: 'Sale picks on Saturdays and Sundays',
          logic: [{ rules: [{ type: 'day_of_week', operator: 'contains_any', value: 'sat,sun' }] }],
          output: [{ type: 'tag', value: 'sale' }],
          exit_if_matched: true,
        },
        {
          name: 'Weekdays: new arrivals',
          logic: [],
          output: [{ type: 'tag', value: 'new' }],
        },
      ],
    },
    {
      name: 'Cross-sell by tag',
      rules: [
        {
          name: 'Same activity',
          logic: [
            {
              rules: [
                { type: 'product_tag', operator: 'contains_any', value: 'camping,hiking,climbing,kitchen,garden,home' },
              ],
            },
          ],
          output: [{ type: 'matching_input_tags' }],
        },
      ],
    },
    {
      name: 'Catch-all with a fallback',
      rules: [
        {
          name: 'VIP customers see the gift collection',
          logic: [{ rules: [{ type: 'customer_tag', operator: 'contains_any', value: 'vip' }] }],
          output: [{ type: 'collection', collection_id: giftCollection.id }],
          exit_if_matched: true,
        },
        {
          name: 'Everyone else: what is trending',
          logic: [],
          output: [{ type: 'endpoint', endpoint: '/products/trending_products' }],
        },
      ],
    },
  ];
}
