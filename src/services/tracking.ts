import { parseSource } from '../domain/attribution/source.js';
import type { TrackEvent, TrackRow } from '../domain/attribution/track.js';
import { ForbiddenError, InvalidInputError, UnavailableError } from '../domain/errors.js';
import { visitorKey } from '../domain/experiments/assign.js';
import { armOfSource } from '../domain/experiments/routing.js';
import { BAD_CUSTOMER_SIG, customerSignature, safeEqual } from '../domain/keys.js';
import { readParams } from '../domain/params/read.js';
import { MAX_TRACK_EVENTS, trackEventOf, trackParams, type TrackParams } from '../domain/params/track.js';
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
     * The events of a request: the body's `events` when it has them, else the query string's one
     * event. Each event passes every check of the single form, customer signatures included (for a
     * public key: a private key is server-side and trusted).
     */
    eventsOf(
      caller: { shopId: number; publicKey: boolean },
      query: TrackParams,
      body: unknown,
      now: number,
    ): TrackEvent[] {
      const list =
        body !== null && typeof body === 'object' && !Array.isArray(body)
          ? (body as Record<string, unknown>).events
          : undefined;
      // The query string's event is checked by the customer-signature hook, as on every public route.
      if (list === undefined) return [trackEventOf(query, now)];
      if (!Array.isArray(list)) throw new InvalidInputError('events', 'Parameter events must be an array of events.');
      if (list.length === 0 || list.length > MAX_TRACK_EVENTS)
        throw new InvalidInputError(
          'events',
          `Parameter events must hold 1 to ${MAX_TRACK_EVENTS} events, got ${list.length}.`,
        );
      return list.map((raw, i) => {
        const where = `events[${i}]`;
        if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
          throw new InvalidInputError(where, `${where} must be an object of event fields.`);
        try {
          const values = readParams(trackParams, raw as Record<string, unknown>);
          if (caller.publicKey) checkSignature(caller.shopId, values, where);
          return trackEventOf(values, now, `${where}.`);
        } catch (error) {
          if (error instanceof InvalidInputError && !error.param.startsWith(where)) {
            const named = error.message.replace(`Parameter ${error.param} `, `Parameter ${where}.${error.param} `);
            throw new InvalidInputError(
              `${where}.${error.param}`,
              named === error.message ? `${where}: ${error.message}` : named,
            );
          }
          throw error;
        }
      });
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
