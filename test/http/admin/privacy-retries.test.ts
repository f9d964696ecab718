import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRIVACY_TRIES, privacyRetryAt } from '../../../src/services/platform/webhooks.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { deliver, PLATFORM_ENV, PLATFORM_WEBHOOK_SECRET } from '../../helpers/fake-platform/connect.js';
import { storedRows } from '../../helpers/stored-rows.js';

/**
 * A platform privacy request that fails on our side stays queued and is tried again: the platform was
 * answered 200 when it was queued and does not send it again (docs/operations.md, "Privacy").
 */
describe.each(backends())('a redact that failed on our side, on $name', (backend) => {
  let t: TestApp;
  let shopId: number;
  beforeAll(async () => {
    t = await startApp(backend, PLATFORM_ENV);
    shopId = (await t.createShop('retried')).id;
    await t.admin('PATCH', '/admin/v1/shops/retried', { webhook_secret: PLATFORM_WEBHOOK_SECRET });
  });
  afterAll(async () => {
    await t.close();
    await backend.cleanup();
  });

  const hooks = () =>
    storedRows(t.config.databaseUrl, (db) =>
      db
        .selectFrom('shop_webhooks')
        .select(['topic', 'payload', 'outcome', 'attempts', 'applied_at'])
        .where('shop_id', '=', shopId)
        .execute(),
    );
  const customers = () =>
    storedRows(t.config.databaseUrl, (db) =>
      db.selectFrom('customers').select('id').where('shop_id', '=', shopId).execute(),
    );

  it('keeps the request and its body, and erases the customer on the next try', async () => {
    await t.admin('PUT', '/admin/v1/shops/retried/customers', [{ id: 6, email: 'six@example.com', tags: [] }]);
    const store = t.services.store;
    const erase = store.eraseCustomer;
    let calls = 0;
    // One failure of the database's, as a lock held past its timeout or a dropped connection gives.
    store.eraseCustomer = (...args) => {
      if (calls++ === 0) return Promise.reject(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }));
      return erase.apply(store, args);
    };
    try {
      const redact = { shop_id: 1, customer: { id: 6, email: 'six@example.com' }, orders_to_redact: [] };
      expect((await deliver(t, 'retried', 'customers/redact', redact)).statusCode).toBe(200);
      const [waiting] = await hooks();
      expect(waiting).toMatchObject({ topic: 'customers/redact', attempts: 1, applied_at: null, outcome: null });
      expect(waiting!.payload).toContain('six@example.com');
      expect(await customers()).toHaveLength(1);
      // Not before its time.
      await t.services.storefrontSync.applyPending();
      expect(calls).toBe(1);

      // The minute passes.
      await storedRows(t.config.databaseUrl, (db) =>
        db
          .updateTable('shop_webhooks')
          .set({ retry_at: Date.now() - 1 })
          .where('shop_id', '=', shopId)
          .execute(),
      );
      await t.services.storefrontSync.applyPending();
      expect(calls).toBe(2);
      expect(await customers()).toHaveLength(0);
      const [applied] = await hooks();
      expect(applied!.applied_at).not.toBeNull();
      expect(applied!.outcome).not.toMatch(/^error/);
      expect(applied!.payload).toBe('{}');
    } finally {
      store.eraseCustomer = erase;
    }
  });
});

describe('when a failed privacy request is tried again', () => {
  it('waits twice as long each time, and gives up after the last try', () => {
    const waits = Array.from({ length: PRIVACY_TRIES }, (_, attempts) =>
      privacyRetryAt('customers/redact', attempts, 0),
    );
    expect(waits).toEqual([60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_840_000, null]);
    expect(privacyRetryAt('shop/redact', 0, 5)).toBe(60_005);
    expect(privacyRetryAt('products/update', 0, 0)).toBeNull();
  });
});
