import { afterAll, describe, expect, it } from 'vitest';
import { IN_SLICE } from '../../src/store/kysely/in-slices.js';
import { backends } from '../helpers/backends.js';
import { newShop, shopKeys, storeEvent, trackedClick } from '../helpers/fixtures.js';

/**
 * Anyone holding a shop's public key can name a customer with as many sessions as they like
 * (`analytics/track` with `shop_customer_id` and a new `uuid` each time). 33,000 of them had made
 * the customer's export and erasure fail: more values than one statement binds (SQLite's 32,766).
 */
describe.each(backends())('a customer named by many sessions on $name', (backend) => {
  afterAll(() => backend.cleanup());

  const SESSIONS = 33_000;
  const click = (shopId: number, uuid: string, customer: number | null, at: number) =>
    trackedClick(shopId, at, uuid, customer);

  it('exports and erases every one of their sessions, and nobody else’s', async () => {
    expect(SESSIONS).toBeGreaterThan(6 * IN_SLICE);
    const store = await backend.open();
    try {
      const shopId = (
        await store.createShop(
          newShop('named'),
          shopKeys().map((k) => k.record),
        )
      ).id;
      await store.upsertCustomers(shopId, [
        { id: 5, email: 'five@example.com', tags: [] },
        { id: 6, email: 'six@example.com', tags: [] },
      ]);
      const at = Date.now() - 60_000;
      const sessions = Array.from({ length: SESSIONS }, (_, i) => `s-${i}`);
      for (let i = 0; i < SESSIONS; i += 5_000)
        await store.appendEvents(
          sessions.slice(i, i + 5_000).map((uuid) => storeEvent(shopId, 'viewed', 'p', at, uuid, 5)),
        );
      // Anonymous rows in the last session (theirs), a signed-in one of customer 6 there (not), and 6's own session.
      const last = sessions.at(-1)!;
      await store.appendEvents([
        storeEvent(shopId, 'viewed', 'anonymous', at, last, null),
        storeEvent(shopId, 'viewed', 'six-there', at, last, 6),
        storeEvent(shopId, 'viewed', 'six-alone', at, 'six-session', 6),
      ]);
      await store.appendTrackEvents([click(shopId, last, null, at), click(shopId, 'six-session', null, at)]);

      const records = await store.customerRecords(shopId, 5);
      const handles = (records.events as { handle: string }[]).map((e) => e.handle);
      expect(handles).toHaveLength(SESSIONS + 1);
      expect(handles).toContain('anonymous');
      expect(handles).not.toContain('six-there');
      expect(records.tracking as unknown[]).toHaveLength(1);

      const erasure = await store.eraseCustomer(shopId, 5);
      expect(erasure.sessions).toHaveLength(SESSIONS);
      const left = await store.listEvents(shopId, { limit: 100 });
      expect(left.map((e) => e.handle).sort()).toEqual(['six-alone', 'six-there']);
      expect((await store.customerRecords(shopId, 6)).tracking as unknown[]).toHaveLength(1);
    } finally {
      await store.close();
    }
  }, 120_000);
});
