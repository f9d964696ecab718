import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { backends } from '../helpers/backends.js';
import { newShop, shopKeys } from '../helpers/fixtures.js';
import { widgetInput } from '../helpers/widgets.js';

/** Widget storage, the same contract on every backend. */
describe.each(backends())('widget store on $name', (backend) => {
  let store: Store;

  beforeEach(async () => {
    store = await openStore(await backend.url());
    return async () => store.close();
  });
  afterAll(() => backend.cleanup());

  const shop = (handle: string) =>
    store.createShop(
      newShop(handle),
      shopKeys().map((k) => k.record),
    );

  it('creates, reads, replaces (moving the version) and deletes widgets per shop', async () => {
    const a = await shop('a');
    const b = await shop('b');
    const first = await store.createWidget(a.id, widgetInput());
    const second = await store.createWidget(
      a.id,
      widgetInput({ name: 'Cart', placement: 'cart', source: { ruleset_id: 3 } }),
    );
    expect(first).toMatchObject({
      id: 1,
      version: 1,
      name: 'Product page',
      source: { list: 'trending_products', limit: 8 },
    });
    expect(second).toMatchObject({ id: 2, source: { ruleset_id: 3 } });
    expect((await store.createWidget(b.id, widgetInput())).id).toBe(1);

    const updated = await store.updateWidget(
      a.id,
      1,
      widgetInput({ layout: 'carousel', style: { accent: '#112233', text: null, font: 'Georgia' } }),
    );
    expect(updated).toMatchObject({
      id: 1,
      version: 2,
      layout: 'carousel',
      style: { accent: '#112233', font: 'Georgia' },
    });
    expect(await store.getWidget(a.id, 1)).toEqual(updated);
    expect(await store.updateWidget(a.id, 99, widgetInput())).toBeNull();

    expect((await store.listWidgets(a.id)).map((w) => w.name)).toEqual(['Product page', 'Cart']);
    expect(await store.deleteWidget(a.id, 1)).toBe(true);
    expect(await store.deleteWidget(a.id, 1)).toBe(false);
    expect(await store.getWidget(a.id, 1)).toBeNull();
    expect((await store.listWidgets(b.id)).length).toBe(1);
  });

  it("moves the shop's data version on every write, so cached widget answers are not served stale", async () => {
    const a = await shop('a');
    const version = async () => (await store.getShopById(a.id))!.data_version;
    const start = await version();
    await store.createWidget(a.id, widgetInput());
    expect(await version()).toBe(start + 1);
    await store.updateWidget(a.id, 1, widgetInput({ title: 'New' }));
    expect(await version()).toBe(start + 2);
    await store.deleteWidget(a.id, 1);
    expect(await version()).toBe(start + 3);
  });

  it("goes with its shop when the shop's data is deleted (a platform's shop/redact)", async () => {
    const a = await shop('a');
    const b = await shop('b');
    await store.createWidget(a.id, widgetInput());
    await store.createWidget(b.id, widgetInput());
    await store.deleteShopData(a.id);
    expect(await store.listWidgets(a.id)).toEqual([]);
    expect(await store.listWidgets(b.id)).toHaveLength(1);
  });
});
