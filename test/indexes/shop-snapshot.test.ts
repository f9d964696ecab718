import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoShop } from '../../demo/generate.js';
import { CatalogLoader } from '../../src/indexes/catalog-loader.js';
import { packServed } from '../../src/indexes/product-serving.js';
import { decodeSnapshot, encodeSnapshot, joinPages, SNAPSHOT_FORMAT } from '../../src/indexes/shop-snapshot.js';
import type { Store } from '../../src/store/store.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { BIG, productInput } from '../helpers/fixtures.js';

const NOW = new Date('2026-11-01T12:00:00Z');
const data = generateDemoShop({ seed: 7, productCount: 60, now: NOW });
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** What a load reads part by part, as the store gives it. */
async function partsRead(store: Store, shopId: number) {
  return {
    products: packServed(await store.listServedProducts(shopId, {})),
    collections: await store.listCollections(shopId),
    markets: await store.listMarkets(shopId),
    customers: await store.listCustomers(shopId),
    lines: await store.listSoldLines(shopId),
  };
}

/** A product's serving row and index fields as the read model holds them. */
const productsOf = (packed: ReturnType<typeof packServed>) => ({
  ids: [...packed.ids],
  bytes: Buffer.from(packed.bytes).toString('base64'),
  ends: [...packed.ends],
  fields: JSON.parse(packed.fields),
});

describe('a load snapshot as a value', () => {
  it('gives back its parts: ids past 32 bits, lines without a customer, customers without e-mail or tags', () => {
    const parts = {
      products: packServed([]),
      collections: [
        {
          id: BIG + 3,
          title: 'Été',
          handle: 'ete',
          updated_at: '2026-03-01T00:00:00.000Z',
          products: [
            { product_id: BIG + 1, position: 1 },
            { product_id: 4, position: 1 },
          ],
        },
        { id: 5, title: 'Empty', handle: 'empty', updated_at: '2026-03-02T00:00:00.000Z', products: [] },
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
      customers: [
        { id: 1, email: null, tags: [] },
        { id: BIG + 2, email: 'ana@example.com', tags: ['vip', 'Großkunde'] },
        { id: BIG + 3, email: '', tags: [] },
      ],
      lines: [
        { orderId: BIG, productId: BIG + 1, quantity: 2, customerId: null, at: 1_700_000_000_000 },
        { orderId: BIG, productId: 4, quantity: 1, customerId: BIG + 2, at: 1_700_000_000_000 },
      ],
    };
    const decoded = decodeSnapshot(encodeSnapshot(parts));
    expect({ ...decoded, products: productsOf(decoded.products) }).toEqual({
      ...parts,
      products: productsOf(parts.products),
    });
  });
});

describe.each(backends())('load snapshots on $name', (backend) => {
  let t: TestApp;
  let shopId: number;
  let key: string;
  let store: Store;

  beforeAll(async () => {
    t = await startApp(backend, { REBOUND_MODEL_INTERVAL_S: '86400' });
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
    for (let i = 0; i < 50 && !(await stored()); i++) await turn();
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
    expect(read.lines.length).toBeGreaterThan(100);
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
    expect(next.customers.some((c) => c.id === customer.id || c.email === customer.email)).toBe(false);
    expect(next.lines.some((l) => l.customerId === customer.id)).toBe(false);
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
    for (let i = 0; i < 50 && (await stored())!.byteLength < 5; i++) await turn();
    const replaced = (await stored())!;
    expect(() => decodeSnapshot(replaced)).not.toThrow();
  });

  it.each([
    ['with', true],
    ['without', false],
  ])('keeps no snapshot of a shop of more products than a load reads here, %s its thread', async (_, thread) => {
    // More than a first page (250 products), with no snapshot of this version.
    await t.services.catalog.upsertProducts(
      shopId,
      Array.from({ length: 200 }, (_, i) => productInput(9_000 + i)),
    );
    const threadPages: number[] = [];
    const readPage = (id: number, page: { afterId: number; limit: number }) => {
      threadPages.push(page.afterId);
      return store.listServedProducts(id, page).then(packServed);
    };
    const loader = new CatalogLoader(store, undefined, thread ? readPage : undefined, 10);
    const catalog = await loader.full(shopId);
    expect(catalog!.products.size).toBe(data.products.length + 200);
    expect(threadPages.length > 0).toBe(thread);
    for (let i = 0; i < 5; i++) await turn();
    expect(await stored()).toBeNull();
    // The same shop, read here whole: its snapshot is kept.
    await new CatalogLoader(store, undefined, undefined, 10_000).full(shopId);
    for (let i = 0; i < 50 && !(await stored()); i++) await turn();
    expect(await stored()).not.toBeNull();
  });
});

describe('joining pages of products', () => {
  it('gives the page that reading every product at once gives', () => {
    const rows = data.products.slice(0, 7).map((p, i) => ({
      id: p.id,
      version: 2,
      body: Buffer.from(`product ${i} `.repeat(i + 1)),
      fields: JSON.stringify({ h: p.handle, o: [i] }),
    }));
    const whole = packServed(rows);
    const joined = joinPages([packServed(rows.slice(0, 3)), packServed(rows.slice(3, 3)), packServed(rows.slice(3))]);
    expect(productsOf(joined)).toEqual(productsOf(whole));
    expect([joined.count, joined.lastId]).toEqual([7, whole.lastId]);
  });
});
