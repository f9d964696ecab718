import { afterAll, describe, expect, it, vi } from 'vitest';
import { CatalogIndex } from '../../../src/indexes/catalog-index.js';
import { createPrivacyService } from '../../../src/services/platform/privacy.js';
import { backends } from '../../helpers/backends.js';
import { newShop, shopKeys, storeEvent } from '../../helpers/fixtures.js';

/**
 * A write checked against a shop before its deletion can commit after it: an event in a group commit,
 * visits buffered for a second. Those rows had stayed under the deleted shop's id for good, beyond any
 * retention (which runs over live shops). The shop's rows are deleted again once such writes are done.
 */
describe.each(backends())("a deleted shop's late writes, on $name", (backend) => {
  afterAll(() => backend.cleanup());

  it('are deleted with a second pass, and no other shop’s', async () => {
    const store = await backend.open();
    try {
      const gone = (
        await store.createShop(
          newShop('gone'),
          shopKeys().map((k) => k.record),
        )
      ).id;
      const kept = (
        await store.createShop(
          newShop('kept'),
          shopKeys().map((k) => k.record),
        )
      ).id;
      const privacy = createPrivacyService({ store, catalog: new CatalogIndex(store), lateWritesMs: 20 });
      await privacy.shopRedact(gone);
      const at = Date.now();
      await store.appendEvents([
        storeEvent(gone, 'viewed', 'late', at, 'u-late', 77),
        storeEvent(kept, 'viewed', 'p', at),
      ]);
      await store.recordExposures([{ shop_id: gone, experiment_id: 1, arm: 0, visitor: 'c:77', created_at: at }]);
      const left = async () => ({
        gone: (await store.listEvents(gone, { limit: 10 })).length,
        kept: (await store.listEvents(kept, { limit: 10 })).length,
      });
      await vi.waitFor(async () => expect(await left()).toEqual({ gone: 0, kept: 1 }), { timeout: 10_000 });
    } finally {
      await store.close();
    }
  });
});
