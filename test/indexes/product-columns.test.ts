import { describe, expect, it } from 'vitest';
import { parseMoney } from '../../src/domain/catalog/money.js';
import { isListable, isVariantInStock, splitTags, type Product } from '../../src/domain/catalog/product.js';
import { joinColumns } from '../../src/indexes/product-columns.js';
import { indexProducts, packServed, servingRow, unpackServed } from '../../src/indexes/product-serving.js';
import { BIG, product } from '../helpers/fixtures.js';
import { indexFields } from '../helpers/indexed-products.js';

/** Products of different shapes: no tags, upper-case and repeated tags, one variant to three, ids past 32 bits. */
const products: Product[] = [
  product(1, { tags: '' }),
  product(2, { tags: 'Summer, sale, Summer', vendor: 'Ünïcødé', status: 'draft' }),
  product(BIG + 3, {
    tags: 'a, b, c, d',
    variants: [
      { id: BIG + 31, price: '1.05', inventory_management: 'shop', inventory_policy: 'deny', inventory_quantity: 1 },
    ],
  }),
  product(4, {
    variants: [1, 2, 3].map((v) => ({
      id: 40 + v,
      price: `${v}9.99`,
      inventory_management: 'shop',
      inventory_policy: v === 3 ? 'continue' : 'deny',
      inventory_quantity: 0,
    })),
  }),
];

/** What the read model must hold of a product, as the domain's own functions read its document. */
const expected = (p: Product) => ({
  id: p.id,
  handle: p.handle,
  title: p.title,
  vendor: p.vendor,
  productType: p.product_type,
  tags: splitTags(p.tags),
  tagsLower: splitTags(p.tags).map((t) => t.toLowerCase()),
  listable: isListable(p),
  inStock: p.variants.some(isVariantInStock),
  variantCount: p.variants.length,
  variants: p.variants.map((v) => ({ id: v.id, price: parseMoney(v.price), inStock: isVariantInStock(v) })),
});

const held = indexFields;

const rows = products.map((p) => ({ id: p.id, ...servingRow(p) }));

describe("products' index fields as columns", () => {
  it('give each product its own fields, from documents and from stored rows alike', () => {
    expect(indexProducts(products).map(held)).toEqual(products.map(expected));
    expect(unpackServed(packServed(rows)).map(held)).toEqual(products.map(expected));
  });

  it('hold each vendor, product type, tag and list of tags once a page, which products share', () => {
    const same = (i: number) => product(i, { vendor: 'Acme', product_type: 'Shirts', tags: 'Sale, new' });
    const page = [same(1), same(2), product(3, { vendor: 'Other', product_type: 'Acme', tags: 'new' }), same(BIG)];
    const packed = packServed(page.map((p) => ({ id: p.id, ...servingRow(p) })));
    expect(packed.fields.kinds).toEqual(['Acme', 'Shirts', 'Sale', 'new', 'Other']);
    expect([...packed.fields.tagKinds]).toEqual([2, 3, 3]);
    expect([...packed.fields.tagListEnds]).toEqual([2, 3]);
    expect([...packed.fields.tagListOf]).toEqual([0, 0, 1, 0]);
    const [a, b, other, big] = unpackServed(packed);
    expect([a!.vendor, other!.vendor, other!.productType, big!.productType]).toEqual([
      'Acme',
      'Other',
      'Acme',
      'Shirts',
    ]);
    expect(b!.tags).toBe(a!.tags);
    expect(big!.tagsLower).toBe(a!.tagsLower);
    expect([a!.tags, a!.tagsLower, other!.tags]).toEqual([['Sale', 'new'], ['sale', 'new'], ['new']]);
  });

  it('hold a long list of tags for each product that carries it, its tags still once a page', () => {
    const long = Array.from({ length: 40 }, (_, t) => `tag ${t}`).join(', ');
    const page = [product(1, { tags: long }), product(2, { tags: long }), product(3, { tags: 'tag 3, new' })];
    const packed = packServed(page.map((p) => ({ id: p.id, ...servingRow(p) })));
    // Two copies of the long list (not keyed by the text of its 40 tags), one of the short one.
    expect([...packed.fields.tagListOf]).toEqual([0, 1, 2]);
    expect([...packed.fields.tagListEnds]).toEqual([40, 80, 82]);
    expect(packed.fields.kinds.filter((kind) => kind.startsWith('tag '))).toHaveLength(40);
    const [a, b, c] = unpackServed(packed);
    expect(b!.tags).toEqual(a!.tags);
    expect(a!.tags).toHaveLength(40);
    expect(c!.tags).toEqual(['tag 3', 'new']);
    expect(c!.tags[0]).toBe(a!.tags[3]);
  });

  it('joined from pages, give what one page of every product gives', () => {
    const pages = [rows.slice(0, 1), rows.slice(1, 1), rows.slice(1, 3), rows.slice(3)].map(packServed);
    const whole = packServed(rows).fields;
    const joined = joinColumns(pages.map((p) => p.fields));
    const plain = (c: object) => Object.fromEntries(Object.entries(c).map(([k, v]) => [k, [...v]]));
    expect(plain(joined)).toEqual(plain(whole));
  });
});
