import { deserialize, serialize, setFlagsFromString } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoShop } from '../../demo/generate.js';
import { CatalogLoader } from '../../src/indexes/catalog-loader.js';
import { indexCollection } from '../../src/indexes/collection-index.js';
import { CustomerIndex } from '../../src/indexes/customer-index.js';
import { packPage, packServed } from '../../src/indexes/product-serving.js';
import { DEFAULT_TRENDING } from '../../src/domain/ranking/trending.js';
import { foldSales } from '../../src/indexes/sales.js';
import {
  decodeSnapshot,
  encodeSnapshot,
  joinPages,
  type LoadParts,
  SNAPSHOT_FORMAT,
  snapshotBytes,
} from '../../src/indexes/shop-snapshot.js';
import type { Store } from '../../src/store/store.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { BIG, productInput } from '../helpers/fixtures.js';

const NOW = new Date('2026-11-01T12:00:00Z');
const data = generateDemoShop({ seed: 7, productCount: 60, now: NOW });

/** What a load reads part by part, as the store gives it. */
async function partsRead(store: Store, shopId: number) {
  return {
    products: packServed(await store.listServedProducts(shopId, {})),
    collections: (await store.listCollections(shopId)).map(indexCollection),
    markets: await store.listMarkets(shopId),
    customers: CustomerIndex.of(await store.listCustomers(shopId)),
    sales: foldSales(await store.listSoldLines(shopId), Date.now(), DEFAULT_TRENDING),
  };
}

/** The typed arrays among a page's index columns. */
const columnBuffersOf = (columns: object) =>
  Object.values(columns).filter((column): column is Uint8Array => ArrayBuffer.isView(column));

/** A serving row's index fields: product i has i tags, i % 3 variants and i + 1 offsets. */
const servingFields = (i: number) =>
  JSON.stringify({
    h: `handle-${i}`,
    t: `Title ${i}`,
    i: null,
    v: `Vendor ${i % 2}`,
    p: 'Type',
    g: Array.from({ length: i }, (_, t) => `tag-${t}`),
    l: i % 2,
    vs: Array.from({ length: i % 3 }, (_, v) => [BIG + 10 * i + v, 1_000 * i + v, v % 2]).flat(),
    o: Array.from({ length: i + 1 }, (_, o) => 10 * o),
  });

/** A product's serving row and index fields as the read model holds them. */
const productsOf = (packed: ReturnType<typeof packServed>) => ({
  ids: [...packed.ids],
  bytes: Buffer.from(packed.bytes).toString('base64'),
  ends: [...packed.ends],
  fields: Object.fromEntries(Object.entries(packed.fields).map(([name, column]) => [name, [...column]])),
});

describe('a load snapshot as a value', () => {
  it('gives back its parts: ids past 32 bits, lines without a customer, customers without e-mail or tags', () => {
    const parts = {
      products: packServed([]),
      collections: [
        { id: BIG + 3, title: 'Été', handle: 'ete', members: [BIG + 1, 4] },
        { id: 5, title: 'Empty', handle: 'empty', members: [] },
      ],
      markets: [
        {
          id: 2,
          name: 'Europe',
          position: 0,
          active: true,
          countries: ['DE', 'FR'],
          currency: 'EUR',
          price_adjustment_percent: -5,
          fixed_prices: [{ variant_id: BIG + 9, price: '9.50', compare_at_price: null }],
          product_ids: [BIG + 1, 4],
        },
      ],
      customers: CustomerIndex.of([
        { id: 1, email: null, tags: [] },
        { id: BIG + 2, email: 'ana@example.com', tags: ['vip', 'Großkunde'] },
        { id: BIG + 3, email: '', tags: [] },
      ]),
      sales: foldSales(
        [
          { orderId: BIG, productId: BIG + 1, quantity: 2, customerId: null, at: 1_700_000_000_000 },
          { orderId: BIG, productId: 4, quantity: 1, customerId: BIG + 2, at: 1_700_000_000_000 },
          { orderId: BIG + 1, productId: 4, quantity: 3, customerId: BIG + 2, at: 1_700_000_100_000 },
        ],
        NOW.getTime(),
        DEFAULT_TRENDING,
      ),
    };
    const decoded = decodeSnapshot(encodeSnapshot(parts));
    const readable = (p: LoadParts) => ({
      ...p,
      products: productsOf(p.products),
      customers: [...p.customers.values()],
    });
    expect(readable(decoded)).toEqual(readable(parts));
  });
});

describe('a load snapshot, read back', () => {
  it('gives lists of ids whose numbers past 31 bits are unboxed, not an object each', () => {
    // V8's own test of an array's elements (natives syntax, allowed before the function is compiled).
    setFlagsFromString('--allow-natives-syntax');
    const unboxed = new Function('list', 'return %HasDoubleElements(list)') as (list: readonly number[]) => boolean;
    const ids = Array.from({ length: 30 }, (_, i) => BIG + i);
    const lines = ids.map((productId, i) => ({
      orderId: i,
      productId,
      quantity: 1,
      customerId: null,
      at: NOW.getTime(),
    }));
    const stored = {
      products: packServed([]),
      collections: [],
      markets: [
        {
          id: 1,
          name: 'Everywhere',
          position: 0,
          active: true,
          countries: ['DE'],
          currency: 'EUR',
          price_adjustment_percent: 0,
          fixed_prices: [],
          product_ids: ids,
        },
      ],
      customers: CustomerIndex.of([]),
      sales: foldSales(lines, NOW.getTime(), DEFAULT_TRENDING),
    };
    const { sales, markets } = decodeSnapshot(encodeSnapshot(stored));
    expect(sales.topSellers).toHaveLength(30);
    for (const list of [sales.topSellers, sales.trending, markets[0]!.product_ids!]) expect(unboxed(list)).toBe(true);
    // The plain array V8 deserializes holds them boxed: what the read model kept before.
    expect(unboxed(deserialize(serialize(ids)) as number[])).toBe(false);
  });
});

describe('a load snapshot, bounded', () => {
  const parts = (over: Partial<LoadParts>): LoadParts => ({
    products: packServed([]),
    collections: [],
    markets: [],
    customers: CustomerIndex.of([]),
    sales: foldSales([], NOW.getTime(), DEFAULT_TRENDING),
    ...over,
  });
  const market = (id: number, size: number) => ({
    id,
    name: 'Ünïcødé market',
    position: id,
    active: true,
    countries: ['DE'],
    currency: 'EUR',
    price_adjustment_percent: 0,
    fixed_prices: Array.from({ length: size }, (_, i) => ({
      variant_id: BIG + i,
      price: '19.99',
      compare_at_price: null,
    })),
    product_ids: Array.from({ length: size }, (_, i) => BIG + i),
  });

  it.each([
    [
      'customers of many tags',
      parts({ customers: CustomerIndex.of([{ id: 1, email: 'a@b.c', tags: Array(3000).fill('t'.repeat(9)) }]) }),
    ],
    [
      'customers of as many lists of tags',
      parts({
        customers: CustomerIndex.of(
          Array.from({ length: 2000 }, (_, i) => ({ id: i, email: null, tags: [`tag ${i}`, 'ü'.repeat(i % 7)] })),
        ),
      }),
    ],
    ['markets of many prices', parts({ markets: [market(1, 20_000), market(2, 5)] })],
    [
      'e-mails outside Latin-1',
      parts({
        customers: CustomerIndex.of(
          Array.from({ length: 2000 }, (_, i) => ({ id: i, email: `客户${i}@例子.中国`, tags: [] })),
        ),
      }),
    ],
    [
      'collections of long titles',
      parts({
        collections: [{ id: 1, title: 'Ω'.repeat(5000), handle: 'h', members: [] }],
      }),
    ],
  ])('counts at least the bytes it makes of %s before making them', (_, value) => {
    expect(snapshotBytes(value)).toBeGreaterThanOrEqual(encodeSnapshot(value).byteLength);
  });

  it('keeps none of the stored value in what a read model holds', () => {
    const lines = [{ orderId: 1, productId: 2, quantity: 1, customerId: 3, at: 1_700_000_000_000 }];
    const rows = [{ id: 2, version: 2, body: Buffer.from('product bytes'), fields: servingFields(0) }];
    const body = encodeSnapshot(
      parts({
        products: packServed(rows),
        customers: CustomerIndex.of(
          Array.from({ length: 500 }, (_, i) => ({ id: i, email: `c${i}@example.com`, tags: i % 3 ? [] : ['vip'] })),
        ),
        sales: foldSales(lines, NOW.getTime(), DEFAULT_TRENDING),
      }),
    );
    const { products, sales, customers } = decodeSnapshot(body);
    const { ids, ends, noEmail, tagged, tagListOf } = customers.columns();
    expect(tagged.length).toBe(167);
    // The products' ids and ends too: a loaded page reads them for as long as the shop is resident.
    const held = [products.ids, products.bytes, products.ends, sales.ids, sales.units90, sales.scores, ids, ends];
    held.push(noEmail, tagged, tagListOf);
    held.push(...Object.values(sales.purchases), ...columnBuffersOf(products.fields));
    held.push(...Object.values(sales.coPurchases));
    for (const array of held) expect(array.buffer).not.toBe(body.buffer);
    // The products' bytes in a buffer of their own; the small arrays in one they share, of their size.
    expect(products.bytes.buffer.byteLength).toBe(products.bytes.byteLength);
    const small = held.filter((array) => array !== products.bytes);
    const shared = new Set(small.map((array) => array.buffer));
    expect(shared.size).toBe(1);
    const bytes = small.reduce((n, array) => n + array.byteLength, 0);
    expect([...shared][0]!.byteLength).toBeGreaterThanOrEqual(bytes);
    expect([...shared][0]!.byteLength).toBeLessThanOrEqual(bytes + 8 * small.length);
  });
});

describe.each(backends())('load snapshots on $name', (backend) => {
  let t: TestApp;
  let shopId: number;
  let key: string;
  let store: Store;

  beforeAll(async () => {
    // Writes rebuild the model at once: `answers` waits for it, so no build lands between two of them.
    t = await startApp(backend, { REBOUND_MODEL_INTERVAL_S: '86400', REBOUND_MODEL_DEBOUNCE_S: '0' });
    const shop = await t.createShop('snap');
    [shopId, key, store] = [shop.id, shop.public, t.services.store];
    await t.services.catalog.upsertProducts(shopId, data.products);
    await t.services.catalog.upsertCollections(shopId, data.collections);
    await t.services.catalog.upsertCustomers(shopId, data.customers);
    await t.services.catalog.upsertMarkets(shopId, data.markets);
    await t.services.catalog.upsertOrders(shopId, data.orders);
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  const version = async () => (await store.getShopById(shopId))!.data_version;
  const stored = async (at?: number) => store.getShopSnapshot(shopId, at ?? (await version()), SNAPSHOT_FORMAT);

  /** Loads the shop afresh and waits for the snapshot written after a load of parts. */
  async function load(): Promise<void> {
    t.services.catalogIndex.evict(shopId);
    await t.services.catalogIndex.ensure(shopId);
    await t.services.catalogIndex.copiesWritten();
  }

  /** Storefront answers that read every part: products, collections, markets, customers' purchases, sales. */
  async function answers(): Promise<string[]> {
    const collection = data.collections[0]!.id;
    const customer = data.orders.find((o) => o.customer)!.customer!.id;
    const paths = [
      'trending_products?limit=20',
      'top_sellers?limit=20',
      `collections?shop_collection_ids=${collection}&limit=20`,
      `purchased?shop_customer_id=${customer}&limit=20`,
      `recommended?shop_product_ids=${data.products[0]!.id}&limit=20`,
      `static?ids=${data.products.map((p) => p.id).join(',')}&limit=100&country=${data.markets[0]!.countries[0]}`,
    ];
    // The model is no part of a load: its first build (started by a request) or a rebuild after a
    // write must not land between the answers of two loads compared.
    await t.app.inject(`/api/v1/products/${paths[4]}&key=${key}`);
    await t.services.models.settled(shopId);
    const bodies: string[] = [];
    for (const path of paths) {
      const res = await t.app.inject(`/api/v1/products/${path}&key=${key}&bust_cache=yes`);
      expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
      bodies.push(res.body);
    }
    return bodies;
  }

  it('reads a shop loaded before from its snapshot, into the same parts and the same answers', async () => {
    await load();
    const before = await answers();
    const snapshotLoads = t.services.catalogIndex.snapshotLoads;
    const body = await stored();
    expect(body).not.toBeNull();
    const decoded = decodeSnapshot(body!);
    const read = await partsRead(store, shopId);
    expect(read.sales.purchases.customers.length).toBeGreaterThan(10);
    expect({ ...decoded, products: productsOf(decoded.products) }).toEqual({
      ...read,
      products: productsOf(read.products),
    });

    await load();
    expect(t.services.catalogIndex.snapshotLoads).toBe(snapshotLoads + 1);
    expect(await answers()).toEqual(before);
  });

  it.each([
    ['a product', () => t.services.catalog.upsertProducts(shopId, [{ ...data.products[1]!, title: 'Renamed' }])],
    ['a collection', () => t.services.catalog.upsertCollections(shopId, [data.collections[0]!])],
    ['a customer', () => t.services.catalog.upsertCustomers(shopId, [data.customers[0]!])],
    ['a market', () => t.services.catalog.upsertMarkets(shopId, [data.markets[0]!])],
    ['an order', () => t.services.catalog.upsertOrders(shopId, [data.orders[0]!])],
  ])('deletes the snapshot with a write of %s, and the next load reads the parts', async (_, write) => {
    await load();
    const at = await version();
    expect(await stored(at)).not.toBeNull();
    await write();
    expect(await stored(at)).toBeNull();
    const snapshotLoads = t.services.catalogIndex.snapshotLoads;
    await load();
    expect(t.services.catalogIndex.snapshotLoads).toBe(snapshotLoads);
    expect(await stored()).not.toBeNull();
  });

  it("forgets an erased customer's e-mail and purchases with the snapshot that held them", async () => {
    const customer = data.customers.find((c) => c.email && data.orders.some((o) => o.customer?.id === c.id))!;
    await load();
    const at = await version();
    expect(Buffer.from((await stored(at))!).includes(customer.email!)).toBe(true);
    await store.eraseCustomer(shopId, customer.id);
    expect(await stored(at)).toBeNull();
    await load();
    const next = decodeSnapshot((await stored())!);
    expect([...next.customers.values()].some((c) => c.id === customer.id || c.email === customer.email)).toBe(false);
    expect(next.sales.purchases.customers.includes(customer.id)).toBe(false);
  });

  it('keeps no snapshot while the shop has orders dated after its load: its figures hold that time', async () => {
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const order = { ...data.orders[0]!, id: BIG + 77, created_at: later, updated_at: later };
    await t.services.catalog.upsertOrders(shopId, [order]);
    t.services.catalogIndex.evict(shopId);
    await t.services.catalogIndex.ensure(shopId);
    await t.services.catalogIndex.copiesWritten();
    expect(await stored()).toBeNull();
    await t.services.catalog.upsertOrders(shopId, [{ ...order, created_at: NOW.toISOString() }]);
    await load();
    expect(await stored()).not.toBeNull();
  });

  it('goes with its shop, and none is stored for a deleted shop', async () => {
    const other = await t.createShop('gone');
    await t.services.catalog.upsertProducts(other.id, data.products.slice(0, 3));
    const at = (await store.getShopById(other.id))!.data_version;
    const body = encodeSnapshot(await partsRead(store, other.id));
    expect(await store.putShopSnapshot(other.id, at, SNAPSHOT_FORMAT, body)).toBe(true);
    await store.deleteShopData(other.id);
    expect(await store.getShopSnapshot(other.id, at, SNAPSHOT_FORMAT)).toBeNull();
    expect(await store.putShopSnapshot(other.id, at, SNAPSHOT_FORMAT, body)).toBe(false);
    expect(await store.getShopSnapshot(other.id, at, SNAPSHOT_FORMAT)).toBeNull();
  });

  it('is not stored when the shop has moved to another version since its parts were read', async () => {
    const at = await version();
    await t.services.catalog.upsertProducts(shopId, [data.products[2]!]);
    const body = encodeSnapshot(await partsRead(store, shopId));
    expect(await store.putShopSnapshot(shopId, at, SNAPSHOT_FORMAT, body)).toBe(false);
    expect(await stored(at)).toBeNull();
    expect(await store.putShopSnapshot(shopId, at + 1, SNAPSHOT_FORMAT, body)).toBe(true);
    expect(await stored(at + 1)).not.toBeNull();
  });

  it('reads the parts when the stored snapshot cannot be read, and replaces it', async () => {
    await load();
    const before = await answers();
    const at = await version();
    expect(await store.putShopSnapshot(shopId, at, SNAPSHOT_FORMAT, new Uint8Array([0xff, 0x0f, 1, 2]))).toBe(true);
    const snapshotLoads = t.services.catalogIndex.snapshotLoads;
    t.services.catalogIndex.evict(shopId);
    await t.services.catalogIndex.ensure(shopId);
    expect(t.services.catalogIndex.snapshotLoads).toBe(snapshotLoads);
    expect(await answers()).toEqual(before);
    await t.services.catalogIndex.copiesWritten();
    const replaced = (await stored())!;
    expect(() => decodeSnapshot(replaced)).not.toThrow();
  });

  it.each([
    ['with', true],
    ['without', false],
  ])('keeps no snapshot of a shop of more products than a load reads here, %s its thread', async (_, thread) => {
    // More than a first page (250 products), with no snapshot of this version. Not resident in the app's
    // index, whose refresh after the write would store one.
    t.services.catalogIndex.evict(shopId);
    await t.services.catalog.upsertProducts(
      shopId,
      Array.from({ length: 200 }, (_, i) => productInput(9_000 + i)),
    );
    const threadPages: number[] = [];
    const readPage = (id: number, page: { afterId: number; limit: number; maxBytes: number }) => {
      threadPages.push(page.afterId);
      return store.listServedProducts(id, page).then((rows) => packPage(rows, page));
    };
    const loader = new CatalogLoader(store, undefined, thread ? readPage : undefined, 10);
    const catalog = await loader.full(shopId);
    expect(catalog!.products.size).toBe(data.products.length + 200);
    expect(threadPages.length > 0).toBe(thread);
    await loader.copiesWritten();
    expect(await stored()).toBeNull();
    // The same shop, read here whole: its snapshot is kept.
    const whole = new CatalogLoader(store, undefined, undefined, 10_000);
    await whole.full(shopId);
    await whole.copiesWritten();
    expect(await stored()).not.toBeNull();
  });
});

describe('joining pages of products', () => {
  it('gives the page that reading every product at once gives', () => {
    const rows = data.products.slice(0, 7).map((p, i) => ({
      id: p.id,
      version: 2,
      body: Buffer.from(`product ${i} `.repeat(i + 1)),
      fields: servingFields(i),
    }));
    const whole = packServed(rows);
    const joined = joinPages([packServed(rows.slice(0, 3)), packServed(rows.slice(3, 3)), packServed(rows.slice(3))]);
    expect(productsOf(joined)).toEqual(productsOf(whole));
    expect([joined.count, joined.lastId]).toEqual([7, whole.lastId]);
  });
});
