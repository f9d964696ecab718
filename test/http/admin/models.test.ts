import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../helpers/backends.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { productInput } from '../../helpers/fixtures.js';

const at = (day: number) => new Date(Date.UTC(2026, 0, day)).toISOString();

describe.each(backends())('model inspection on $name', (backend) => {
  let t: TestApp;
  const similar = async (query: string) => t.admin('GET', `/admin/v1/shops/models/models/similar?${query}`);

  beforeAll(async () => {
    t = await startApp(backend);
    await t.createShop('models');
    await t.admin(
      'PUT',
      '/admin/v1/shops/models/products',
      [1, 2, 3, 4, 5].map((id) => productInput(id)),
    );
    // The hand-checked example of test/domain/models/sar.test.ts, as orders: customer A bought 1, 2, 3 (over two
    // orders), B 1 and 2, C 2 and 4; an anonymous order of 3 and 4 counts only with basis=order; a cancelled one never.
    const line = (product_id: number) => ({ product_id, quantity: 1 });
    await t.admin('PUT', '/admin/v1/shops/models/orders', [
      { id: 1, created_at: at(1), customer: { id: 100 }, line_items: [line(1), line(2)] },
      { id: 2, created_at: at(2), customer: { id: 100 }, line_items: [line(3)] },
      { id: 3, created_at: at(3), customer: { id: 200 }, line_items: [line(1), line(2)] },
      { id: 4, created_at: at(4), customer: { id: 300 }, line_items: [line(2), line(4)] },
      { id: 5, created_at: at(5), line_items: [line(3), line(4)] },
      { id: 6, created_at: at(6), customer: { id: 300 }, cancelled_at: at(7), line_items: [line(1), line(4), line(5)] },
    ]);
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  it("answers SAR neighbours with raw co-occurrences and the model's size, customers by default", async () => {
    const res = await similar('product_id=2&similarity=jaccard');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.data).toEqual([
      { product_id: 1, score: 2 / 3, co_occurrences: 2 },
      { product_id: 3, score: 1 / 3, co_occurrences: 1 },
      { product_id: 4, score: 1 / 3, co_occurrences: 1 },
    ]);
    expect(body.model).toMatchObject({ users: 3, products: 4 });
    expect(Number.isNaN(Date.parse(body.model.built_at))).toBe(false);
  });

  it('follows similarity, threshold, basis and limit', async () => {
    expect((await similar('product_id=1&similarity=lift')).json().data).toEqual([
      { product_id: 3, score: 1 / 2, co_occurrences: 1 },
      { product_id: 2, score: 1 / 3, co_occurrences: 2 },
    ]);
    expect((await similar('product_id=2&similarity=count&support_threshold=2')).json().data).toEqual([
      { product_id: 1, score: 2, co_occurrences: 2 },
    ]);
    const orders = (await similar('product_id=4&similarity=count&basis=order')).json();
    expect(orders.data).toEqual([
      { product_id: 2, score: 1, co_occurrences: 1 },
      { product_id: 3, score: 1, co_occurrences: 1 },
    ]);
    expect(orders.model).toMatchObject({ users: 5, products: 4 });
    expect((await similar('product_id=2&similarity=count&limit=1')).json().data).toHaveLength(1);
    expect((await similar('product_id=5')).json().data).toEqual([]); // bought only in the cancelled order
  });

  it('sees orders as they are now', async () => {
    await t.admin('PUT', '/admin/v1/shops/models/orders', [
      { id: 7, created_at: at(8), customer: { id: 200 }, line_items: [{ product_id: 4, quantity: 1 }] },
    ]);
    expect((await similar('product_id=4&similarity=count')).json().data[0]).toEqual({
      product_id: 2,
      score: 2,
      co_occurrences: 2,
    });
  });

  it('names the bad parameter, and an unknown product is a 404', async () => {
    for (const [query, name] of [
      ['', 'product_id'],
      ['product_id=x', 'product_id'],
      ['product_id=1&similarity=cosine', 'similarity'],
      ['product_id=1&basis=session', 'basis'],
      ['product_id=1&support_threshold=0', 'support_threshold'],
      ['product_id=1&limit=101', 'limit'],
    ] as const) {
      const res = await similar(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error, query).toContain(name);
    }
    expect((await similar('product_id=999')).statusCode).toBe(404);
  });
});
