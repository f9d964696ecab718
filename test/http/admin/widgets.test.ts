import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { productInput } from '../../helpers/fixtures.js';
import { widgetInput } from '../../helpers/widgets.js';

describe.each(backends())('widgets as data on $name', (backend) => {
  let t: TestApp;
  let key: string;
  const base = '/admin/v1/shops/wd/widgets';

  beforeAll(async () => {
    t = await startApp(backend);
    key = (await t.createShop('wd')).public;
    await t.admin(
      'PUT',
      '/admin/v1/shops/wd/products',
      [1, 2, 3, 4, 5].map((id) => productInput(id)),
    );
    await t.admin('POST', '/admin/v1/shops/wd/rulesets', {
      name: 'Pair',
      rules: [{ logic: [], output: [{ type: 'product', products: [{ product_id: 2 }, { product_id: 3 }] }] }],
    });
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  it('creates, lists, replaces and deletes a widget in the shape of the spec', async () => {
    const created = await t.admin('POST', base, widgetInput());
    expect(created.statusCode, created.body).toBe(201);
    const widget = created.json().widget;
    expect(widget).toMatchObject({ ...widgetInput(), version: 1 });
    expect((await t.admin('GET', base)).json().data).toHaveLength(1);
    const replaced = await t.admin(
      'PUT',
      `${base}/${widget.id}`,
      widgetInput({ source: { ruleset_id: 1 }, layout: 'carousel' }),
    );
    expect(replaced.json().widget).toMatchObject({
      id: widget.id,
      version: 2,
      source: { ruleset_id: 1 },
      layout: 'carousel',
    });
    expect((await t.admin('GET', `${base}/${widget.id}`)).json().widget.version).toBe(2);
    expect((await t.admin('DELETE', `${base}/${widget.id}`)).statusCode).toBe(204);
    expect((await t.admin('GET', `${base}/${widget.id}`)).statusCode).toBe(404);
  });

  it('refuses a source that does not exist and a design out of bounds, naming the field', async () => {
    const ruleset = await t.admin('POST', base, widgetInput({ source: { ruleset_id: 99 } }));
    expect(ruleset.statusCode).toBe(422);
    expect(ruleset.json().field).toBe('source.ruleset_id');
    const list = await t.admin('POST', base, widgetInput({ source: { list: 'no_such_list', limit: 4 } }));
    expect(list.json().field).toBe('source.list');
    // Its limit left out too: both are told at once, the list first.
    const both = await t.admin('POST', base, { ...widgetInput(), source: { list: 'no_such_list' } });
    expect(both.statusCode).toBe(422);
    expect(both.json().problems.map((p: { path: string }) => p.path)).toEqual(['source.list', 'source.limit']);
    expect(both.json().error).toContain('unknown list "no_such_list"');
    // A list whose parameters a widget's page never sends would always render nothing.
    const search = await t.admin('POST', base, widgetInput({ source: { list: 'search', limit: 4 } }));
    expect(search.statusCode).toBe(422);
    expect(search.json().field).toBe('source.list');
    expect(search.json().error).toContain('a query');
    // A list asked for too many products: the field is the limit, not the source as a whole.
    const limit = await t.admin('POST', base, widgetInput({ source: { list: 'top_sellers', limit: 500 } }));
    expect(limit.statusCode).toBe(422);
    expect(limit.json().field).toBe('source.limit');
    expect(limit.json().error).toContain('100');
    const cards = await t.admin('POST', base, widgetInput({ cards: 13 }));
    expect(cards.statusCode).toBe(422);
    expect(cards.json().field).toBe('cards');
    const colour = await t.admin('POST', base, widgetInput({ style: { accent: 'red', text: null, font: null } }));
    expect(colour.json().field).toBe('style.accent');
  });

  it('serves the design publicly with an ETag, and a change shows on the next request', async () => {
    const id = (await t.admin('POST', base, widgetInput({ title: 'First' }))).json().widget.id;
    const first = await t.app.inject(`/api/v1/widgets/${id}?key=${key}`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().widget).toMatchObject({ id, title: 'First', version: 1 });
    expect(first.json().widget.created_at).toBeUndefined();
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const again = await t.app.inject({ url: `/api/v1/widgets/${id}?key=${key}`, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);

    await t.admin('PUT', `${base}/${id}`, widgetInput({ title: 'Second' }));
    const changed = await t.app.inject({ url: `/api/v1/widgets/${id}?key=${key}`, headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().widget.title).toBe('Second');
    expect(changed.headers.etag).not.toBe(etag);
    expect((await t.app.inject(`/api/v1/widgets/999?key=${key}`)).statusCode).toBe(404);
    expect((await t.app.inject(`/api/v1/widgets/${id}`)).statusCode).toBe(400);
  });

  it('previews the products a design shows, as the storefront would get them', async () => {
    const ruleset = await t.admin('POST', `${base}/preview`, widgetInput({ source: { ruleset_id: 1 } }));
    expect(ruleset.statusCode, ruleset.body).toBe(200);
    expect(ruleset.json().data.map((p: { id: number }) => p.id)).toEqual([2, 3]);
    expect(ruleset.json().metadata.source).toBe('ruleset:1:v1');
    const list = await t.admin('POST', `${base}/preview`, widgetInput({ source: { list: 'top_sellers', limit: 2 } }));
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().metadata.source).toBe('list:top_sellers');
  });

  it("previews a list that needs the page's context with that context in the query, as the page sends it", async () => {
    const similar = widgetInput({ source: { list: 'similar_products', limit: 3 } });
    const product = await t.admin('POST', `${base}/preview?shop_product_ids=2`, similar);
    expect(product.statusCode, product.body).toBe(200);
    const page = await t.app.inject(`/api/v1/products/similar_products?key=${key}&shop_product_ids=2&limit=3`);
    expect(page.json().data.length).toBeGreaterThan(0);
    const ids = (answer: { json(): { data: { id: number }[] } }) => answer.json().data.map((p) => p.id);
    expect(ids(product)).toEqual(ids(page));
    // Without it, the answer names what the page would have sent, and where the preview takes it.
    const bare = await t.admin('POST', `${base}/preview`, similar);
    expect(bare.statusCode).toBe(400);
    expect(bare.json()).toMatchObject({ code: 'missing_parameter', parameter: 'shop_product_ids' });
    const forYou = widgetInput({ source: { list: 'for_you', limit: 3 } });
    expect((await t.admin('POST', `${base}/preview?shop_customer_id=7`, forYou)).statusCode).toBe(200);
    // The design says how many: a limit in the query would preview a widget the storefront never shows.
    const limited = await t.admin('POST', `${base}/preview?shop_product_ids=2&limit=9`, similar);
    expect(limited.statusCode).toBe(400);
    expect(limited.json().parameter).toBe('limit');
    // A misspelt context would preview a page the merchant did not mean.
    const misspelt = await t.admin('POST', `${base}/preview?shop_product_id=2`, similar);
    expect(misspelt.json()).toMatchObject({ code: 'invalid_parameter', parameter: 'shop_product_id' });
    const bad = await t.admin('POST', `${base}/preview?shop_product_ids=x`, similar);
    expect(bad.json()).toMatchObject({ code: 'invalid_parameter', parameter: 'shop_product_ids' });
  });

  it('keeps a ruleset a widget shows, and refuses a disabled one as a source', async () => {
    const shown = await t.admin('POST', '/admin/v1/shops/wd/rulesets', {
      name: 'Shown',
      rules: [{ logic: [], output: [{ type: 'product', products: [{ product_id: 4 }] }] }],
    });
    const rulesetId = shown.json().ruleset.id;
    const widget = (await t.admin('POST', base, widgetInput({ source: { ruleset_id: rulesetId } }))).json().widget;
    const refused = await t.admin('DELETE', `/admin/v1/shops/wd/rulesets/${rulesetId}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'conflict',
      error: expect.stringContaining(`widget ${widget.id} “${widget.name}”`),
    });
    expect((await t.admin('GET', `/admin/v1/shops/wd/rulesets/${rulesetId}`)).statusCode).toBe(200);

    await t.admin('PUT', `/admin/v1/shops/wd/rulesets/${rulesetId}`, { ...shown.json().ruleset, enabled: false });
    expect((await t.app.inject(`/api/v1/custom/id/${rulesetId}?key=${key}`)).statusCode).toBe(404);
    // The preview and a new design say so, as the storefront shows nothing from it.
    for (const path of [`${base}/preview`, base]) {
      const refusedNow = await t.admin('POST', path, widgetInput({ source: { ruleset_id: rulesetId } }));
      expect(refusedNow.statusCode).toBe(422);
      expect(refusedNow.json()).toMatchObject({
        field: 'source.ruleset_id',
        error: expect.stringContaining('disabled'),
      });
    }

    expect((await t.admin('DELETE', `${base}/${widget.id}`)).statusCode).toBe(204);
    expect((await t.admin('DELETE', `/admin/v1/shops/wd/rulesets/${rulesetId}`)).statusCode).toBe(204);
  });

  it("previews a ruleset in an experiment as the page's visitor gets it, the first arm without one", async () => {
    const make = async (name: string, product: number) =>
      (
        await t.admin('POST', '/admin/v1/shops/wd/rulesets', {
          name,
          rules: [{ logic: [], output: [{ type: 'product', products: [{ product_id: product }] }] }],
        })
      ).json().ruleset.id as number;
    const [own, challenger] = [await make('Own', 4), await make('Challenger', 5)];
    const design = widgetInput({ source: { ruleset_id: own } });
    const same = async (visitor = '') => {
      const preview = (await t.admin('POST', `${base}/preview${visitor && `?${visitor}`}`, design)).json();
      const page = (await t.app.inject(`/api/v1/custom/id/${own}?key=${key}&limit=${design.cards}&${visitor}`)).json();
      expect(preview.data.map((p: { id: number }) => p.id)).toEqual(page.data.map((p: { id: number }) => p.id));
      expect(preview.metadata.source).toBe(page.metadata.source);
      return preview.data.map((p: { id: number }) => p.id);
    };
    const experiment = await t.admin('POST', '/admin/v1/shops/wd/experiments', {
      name: 'Own or challenger',
      ruleset_id: own,
      arms: [
        { name: 'challenger', ruleset_id: challenger, weight: 1 },
        { name: 'own', ruleset_id: own, weight: 1 },
      ],
    });
    expect(experiment.statusCode, experiment.body).toBe(201);
    expect(await same()).toEqual([5]);
    // A page's visitor gets their own arm, in the preview as on the storefront: both arms among a few visitors.
    const served = new Set<number>();
    for (let n = 1; n <= 12; n++) {
      const uuid = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
      for (const id of await same(n % 2 ? `uuid=${uuid}` : `shop_customer_id=${n}`)) served.add(id);
    }
    expect([...served].sort()).toEqual([4, 5]);
    const id = experiment.json().experiment.id;
    await t.admin('POST', `/admin/v1/shops/wd/experiments/${id}/stop`, { winner: 'own' });
    expect(await same()).toEqual([4]);
  });
});
