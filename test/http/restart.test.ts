import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { compose } from '../../src/compose.js';
import { buildApp } from '../../src/http/app.js';
import { backends } from '../helpers/backends.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { productInput } from '../helpers/fixtures.js';

describe.each(backends())('restart on $name', (backend) => {
  afterAll(() => backend.cleanup());

  async function boot(url: string) {
    const config = loadConfig({ DATABASE_URL: url, REBOUND_ADMIN_TOKEN: ADMIN_TOKEN, LOG_LEVEL: 'silent' });
    const services = await compose(config);
    const app = await buildApp(services, config, { logger: false });
    return {
      app,
      close: async () => {
        await app.close();
        await services.close();
      },
    };
  }

  it('keeps shops, keys, products and inventory', async () => {
    const url = await backend.url();
    const first = await boot(url);
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const { keys } = (
      await first.app.inject({
        method: 'POST',
        url: '/admin/v1/shops',
        headers: auth,
        payload: { handle: 'kept', name: 'Kept' },
      })
    ).json();
    await first.app.inject({
      method: 'PUT',
      url: '/admin/v1/shops/kept/products',
      headers: auth,
      payload: [productInput(1), productInput(2)],
    });
    await first.app.inject({
      method: 'PUT',
      url: '/admin/v1/shops/kept/inventory',
      headers: auth,
      payload: [{ variant_id: 11, inventory_quantity: 42 }],
    });
    const before = (await first.app.inject(`/api/v1/products/static?ids=1,2&key=${keys.public}`)).body;
    await first.close();

    const second = await boot(url);
    const after = await second.app.inject(`/api/v1/products/static?ids=1,2&key=${keys.public}`);
    expect(after.statusCode).toBe(200);
    expect(after.body).toBe(before);
    expect(after.json().data[0].variants[0].inventory_quantity).toBe(42);
    await second.close();
  });
});
