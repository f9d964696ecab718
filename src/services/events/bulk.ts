import type { TrackEvent } from '../../domain/attribution/track.js';
import { ForbiddenError } from '../../domain/errors.js';
import { customerSignature, safeEqual } from '../../domain/keys.js';
import type { BulkEvent } from '../../domain/params/bulk-event.js';
import type { CatalogIndex } from '../../indexes/catalog-index.js';
import { loadCatalog } from '../../indexes/catalog-lookup.js';
import type { TrackingService } from '../tracking.js';
import type { EventsService } from './index.js';

/**
 * The platform widget's batched events (docs/api.md, "Bulk events"): product views join the event
 * intake, widget clicks and add-to-carts the tracking, both durable before the answer; every
 * other event is acknowledged and counted only.
 */
export function createBulkEventsService(deps: {
  events: Pick<EventsService, 'ingest'>;
  tracking: Pick<TrackingService, 'track'>;
  catalog: CatalogIndex;
}) {
  /** A shop that requires customer signatures gets them for every event naming a customer, as the single forms do. */
  async function checkSignatures(shopId: number, batch: readonly BulkEvent[]): Promise<void> {
    const named = batch.filter((e) => e.kind !== 'counted' && e.customerId !== null);
    if (named.length === 0) return;
    await deps.catalog.ensureSettings(shopId);
    const shop = deps.catalog.essentials(shopId);
    if (!shop?.settings.require_customer_signature) return;
    for (const event of named) {
      if (event.kind === 'counted' || event.customerId === null) continue;
      const sig = event.customerSig?.toLowerCase() ?? '';
      if (!safeEqual(sig, customerSignature(shop.signing_secret, event.customerId))) {
        throw new ForbiddenError('customer_sig is missing or wrong for shop_customer_id.', 'customer_signature');
      }
    }
  }

  return {
    /** Stores a batch; resolves with the number of events accepted once they are durable. */
    async ingest(shopId: number, batch: readonly BulkEvent[], now: number): Promise<number> {
      await checkSignatures(shopId, batch);
      const views = batch.filter((e) => e.kind === 'view');
      const tracked = batch.filter((e) => e.kind === 'track');
      // A view names its product by id or by handle; the intake stores handles (resolved when read).
      const catalog = views.some((v) => v.handle === null && v.productId !== null)
        ? await loadCatalog(deps.catalog, shopId)
        : null;
      const writes: Promise<unknown>[] = views.map((view) =>
        deps.events.ingest(shopId, {
          uuid: view.uuid,
          customer_id: view.customerId,
          subject: 'user',
          verb: 'viewed',
          noun: 'product',
          handle:
            view.handle ?? (view.productId === null ? null : (catalog?.products.get(view.productId)?.handle ?? null)),
          subject_email: null,
          theme_id: null,
          created_at: view.at ?? now,
        }),
      );
      if (tracked.length > 0) {
        const events: TrackEvent[] = tracked.map((t) => ({
          type: t.type,
          uuid: t.uuid,
          customer_id: t.customerId,
          source: t.source,
          product_id: t.productId,
          variant_id: t.variantId,
          cart_token: t.cartToken,
          created_at: t.at ?? now,
        }));
        writes.push(deps.tracking.track(shopId, events));
      }
      await Promise.all(writes);
      return batch.length;
    },
  };
}

export type BulkEventsService = ReturnType<typeof createBulkEventsService>;
