import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/store/connect.js';
import { openStore } from '../../src/store/open.js';
import { backends } from '../helpers/backends.js';
import { migratedTo } from '../helpers/migrated-to.js';

/** Bodies of applied webhooks, kept by the releases before, forgotten by the migration that stops keeping them. */
describe.each(backends())('Applied webhook bodies on $name', (backend) => {
  afterAll(() => backend.cleanup());

  it('are forgotten, pending ones kept, and exports lose their copies and nothing else', async () => {
    const url = await backend.url();
    const before = await migratedTo(url, '2026_12_03_0100_webhook_retries');
    const hook = (id: string, payload: string, appliedAt: number | null) => ({
      shop_id: 3,
      webhook_id: id,
      seq: Number(id.slice(1)),
      topic: 'orders/create',
      payload,
      received_at: 1_000,
      applied_at: appliedAt,
      outcome: appliedAt === null ? null : 'applied',
      attempts: 0,
      retry_at: null,
    });
    const guest = JSON.stringify({ id: 77, email: 'gift@example.com', note: 'for Ann, 1 Rue Haute' });
    await before.db
      .insertInto('shop_webhooks')
      .values([hook('w1', guest, 2_000), hook('w2', guest, null), hook('w3', '{}', 2_000)])
      .execute();
    const request = (id: string, records: object | null) => ({
      shop_id: 3,
      id,
      kind: 'data_request',
      customer_id: 5,
      received_at: 1_000,
      export: records === null ? null : JSON.stringify(records),
      expires_at: 9e12,
    });
    const exported = { customer: { id: 5 }, orders: [{ id: 77 }], webhooks: [{ received_at: 1_000, body: guest }] };
    // More exports than the migration reads a page, to see it go past the first.
    const others = Array.from({ length: 120 }, (_, i) => request(`old-${String(i).padStart(3, '0')}`, exported));
    await before.db
      .insertInto('privacy_requests')
      .values([...others, request('erasure', null), request('plain', { customer: { id: 5 } })])
      .execute();
    await before.db.destroy();

    const store = await openStore(url);
    await store.close();
    const after = connect(url);
    try {
      const hooks = await after.db
        .selectFrom('shop_webhooks')
        .select(['webhook_id', 'payload'])
        .orderBy('seq')
        .execute();
      expect(hooks).toEqual([
        { webhook_id: 'w1', payload: '{}' },
        { webhook_id: 'w2', payload: guest },
        { webhook_id: 'w3', payload: '{}' },
      ]);
      const exports = await after.db.selectFrom('privacy_requests').select(['id', 'export']).orderBy('id').execute();
      const byId = new Map(exports.map((r) => [r.id, r.export === null ? null : JSON.parse(r.export)]));
      expect(byId.get('erasure')).toBeNull();
      expect(byId.get('plain')).toEqual({ customer: { id: 5 } });
      const { webhooks: _, ...kept } = exported;
      for (const other of others) expect(byId.get(other.id)).toEqual(kept);
    } finally {
      await after.db.destroy();
    }
  });
});
