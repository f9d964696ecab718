import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, shopToday } from '../../../src/domain/billing/dates.js';
import type { Onetime } from '../../../src/domain/billing/types.js';
import { backends } from '../../helpers/backends.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { FUTURE, seedBilling } from '../../helpers/billing.js';

describe.each(backends())('POST /api/v1/billing/onetime on $name', (backend) => {
  let t: TestApp;
  let shop: { id: number; public: string; private: string };
  let other: { private: string };
  beforeAll(async () => {
    t = await startApp(backend);
    shop = await seedBilling(t, 'one');
    other = await seedBilling(t, 'one-other');
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  const post = (query: string, options: { body?: unknown; key?: string; idempotency?: string } = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/billing/onetime?key=${options.key ?? shop.private}&${query}`,
      headers: { ...(options.idempotency ? { 'idempotency-key': options.idempotency } : {}) },
      ...(options.body !== undefined ? { payload: options.body as object } : {}),
    });
  const expect400 = async (query: string, param: string) => {
    const res = await post(query);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toContain(param);
  };
  const today = () => shopToday(Date.now(), 'America/New_York');

  it('creates a onetime on an address for the next queued charge by default', async () => {
    const res = await post('address_id=500&shop_variant_id=21');
    expect(res.statusCode, res.body).toBe(201);
    const { onetime, charge, order } = res.json().data;
    expect(charge).toBeNull();
    expect(order).toBeNull();
    expect(Object.keys(onetime)).toEqual(
      expect.arrayContaining([
        'id',
        'address_id',
        'customer_id',
        'shop_product_id',
        'shop_variant_id',
        'quantity',
        'price',
        'product_title',
        'variant_title',
        'next_charge_scheduled_at',
        'created_at',
        'updated_at',
      ]),
    );
    expect(onetime).toMatchObject({
      address_id: 500,
      customer_id: 100,
      shop_product_id: 2,
      shop_variant_id: 21,
      quantity: 1,
      price: '8.50',
      product_title: 'Product 2',
      variant_title: 'Large',
      next_charge_scheduled_at: FUTURE,
    });
    expect(await t.services.store.getLedgerDoc<Onetime>(shop.id, 'billing_onetimes', onetime.id)).toMatchObject({
      id: onetime.id,
      status: 'ACTIVE',
    });
  });

  it('infers the address from a charge, and takes a JSON body', async () => {
    const res = await post('', {
      body: { charge_id: 7000, shop_variant_id: 11, quantity: 3, next_charge_scheduled_at: 'tomorrow' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.onetime).toMatchObject({
      address_id: 500,
      quantity: 3,
      price: '10.00',
      next_charge_scheduled_at: `${addDays(today(), 1)}T00:00:00`,
    });
    expect(
      (await post('address_id=500&shop_variant_id=11&next_charge_scheduled_at=today')).json().data.onetime
        .next_charge_scheduled_at,
    ).toBe(`${today()}T00:00:00`);
    expect(
      (await post('address_id=500&shop_variant_id=11&next_charge_scheduled_at=2099-02-01')).json().data.onetime
        .next_charge_scheduled_at,
    ).toBe('2099-02-01T00:00:00');
  });

  it('validates every parameter', async () => {
    expect((await post('shop_variant_id=11')).json()).toEqual({
      error: 'Missing required args. You must pass either address_id or charge_id.',
      code: 'missing_parameter',
      parameter: 'address_id',
    });
    await expect400('address_id=500', 'shop_variant_id');
    await expect400('address_id=500&shop_variant_id=999', 'shop_variant_id');
    await expect400('address_id=x&shop_variant_id=11', 'address_id');
    for (const q of ['0', '1001', 'two'])
      await expect400(`address_id=500&shop_variant_id=11&quantity=${q}`, 'quantity');
    await expect400(
      'address_id=500&shop_variant_id=11&next_charge_scheduled_at=2020-01-01',
      'next_charge_scheduled_at',
    );
    await expect400('address_id=500&shop_variant_id=11&next_charge_scheduled_at=soon', 'next_charge_scheduled_at');
    await expect400(
      'address_id=500&shop_variant_id=11&next_charge_scheduled_at=2099-02-30',
      'next_charge_scheduled_at',
    );
    // Address 501 has no queued charge: a date is needed.
    await expect400('address_id=501&shop_variant_id=11', 'next_charge_scheduled_at');
    await expect400('address_id=500&shop_variant_id=11&charge_now=sure', 'charge_now');
    // Another format is ignored, never a 400 (docs/api.md, "Aliases").
    expect(
      (await post('address_id=500&shop_variant_id=11&format=xml&next_charge_scheduled_at=2099-01-16')).statusCode,
    ).toBe(201);
    expect((await post('address_id=500&shop_variant_id=11&format=pretty')).body).toMatch(/^\{\n {2}"data"/);
  });

  it('answers 404 for unknown or foreign addresses and charges, 403 for a public key', async () => {
    expect((await post('address_id=999&shop_variant_id=11')).json()).toEqual({
      error: 'Address 999 not found.',
      code: 'not_found',
    });
    expect((await post('charge_id=999&shop_variant_id=11')).statusCode).toBe(404);
    await t.admin('PUT', '/admin/v1/shops/one-other/billing/addresses', [
      { id: 777, customer_id: 100, address1: 'x', city: 'y', zip: '1', country_code: 'US' },
    ]);
    expect((await post('address_id=777&shop_variant_id=11&next_charge_scheduled_at=today')).statusCode).toBe(404);
    expect(
      (await post('address_id=777&shop_variant_id=11&next_charge_scheduled_at=today', { key: other.private }))
        .statusCode,
    ).toBe(201);
    expect((await post('address_id=500&shop_variant_id=11', { key: shop.public })).statusCode).toBe(403);
  });

  it(
    'charges now: success makes an order; a failing card is a 402 ' + 'with an ERROR charge and a cancelled onetime',
    async () => {
      const paid = await post('address_id=500&shop_variant_id=11&quantity=2&charge_now=yes');
      expect(paid.statusCode, paid.body).toBe(201);
      const { onetime, charge, order } = paid.json().data;
      expect(charge).toMatchObject({ status: 'SUCCESS', total_price: '20.00', address_id: 500, customer_id: 100 });
      expect(charge.processed_at).not.toBeNull();
      expect(order).toMatchObject({
        charge_id: charge.id,
        customer_id: 100,
        line_items: [{ shop_variant_id: 11, quantity: 2, price: '10.00' }],
      });
      expect(onetime.status).toBe('ACTIVE');

      const failed = await post('address_id=501&shop_variant_id=11&charge_now=yes&next_charge_scheduled_at=today');
      expect(failed.statusCode).toBe(402);
      expect(failed.json().error).toContain('card expired');
      expect(failed.json().charge).toMatchObject({ status: 'ERROR' });
      const stored = await t.services.store.getLedgerDoc<{ status: string }>(
        shop.id,
        'billing_charges',
        failed.json().charge.id,
      );
      expect(stored?.status).toBe('ERROR');
    },
  );

  it('replays the first answer for a repeated Idempotency-Key, and refuses it with other parameters', async () => {
    const first = await post('address_id=500&shop_variant_id=11', { idempotency: 'order-1' });
    const second = await post('address_id=500&shop_variant_id=11', { idempotency: 'order-1' });
    expect(second.statusCode).toBe(201);
    expect(second.body).toBe(first.body);
    const conflict = await post('address_id=500&shop_variant_id=11&quantity=5', { idempotency: 'order-1' });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().error).toContain('Idempotency-Key');
    const failing = await post('address_id=501&shop_variant_id=11&charge_now=yes&next_charge_scheduled_at=today', {
      idempotency: 'order-2',
    });
    expect(
      (
        await post('address_id=501&shop_variant_id=11&charge_now=yes&next_charge_scheduled_at=today', {
          idempotency: 'order-2',
        })
      ).statusCode,
    ).toBe(failing.statusCode);
    expect((await post('address_id=500&shop_variant_id=11', { idempotency: 'x'.repeat(201) })).statusCode).toBe(400);
    expect(conflict.json().code).toBe('idempotency_conflict');
  });

  it(
    "reads the Idempotency-Key from the route's header schema: too " +
      'long, unprintable or sent empty is a 400 naming it',
    async () => {
      const refused = {
        error: 'The Idempotency-Key header must be 1 to 200 printable characters.',
        code: 'invalid_parameter',
        parameter: 'Idempotency-Key',
      };
      for (const key of ['x'.repeat(201), 'two words', '']) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/v1/billing/onetime?key=${shop.private}&address_id=500&shop_variant_id=11`,
          headers: { 'idempotency-key': key },
        });
        expect(res.statusCode, key).toBe(400);
        expect(res.json()).toEqual(refused);
      }
    },
  );

  it('creates one onetime and one charge for ten parallel identical retries', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        post('address_id=500&shop_variant_id=21&charge_now=yes', { idempotency: 'parallel-1' }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    const { onetime, charge } = answers[0]!.json().data;
    // Ids come from per-shop counters: had a second onetime or charge been written, a later one would skip a number.
    const next = (await post('address_id=500&shop_variant_id=21&charge_now=yes')).json().data;
    expect(next.onetime.id).toBe(onetime.id + 1);
    expect(next.charge.id).toBe(charge.id + 1);
  });
});
