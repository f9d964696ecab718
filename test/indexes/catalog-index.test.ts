import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { CatalogIndex } from '../../src/indexes/catalog-index.js';
import { Residency } from '../../src/indexes/residency.js';
import type { ShopMemory } from '../../src/indexes/shop-memory.js';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { backends } from '../helpers/backends.js';
import { turnsDuring } from '../helpers/turns.js';
import { newShop, product, shopKeys } from '../helpers/fixtures.js';

/** Loading shops on demand and evicting them under a budget, on every backend. */
describe.each(backends())('CatalogIndex on demand on $name', (backend) => {
  let store: Store;

  beforeEach(async () => {
    store = await openStore(await backend.url());
    return async () => store.close();
  });
  afterAll(() => backend.cleanup());

  /** A shop of `n` products whose ids start at `first`. */
  async function shopWith(handle: string, n: number, first = 1) {
    const shop = await store.createShop(
      newShop(handle),
      shopKeys().map((k) => k.record),
    );
    await store.upsertProducts(
      shop.id,
      Array.from({ length: n }, (_, i) => product(first + i)),
    );
    return shop.id;
  }

  /** An index whose shops may take `shops` times the estimated size of one 20-product shop. */
  async function indexHolding(shops: number) {
    const probe = new CatalogIndex(store);
    const sample = await shopWith('probe', 20, 9000);
    await probe.ensure(sample);
    const one = probe.residency.shopBytes(sample);
    const residency = new Residency({ budgetBytes: Infinity, allowanceBytes: Math.floor(one * (shops + 0.5)) });
    return new CatalogIndex(store, residency);
  }

  it("gives the other shops' requests turns of the event loop while a shop loads", async () => {
    const index = new CatalogIndex(store);
    const shopId = await shopWith('turns', 30);
    const turns = await turnsDuring(() => index.ensure(shopId));
    // Read at once, a small shop's parts were one stretch of the event loop (no turn in between on SQLite).
    expect(turns).toBeGreaterThanOrEqual(2);
    expect(index.get(shopId)?.products.size).toBe(30);
  });

  it('loads a shop on its first request only, once however many requests wait for it', async () => {
    const a = await shopWith('a', 3);
    const index = new CatalogIndex(store);
    expect(index.get(a)).toBeUndefined();
    const [first, second, third] = await Promise.all([index.ensure(a), index.ensure(a), index.ensure(a)]);
    expect(first!.products.size).toBe(3);
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(index.residency.loads).toBe(1);
    expect(index.residency.residentShops).toBe(1);
    expect(index.residency.estimatedBytes()).toBeGreaterThan(0);
    expect(await index.ensure(424242)).toBeUndefined();
  });

  it('evicts the shop requested least when over the budget, and reads it fresh on its next request', async () => {
    const index = await indexHolding(2);
    const [a, b, c] = [await shopWith('a', 20), await shopWith('b', 20), await shopWith('c', 20)];
    /** A storefront request: the shop held while it is answered. */
    const request = async (shopId: number) => {
      const held = index.hold(shopId);
      await held.ready;
      held.release();
    };
    await request(a);
    await request(b);
    await request(a); // a is now requested more than b, and more recently
    await index.ensure(b); // a read that is no request (an admin call) makes b recent, not used more
    await request(c);
    expect(index.get(b)).toBeUndefined();
    expect(index.get(a)).toBeDefined();
    expect(index.get(c)).toBeDefined();
    expect(index.residency.evictions).toBe(1);

    // A write while b is out of memory costs nothing now and is there when b comes back.
    await store.upsertProducts(b, [product(500)]);
    await index.apply(b, { products: [500] });
    expect(index.get(b)).toBeUndefined();
    expect((await index.ensure(b))!.products.has(500)).toBe(true);
    // c was requested once and a twice: c goes, though a is the least recently used.
    expect(index.get(c)).toBeUndefined();
    expect(index.get(a)).toBeDefined();
    expect(index.residency.loads).toBe(4);
    // The next to be evicted first: a and b count two requests each (b's first one before its eviction),
    // and of the two a is the least recently used.
    expect(index.listResident().map((s) => s.id)).toEqual([a, b]);
  });

  it('never evicts a shop a request is holding', async () => {
    const index = await indexHolding(1);
    const [a, b] = [await shopWith('a', 20), await shopWith('b', 20)];
    const held = index.hold(a);
    await held.ready;
    await index.ensure(b);
    expect(index.get(a)).toBeDefined();
    held.release();
    held.release(); // a second release does not free someone else's pin
    const other = index.hold(b);
    await index.ensure(await shopWith('c', 20));
    expect(index.get(a)).toBeUndefined();
    expect(index.get(b)).toBeDefined();
    other.release();
  });

  it('tells every registered holder of an eviction and counts its bytes', async () => {
    const index = await indexHolding(1);
    const evicted: number[] = [];
    const resident: number[] = [];
    const model: ShopMemory = {
      bytes: () => 10,
      evict: (shopId) => evicted.push(shopId),
      onResident: (shopId) => resident.push(shopId),
    };
    index.residency.register(model);
    const [a, b] = [await shopWith('a', 20), await shopWith('b', 20)];
    await index.ensure(a);
    expect(index.residency.shopBytes(a)).toBe(index.bytes(a) + 10);
    await index.ensure(b);
    expect(resident).toEqual([a, b]);
    expect(evicted).toEqual([a]);
    // The catalog is a holder too, but the load itself: it has no residency hook to run at each load
    // (its listing of resident shops was one by name once, and ran over every shop at every load).
    expect((index as ShopMemory).onResident).toBeUndefined();
  });

  it('loads at most two shops at a time however many are asked for, and every request gets its shop', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push(await shopWith(`s${i}`, 30, 100 * i + 1));
    let inFlight = 0;
    let most = 0;
    let calls = 0;
    const held: (() => void)[] = [];
    // Each load's product read waits for a second one (a load reads one page here), then both go on
    // after a few turns of the event loop: time enough for a third load to start, were it allowed to.
    const slowStore: Store = Object.create(store);
    slowStore.listServedProducts = async (shopId, options) => {
      most = Math.max(most, ++inFlight);
      calls++;
      if (inFlight >= 2 || calls === ids.length) {
        for (let turn = 0; turn < 10; turn++) await new Promise((r) => setImmediate(r));
        for (const release of held.splice(0)) release();
      } else {
        await new Promise<void>((resolve) => held.push(resolve));
      }
      inFlight--;
      return store.listServedProducts(shopId, options);
    };
    const index = new CatalogIndex(slowStore);
    const catalogs = await Promise.all(ids.map((id) => index.ensure(id)));
    expect(catalogs.map((c) => c!.products.size)).toEqual([30, 30, 30, 30, 30, 30]);
    expect(most).toBe(2);
  });

  it('rebuilds resident shops another node wrote to and ignores the others', async () => {
    const index = new CatalogIndex(store);
    const [a, b] = [await shopWith('a', 2), await shopWith('b', 2)];
    await index.ensure(a);
    await store.upsertProducts(a, [product(7)]);
    await store.upsertProducts(b, [product(8)]);
    expect(await index.refreshStale()).toBe(1);
    expect(index.get(a)!.products.has(7)).toBe(true);
    expect(index.get(b)).toBeUndefined();
  });

  it("patches nothing when a rebuild told of the write ran before the write's own patch", async () => {
    const index = new CatalogIndex(store);
    const a = await shopWith('rebuilt-first', 2);
    await index.ensure(a);
    await store.upsertProducts(a, [product(7)]);
    const version = (await store.getShopById(a))!.data_version;
    await index.refreshShop(a, version);
    const rebuilt = index.get(a)!;
    expect(rebuilt.products.has(7)).toBe(true);
    await index.apply(a, { products: [7] });
    // The same generation: neither patched again nor, taking the version for another node's write, rebuilt.
    expect(index.get(a)).toBe(rebuilt);
  });

  it("reads a write's customers back in pages, every one of them", async () => {
    const index = new CatalogIndex(store);
    const a = await shopWith('many-customers', 1);
    await index.ensure(a);
    // Past one page of 20,000: the last customers come from the second page.
    const customers = Array.from({ length: 20_005 }, (_, i) => ({ id: i + 1, email: null, tags: [] as string[] }));
    customers[20_004]!.tags = ['last'];
    await store.upsertCustomers(a, customers);
    await index.apply(a, { customers: true });
    expect(index.get(a)!.customers.size).toBe(20_005);
    expect(index.get(a)!.customers.get(20_005)?.tags).toEqual(['last']);
  });

  it("builds nothing more for a write it was told of while the write's own patch waited", async () => {
    const index = new CatalogIndex(store);
    const a = await shopWith('told', 2);
    await index.ensure(a);
    const collections = index.get(a)!.collections;
    await store.upsertProducts(a, [product(7)]);
    const version = (await store.getShopById(a))!.data_version;
    // The commit is seen (by a poll, or a message) before the patch ran: the rebuild is queued behind it.
    const patched = index.apply(a, { products: [7] });
    const told = index.refreshShop(a, version);
    await Promise.all([patched, told]);
    expect(index.get(a)!.products.has(7)).toBe(true);
    expect(index.get(a)!.version).toBe(version);
    // A patch keeps the parts it did not change; a rebuild would have read them all again.
    expect(index.get(a)!.collections).toBe(collections);
  });

  it("reads a large write's products back in pages, a turn of the event loop between them", async () => {
    const index = new CatalogIndex(store);
    const a = await shopWith('large-write', 1);
    await index.ensure(a);
    const written = Array.from({ length: 2_500 }, (_, i) => product(100 + i));
    await store.upsertProducts(a, written);
    const turns = await turnsDuring(() => index.apply(a, { products: written.map((p) => p.id).reverse() }));
    // Pages of 1,000: two turns between three reads. Read at once, on SQLite, the patch was one stretch.
    expect(turns).toBeGreaterThanOrEqual(2);
    expect(index.get(a)!.products.size).toBe(2_501);
    expect(index.get(a)!.products.get(2_599)?.id).toBe(2_599);
  });
});
