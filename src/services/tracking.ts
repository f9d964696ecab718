import { parseSource } from '../domain/attribution/source.js';
import type { TrackEvent, TrackRow } from '../domain/attribution/track.js';
import { ForbiddenError, UnavailableError } from '../domain/errors.js';
import { visitorKey } from '../domain/experiments/assign.js';
import { armOfSource } from '../domain/experiments/routing.js';
import { BAD_CUSTOMER_SIG, customerSignature, safeEqual } from '../domain/keys.js';
import { trackEventOf, type TrackParams } from '../domain/params/track.js';
import type { CatalogIndex } from '../indexes/catalog-index.js';
import type { ExposureWriter } from '../jobs/exposure-writer.js';
import type { GroupCommitter } from '../jobs/group-commit.js';
import type { TrackingStore } from '../store/kysely/tracking.js';

/**
 * The tracking intake (docs/attribution.md, "Tracking"): impressions, clicks and add-to-carts,
 * each tagged with the experiment arm its source belongs to, answered only once committed.
 */
export function createTrackingService(deps: {
  catalog: CatalogIndex;
  committer: GroupCommitter<TrackRow[]>;
  store: TrackingStore;
  exposures: Pick<ExposureWriter, 'holds' | 'flush'>;
}) {
  const { catalog, committer } = deps;

  /** A public caller naming a customer proves it may (docs/api.md, "Customer signatures"), event by event. */
  function checkSignature(shopId: number, values: TrackParams, where: string): void {
    if (values.shop_customer_id === null) return;
    const shop = catalog.essentials(shopId);
    if (!shop?.settings.require_customer_signature) return;
    const sig = values.customer_sig?.toLowerCase() ?? '';
    if (!safeEqual(sig, customerSignature(shop.signing_secret, values.shop_customer_id)))
      throw new ForbiddenError(`${where}: ${BAD_CUSTOMER_SIG}`, 'customer_signature');
  }

  /** An arm's visitor buffered on this node is written first, so the store can tell that the arm served them. */
  async function exposuresWritten(rows: readonly TrackRow[]): Promise<void> {
    const buffered = rows.some((r) => {
      const visitor = r.experiment_id === null ? null : visitorKey(r.uuid, r.customer_id);
      return visitor !== null && deps.exposures.holds(r.shop_id, r.experiment_id!, visitor);
    });
    if (buffered) await deps.exposures.flush();
  }

  /** Each event with the experiment arm its source belongs to. */
  function rowsOf(shopId: number, events: readonly TrackEvent[]): TrackRow[] {
    const experiments = catalog.get(shopId)?.experiments ?? [];
    return events.map((event): TrackRow => {
      const arm = event.source === null ? null : armOfSource(experiments, parseSource(event.source), event.created_at);
      return { ...event, shop_id: shopId, experiment_id: arm?.experimentId ?? null, arm: arm?.index ?? null };
    });
  }

  return {
    /**
     * The stored form of one decoded event, given as the query string's (`where` absent: the
     * customer-signature hook checked it, as on every public route) or as the body's `events[i]`,
     * which passes every check of the single form, customer signatures included (for a public
     * key: a private key is server-side and trusted).
     */
    eventOf(caller: { shopId: number; publicKey: boolean }, now: number) {
      return (values: TrackParams, where?: string): TrackEvent => {
        if (where === undefined) return trackEventOf(values, now);
        if (caller.publicKey) checkSignature(caller.shopId, values, where);
        return trackEventOf(values, now, where);
      };
    },

    /** Resolves once every event is committed; a failed commit is a 503, never a false "Received". */
    async track(shopId: number, events: readonly TrackEvent[]): Promise<number> {
      const rows = rowsOf(shopId, events);
      await exposuresWritten(rows);
      try {
        // A request's events are one item of the group commit: stored together or not at all.
        await committer.submit(rows);
      } catch {
        throw new UnavailableError('The events could not be stored just now; nothing was recorded. Retry shortly.');
      }
      return rows.length;
    },

    /** Bulk import of past events (the demo shop), straight to the store in one transaction. */
    async importEvents(shopId: number, events: readonly TrackEvent[]): Promise<void> {
      await deps.store.appendTrackEvents(rowsOf(shopId, events));
    },
  };
}

export type TrackingService = ReturnType<typeof createTrackingService>;
