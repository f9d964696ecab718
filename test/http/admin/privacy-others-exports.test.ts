import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';

/**
 * Another customer's export loses what an erasure took, and only that (docs/operations.md, "Privacy"):
 * it was made again from the stored rows, which lost the e-mail its request gave, and was found by
 * any text holding the erased address (`bob@` is within `jimbob@`).
 */
describe.each(backends())("other customers' exports at an erasure, on $name", (backend) => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startApp(backend);
    key = (await t.createShop('others')).public;
  });
  afterAll(async () => {
    await t.close();
    await backend.cleanup();
  });

  const view = async (uuid: string, handle: string, who = '') => {
    const res = await t.app.inject({
      method: 'POST',
      url:
        `/api/v1/analytics/event?key=${key}&subject=user&verb=viewed&noun=product` +
        `&shop_product_handle=${handle}&uuid=${uuid}${who}`,
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const exportOf = async (id: string) =>
    (await t.admin('GET', '/admin/v1/shops/others/privacy/requests'))
      .json()
      .data.find((r: { id: string }) => r.id === id).export as { events: { handle: string }[] };
  const uuid = (n: number) => `aaaaaaaa-0000-4000-8000-00000000000${n}`;

  it('keeps what its request found, and loses the erased customer’s event of a shared device', async () => {
    await t.admin('PUT', '/admin/v1/shops/others/customers', [
      { id: 1, email: 'bob@example.com', tags: [] },
      { id: 2, email: 'jimbob@example.com', tags: [] },
    ]);
    // Jim's view under an address the shop no longer stores and his own; on his device Bob's, and one of
    // nobody's after it (Bob's session, so Bob's: it goes with him); Bob's own elsewhere.
    await view(uuid(1), 'jim-old', '&subject_email=jim.old%40example.com');
    await view(uuid(2), 'jim-own', '&shop_customer_id=2');
    await view(uuid(2), 'bob-there', '&subject_email=bob%40example.com');
    await view(uuid(2), 'nobody-there');
    await view(uuid(3), 'bob-own', '&shop_customer_id=1');
    const made = await t.admin('POST', '/admin/v1/shops/others/customers/2/export?email=jim.old%40example.com');
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().request.id as string;
    const before = (await exportOf(id)).events.map((e) => e.handle).sort();
    expect(before).toEqual(['jim-old', 'jim-own', 'nobody-there']);

    expect((await t.admin('DELETE', '/admin/v1/shops/others/customers/1')).statusCode).toBe(200);
    // Made again from the stored rows, the export had lost jim-old too.
    const after = (await exportOf(id)).events.map((e) => e.handle).sort();
    expect(after).toEqual(['jim-old', 'jim-own']);
  });
});
