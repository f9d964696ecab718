import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ConflictError } from '../../src/domain/errors.js';
import { hashKey } from '../../src/domain/keys.js';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { backends } from '../helpers/backends.js';
import { BIG, newShop, product, shopKeys, storeEvent, totalRows } from '../helpers/fixtures.js';

/** The storage contract, written once, run on every backend. */
describe.each(backends())('Store on $name', (backend) => {
  let store: Store;
  let url: string;

  beforeEach(async () => {
    url = await backend.url();
    store = await openStore(url);
    return async () => store.close();
  });
  afterAll(() => backend.cleanup());

  async function shop(handle = 'acme') {
    return store.createShop(
      newShop(handle),
      shopKeys().map((k) => k.record),
    );
  }

  it('migrates idempotently', async () => {
    await store.migrate();
    await store.migrate();
    expect(await store.listShops()).toEqual([]);
  });

  it('keeps the first value of a setting across writers', async () => {
    expect(await store.putSettingIfAbsent('k', 'first')).toBe('first');
    expect(await store.putSettingIfAbsent('k', 'second')).toBe('first');
    await store.putSetting('k', 'third');
    expect(await store.getSetting('k')).toBe('third');
    expect(await store.getSetting('missing')).toBeNull();
  });

  it('creates shops with sequential ids and refuses a taken handle', async () => {
    const a = await shop('a');
    const b = await shop('b');
    expect(b.id).toBe(a.id + 1);
    expect(a).toMatchObject({ handle: 'a', timezone: 'UTC', scopes: ['read_markets'], data_version: 1 });
    await expect(shop('a')).rejects.toBeInstanceOf(ConflictError);
    expect((await store.listShops()).map((s) => s.handle)).toEqual(['a', 'b']);
    expect(await store.getShopByHandle('b')).toMatchObject({ id: b.id });
    expect(await store.getShopById(9999)).toBeNull();
  });

  it('moves the data version on shop updates', async () => {
    const a = await shop();
    const updated = await store.updateShop(a.id, { timezone: 'Europe/Berlin', scopes: [] });
    expect(updated).toMatchObject({ timezone: 'Europe/Berlin', scopes: [], data_version: 2 });
    expect(await store.listShopVersions()).toEqual([{ id: a.id, data_version: 2 }]);
  });

  it('stores keys hashed, rotates them with a grace period, and moves the keys version', async () => {
    const keys = shopKeys();
    const a = await store.createShop(
      newShop('a'),
      keys.map((k) => k.record),
    );
    const live = await store.listLiveApiKeys(Date.now());
    expect(live.map((k) => k.key_hash).sort()).toEqual(keys.map((k) => hashKey(k.plain)).sort());
    expect(live.every((k) => k.shop_id === a.id && k.expires_at === null)).toBe(true);
    const before = await store.keysVersion();

    const fresh = shopKeys().map((k) => ({ ...k.record, shop_id: a.id }));
    const now = Date.now();
    const graceUntil = now + 60_000;
    await store.rotateApiKeys(a.id, fresh, { now, graceUntil, endNowHash: null });
    expect(await store.keysVersion()).not.toBe(before);
    const afterRotation = await store.listLiveApiKeys(now);
    expect(afterRotation).toHaveLength(4);
    expect(afterRotation.filter((k) => k.expires_at === graceUntil)).toHaveLength(2);
    expect(await store.listLiveApiKeys(graceUntil + 1)).toHaveLength(2);

    // A second rotation ends the first generation's grace at once, and the asking key with it.
    const third = shopKeys().map((k) => ({ ...k.record, shop_id: a.id }));
    const asking = fresh.find((k) => k.kind === 'private')!.key_hash;
    await store.rotateApiKeys(a.id, third, { now: now + 1, graceUntil: now + 120_000, endNowHash: asking });
    const survivors = await store.listLiveApiKeys(now + 2);
    expect(survivors.map((k) => k.key_hash).sort()).toEqual(
      [...third.map((k) => k.key_hash), fresh.find((k) => k.kind === 'public')!.key_hash].sort(),
    );
  });

  it("revokes a shop's live key by its hash at once, and lists every key of a shop", async () => {
    const keys = shopKeys();
    const a = await store.createShop(
      newShop('revoking'),
      keys.map((k) => k.record),
    );
    const other = await store.createShop(
      newShop('untouched'),
      shopKeys().map((k) => ({ ...k.record, key_prefix: keys[0]!.record.key_prefix })),
    );
    const before = await store.keysVersion();
    const now = Date.now();
    expect(await store.revokeApiKeys(a.id, keys[0]!.record.key_hash, now)).toBe(1);
    expect(await store.keysVersion()).not.toBe(before);
    expect(await store.revokeApiKeys(a.id, keys[0]!.record.key_hash, now + 1)).toBe(0); // already ended
    const live = (await store.listLiveApiKeys(now + 1)).map((k) => k.shop_id);
    expect(live.filter((id) => id === a.id)).toHaveLength(1);
    expect(live.filter((id) => id === other.id)).toHaveLength(2); // the same prefix elsewhere is another shop's
    expect((await store.listShopKeys(a.id)).map((k) => k.expires_at)).toContain(now);
  });

  it('upserts products idempotently by id, with large ids, and replaces variants', async () => {
    const a = await shop();
    await store.upsertProducts(a.id, [product(BIG + 1), product(BIG + 2)]);
    await store.upsertProducts(a.id, [product(BIG + 1), product(BIG + 2)]);
    expect(await store.countProducts(a.id)).toBe(2);
    const [first] = await store.listProducts(a.id, { ids: [BIG + 1] });
    expect(first).toEqual(product(BIG + 1));

    const oneVariant = product(BIG + 1, { title: 'Renamed', variants: [{ id: (BIG + 1) * 10 + 1, price: '9.00' }] });
    await store.upsertProducts(a.id, [oneVariant]);
    const [renamed] = await store.listProducts(a.id, { ids: [BIG + 1] });
    expect(renamed?.title).toBe('Renamed');
    expect(renamed?.variants.map((v) => v.id)).toEqual([(BIG + 1) * 10 + 1]);
    const owners = await store.findVariantProducts(a.id, [(BIG + 1) * 10 + 1, (BIG + 1) * 10 + 2]);
    expect([...owners.entries()]).toEqual([[(BIG + 1) * 10 + 1, BIG + 1]]);
  });

  it('looks up thousands of ids and handles a batch at a time, between turns of the event loop', async () => {
    const a = await shop();
    const stored = Array.from({ length: 50 }, (_, i) => product(BIG + i));
    await store.upsertProducts(a.id, stored);
    // 6,000 asked for, 50 of them stored: the answer is the same, found in three statements with turns between.
    const asked = Array.from({ length: 6000 }, (_, i) => BIG + i);
    let turns = 0;
    let counting = true;
    const tick = () => {
      if (!counting) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const [existing, handles, owners] = await Promise.all([
      store.findExistingProductIds(a.id, asked),
      store.findProductIdsByHandle(
        a.id,
        asked.map((id) => product(id).handle),
      ),
      store.findVariantProducts(
        a.id,
        asked.map((id) => id * 10 + 1),
      ),
    ]);
    counting = false;
    expect([...existing].sort()).toEqual(stored.map((p) => p.id));
    expect(handles.size).toBe(50);
    expect(owners.get((BIG + 3) * 10 + 1)).toBe(BIG + 3);
    // On SQLite every statement resolves at once: without the batches' turns, the ticks never ran.
    expect(turns).toBeGreaterThanOrEqual(2);
  });

  it('pages products in id order and keeps shops apart', async () => {
    const a = await shop('a');
    const b = await shop('b');
    await store.upsertProducts(a.id, [product(3), product(1), product(2)]);
    await store.upsertProducts(b.id, [product(4)]);
    expect((await store.listProducts(a.id)).map((p) => p.id)).toEqual([1, 2, 3]);
    expect((await store.listProducts(a.id, { afterId: 1, limit: 1 })).map((p) => p.id)).toEqual([2]);
    expect((await store.listProducts(b.id)).map((p) => p.id)).toEqual([4]);
    expect(await store.findExistingProductIds(b.id, [1, 4])).toEqual(new Set([4]));
    expect(await store.deleteProduct(b.id, 1)).toBe(false);
    expect(await store.countProducts(a.id)).toBe(3);
  });

  it('deletes a product with its variants and memberships', async () => {
    const a = await shop();
    await store.upsertProducts(a.id, [product(1), product(2)]);
    await store.upsertCollections(a.id, [
      {
        id: 9,
        title: 'C',
        handle: 'c',
        updated_at: '2026-01-01T00:00:00.000Z',
        products: [
          { product_id: 1, position: 1 },
          { product_id: 2, position: 2 },
        ],
      },
    ]);
    expect(await store.deleteProduct(a.id, 1)).toBe(true);
    expect((await store.listProducts(a.id)).map((p) => p.id)).toEqual([2]);
    expect((await store.findVariantProducts(a.id, [11, 21])).size).toBe(1);
    expect((await store.listCollections(a.id))[0]?.products).toEqual([{ product_id: 2, position: 2 }]);
  });

  it('sets inventory and keeps the previous quantity', async () => {
    const a = await shop();
    await store.upsertProducts(a.id, [product(1)]);
    const version = (await store.getShopById(a.id))!.data_version;
    await store.setInventory(a.id, [{ variant_id: 11, inventory_quantity: -3 }]);
    const [p] = await store.listProducts(a.id);
    expect(p?.variants[0]).toMatchObject({ inventory_quantity: -3, old_inventory_quantity: 5 });
    expect((await store.getShopById(a.id))!.data_version).toBe(version + 1);
  });

  it('replaces collection membership and lists it in position order', async () => {
    const a = await shop();
    await store.upsertProducts(a.id, [product(1), product(2), product(3)]);
    const base = { id: 5, title: 'Summer', handle: 'summer', updated_at: '2026-01-01T00:00:00.000Z' };
    await store.upsertCollections(a.id, [
      {
        ...base,
        products: [
          { product_id: 1, position: 3 },
          { product_id: 2, position: 1 },
        ],
      },
    ]);
    await store.upsertCollections(a.id, [
      {
        ...base,
        title: 'Hot',
        products: [
          { product_id: 3, position: 2 },
          { product_id: 1, position: 1 },
        ],
      },
    ]);
    expect(await store.listCollections(a.id)).toEqual([
      {
        ...base,
        title: 'Hot',
        products: [
          { product_id: 1, position: 1 },
          { product_id: 3, position: 2 },
        ],
      },
    ]);
  });

  it('writes nothing of a request that fails half-way', async () => {
    const a = await shop();
    await store.upsertProducts(a.id, [product(1)]);
    const version = (await store.getShopById(a.id))!.data_version;
    const ok = {
      id: 1,
      title: 'A',
      handle: 'a',
      updated_at: '2026-01-01T00:00:00.000Z',
      products: [{ product_id: 1, position: 1 }],
    };
    // The same product twice in one membership breaks the primary key of the second collection.
    const broken = {
      id: 2,
      title: 'B',
      handle: 'b',
      updated_at: '2026-01-01T00:00:00.000Z',
      products: [
        { product_id: 1, position: 1 },
        { product_id: 1, position: 2 },
      ],
    };
    await expect(store.upsertCollections(a.id, [ok, broken])).rejects.toThrow();
    expect(await store.listCollections(a.id)).toEqual([]);
    expect((await store.getShopById(a.id))!.data_version).toBe(version);
  });

  it('round-trips customers and markets', async () => {
    const a = await shop();
    await store.upsertCustomers(a.id, [
      { id: BIG, email: 'a@example.com', tags: ['vip'] },
      { id: 2, email: null, tags: [] },
    ]);
    await store.upsertCustomers(a.id, [{ id: 2, email: 'b@example.com', tags: ['new'] }]);
    expect(await store.listCustomers(a.id)).toEqual([
      { id: 2, email: 'b@example.com', tags: ['new'] },
      { id: BIG, email: 'a@example.com', tags: ['vip'] },
    ]);
    const market = {
      id: 1,
      name: 'EU',
      position: 2,
      active: true,
      countries: ['DE'],
      currency: 'EUR',
      price_adjustment_percent: 10,
      fixed_prices: [],
      product_ids: null,
    };
    await store.upsertMarkets(a.id, [market, { ...market, id: 2, position: 1, product_ids: [1] }]);
    expect((await store.listMarkets(a.id)).map((m) => m.id)).toEqual([2, 1]);
  });

  it('stores orders, replaces their lines, and never lists cancelled ones', async () => {
    const a = await shop();
    const t = Date.parse('2026-03-01T12:00:00Z');
    await store.upsertOrders(a.id, [
      {
        id: 1,
        customer_id: 7,
        created_at: t,
        cancelled_at: null,
        updated_at: t,
        lines: [{ product_id: 1, variant_id: 11, quantity: 2, price: '10.00' }],
      },
      {
        id: 2,
        customer_id: null,
        created_at: t + 1000,
        cancelled_at: t + 2000,
        updated_at: t,
        lines: [{ product_id: 2, variant_id: null, quantity: 1, price: '5.00' }],
      },
      {
        id: 3,
        customer_id: null,
        created_at: t - 86_400_000,
        cancelled_at: null,
        updated_at: t,
        lines: [{ product_id: 3, variant_id: null, quantity: 1, price: '5.00' }],
      },
    ]);
    expect(await store.listOrderLines(a.id, t)).toEqual([
      { order_id: 1, product_id: 1, variant_id: 11, quantity: 2, price: '10.00', customer_id: 7, created_at: t },
    ]);
    await store.upsertOrders(a.id, [
      {
        id: 1,
        customer_id: 7,
        created_at: t,
        cancelled_at: null,
        updated_at: t,
        lines: [
          { product_id: 4, variant_id: null, quantity: 1, price: '1.00' },
          { product_id: 5, variant_id: null, quantity: 3, price: '2.00' },
        ],
      },
    ]);
    expect((await store.listOrderLines(a.id, 0)).map((l) => l.product_id)).toEqual([3, 4, 5]);
    expect(await store.countOrders(a.id)).toBe(3);
  });

  it("sums a shop's event counts in the code-unit order of the handles, whatever the collation", async () => {
    const a = await shop('a');
    const t = Date.parse('2026-11-20T12:00:00Z');
    const handles = ['b-tee', 'B-cap', 'a-mug', 'é-hat', 'Z-bag'];
    await store.appendEvents(handles.map((handle) => storeEvent(a.id, 'viewed', handle, t)));
    // What a load merges without sorting: in a collation of letters (en_US) the order would be a, B, b, é, Z.
    expect((await store.sumEventCounts(a.id, 20261101)).handles).toEqual(['B-cap', 'Z-bag', 'a-mug', 'b-tee', 'é-hat']);
  });

  it('keeps everything across a restart', async () => {
    const a = await shop();
    await store.upsertProducts(a.id, [product(1)]);
    await store.close();
    store = await openStore(url);
    expect((await store.listProducts(a.id)).map((p) => p.id)).toEqual([1]);
    expect(await store.getShopByHandle('acme')).toMatchObject({ id: a.id });
  });

  it('appends events atomically with sequential ids per shop and per-day counts', async () => {
    const a = await shop('a');
    const b = await shop('b');
    const t = Date.parse('2026-11-20T23:59:00Z');
    await store.appendEvents([
      storeEvent(a.id, 'viewed', 'x', t),
      storeEvent(b.id, 'viewed', 'x', t),
      storeEvent(a.id, 'added', 'x', t + 120_000),
      storeEvent(a.id, 'viewed', 'y', t, 'u2', 9),
    ]);
    await store.appendEvents([storeEvent(a.id, 'viewed', 'y', t + 1000)]);
    const all = await store.listEvents(a.id, { limit: 10 });
    expect(all.map((e) => e.id)).toEqual([4, 3, 2, 1]);
    expect(all[0]).toMatchObject({ handle: 'y', uuid: 'u1', created_at: t + 1000 });
    expect((await store.listEvents(a.id, { uuid: 'u2', limit: 10 })).map((e) => e.customer_id)).toEqual([9]);
    expect((await store.listEvents(a.id, { customerId: 9, limit: 10 })).map((e) => e.handle)).toEqual(['y']);
    expect(await store.listEvents(b.id, { limit: 10 })).toHaveLength(1);
    expect(await store.latestViewedHandles(a.id, { uuid: 'u1' }, 10)).toEqual(['y', 'x']);
    const counts = await store.listEventCounts(a.id, 20261101);
    expect(counts.sort((p, q) => p.day - q.day || p.handle.localeCompare(q.handle))).toEqual([
      { day: 20261120, handle: 'x', views: 1, adds: 0, removes: 0 },
      { day: 20261120, handle: 'y', views: 2, adds: 0, removes: 0 },
      { day: 20261121, handle: 'x', views: 0, adds: 1, removes: 0 },
    ]);
    // What a load reads: the days from the one asked, summed per handle by the database, this shop's only.
    expect(totalRows(await store.sumEventCounts(a.id, 20261101))).toEqual([
      { handle: 'x', views: 1, adds: 1 },
      { handle: 'y', views: 2, adds: 0 },
    ]);
    expect(totalRows(await store.sumEventCounts(a.id, 20261121))).toEqual([{ handle: 'x', views: 0, adds: 1 }]);
    expect(totalRows(await store.sumEventCounts(b.id, 20261101))).toEqual([{ handle: 'x', views: 1, adds: 0 }]);
    expect(totalRows(await store.sumEventCounts(a.id, 20261122))).toEqual([]);
  });
  it('counts events per verb in fixed periods aligned on the epoch, from a time on', async () => {
    const a = await shop('a');
    const b = await shop('b');
    const t = Date.parse('2026-11-20T10:00:00Z'); // a multiple of 15 minutes
    const event = (shopId: number, verb: 'viewed' | 'added' | 'removed', at: number) =>
      storeEvent(shopId, verb, 'x', at);
    await store.appendEvents([
      event(a.id, 'viewed', t - 1), // the period before, and before `since`
      event(a.id, 'viewed', t),
      event(a.id, 'viewed', t + 899_999),
      event(a.id, 'added', t + 60_000),
      event(a.id, 'removed', t + 900_000),
      event(a.id, 'viewed', t + 86_400_000),
      event(b.id, 'viewed', t),
    ]);
    expect(await store.countEventsByPeriod(a.id, t, 900_000)).toEqual([
      { start: t, verb: 'added', count: 1 },
      { start: t, verb: 'viewed', count: 2 },
      { start: t + 900_000, verb: 'removed', count: 1 },
      { start: t + 86_400_000, verb: 'viewed', count: 1 },
    ]);
    expect(await store.countEventsByPeriod(a.id, t - 900_000, 86_400_000)).toEqual([
      { start: t - 36_000_000, verb: 'added', count: 1 },
      { start: t - 36_000_000, verb: 'removed', count: 1 },
      { start: t - 36_000_000, verb: 'viewed', count: 3 },
      { start: t + 50_400_000, verb: 'viewed', count: 1 },
    ]);
    expect(await store.countEventsByPeriod(b.id, t + 1, 900_000)).toEqual([]);
    await expect(store.countEventsByPeriod(a.id, t, 1000)).rejects.toThrow(RangeError);
  });

  it("lists a shop's campaigns and sums their counters over tracking keys", async () => {
    const a = await shop('a');
    const b = await shop('b');
    const spring = await store.createCampaign(a.id, {
      name: 'Spring',
      discount_code: 'SPRING',
      max_claims_per_customer: 1,
    });
    const fall = await store.createCampaign(a.id, { name: 'Fall', discount_code: null, max_claims_per_customer: 2 });
    await store.createCampaign(b.id, { name: 'Other', discount_code: null, max_claims_per_customer: 1 });
    expect(await store.listCampaigns(a.id)).toEqual([spring, fall]);
    expect(spring).toMatchObject({
      id: 1,
      name: 'Spring',
      discount_code: 'SPRING',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    await store.countCampaign(a.id, spring.id, 'mail-1', 'links_generated', 3);
    await store.countCampaign(a.id, spring.id, 'mail-2', 'links_generated', 2);
    await store.countCampaign(a.id, spring.id, '', 'pages_opened', 1);
    await store.countCampaign(a.id, fall.id, 'x', 'reactivations', 4);
    await store.countCampaign(b.id, 1, 'x', 'reactivations', 9);
    const totals = await store.campaignTotals(a.id);
    expect(totals.sort((p, q) => p.campaign_id - q.campaign_id || p.counter.localeCompare(q.counter))).toEqual([
      { campaign_id: spring.id, counter: 'links_generated', count: 5 },
      { campaign_id: spring.id, counter: 'pages_opened', count: 1 },
      { campaign_id: fall.id, counter: 'reactivations', count: 4 },
    ]);
    expect(await store.listCampaigns(424242)).toEqual([]);
  });
});
