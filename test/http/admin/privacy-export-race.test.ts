import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';

/**
 * An export read before an erasure and kept after it (the admin API and a webhook, or two nodes, at
 * once): the erasure pruned the exports kept before it, so this one is read again.
 */
describe.each(backends())('an export racing an erasure on $name', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(backend);
    await t.createShop('race');
  });
  afterAll(async () => {
    await t.close();
    await backend.cleanup();
  });

  it('keeps nothing the erasure took, though its records were read before it', async () => {
    await t.admin('PUT', '/admin/v1/shops/race/customers', [{ id: 5, email: 'race@example.com' }]);
    const store = t.services.store;
    const original = store.customerRecords;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let read!: () => void;
    const hasRead = new Promise<void>((resolve) => (read = resolve));
    let reads = 0;
    // The first read waits, between its reads and its keeping, while the customer is erased.
    store.customerRecords = async (...args) => {
      const records = await original.apply(store, args);
      if (++reads === 1) {
        read();
        await gate;
      }
      return records;
    };
    try {
      const exporting = t.admin('POST', '/admin/v1/shops/race/customers/5/export');
      await hasRead;
      expect((await t.admin('DELETE', '/admin/v1/shops/race/customers/5')).statusCode).toBe(200);
      release();
      const answer = await exporting;
      expect(answer.statusCode).toBe(201);
      expect(reads).toBe(2);
      const requests = (await t.admin('GET', '/admin/v1/shops/race/privacy/requests')).json().data;
      const exports = requests.filter((r: { kind: string }) => r.kind === 'data_request');
      expect(exports).toHaveLength(1);
      expect(JSON.stringify(exports)).not.toContain('race@example.com');
      expect(JSON.stringify(answer.json())).not.toContain('race@example.com');
    } finally {
      store.customerRecords = original;
    }
  });
});
