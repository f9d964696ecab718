import { parseSource } from '../domain/attribution/source.js';
import type { TrackEvent, TrackRow } from '../domain/attribution/track.js';
import { InvalidInputError, UnavailableError } from '../domain/errors.js';
import { armOfSource } from '../domain/experiments/routing.js';
import { readParams } from '../domain/params/read.js';
import { MAX_TRACK_EVENTS, trackEventOf, trackParams, type TrackParams } from '../domain/params/track.js';
import type { CatalogIndex } from '../indexes/catalog-index.js';
import type { GroupCommitter } from '../jobs/group-commit.js';
import type { Store } from '../store/store.js';

/**
 * The tracking intake (docs/attribution.md, "Tracking"): impressions, clicks and add-to-carts,
 * each tagged with the experiment arm its source belongs to, answered only once committed.
 */
export function createTrackingService(deps: { catalog: CatalogIndex; committer: GroupCommitter<TrackRow[]>; store: Pick<Store, 'appendTrackEvents'> }) {
  const { catalog, committer } = deps;

  /** Each event with the experiment arm its source belongs to. */
  function rowsOf(shopId: number, events: readonly TrackEvent[]): TrackRow[] {
    const experiments = catalog.get(shopId)?.experiments ?? [];
    return events.map((event): TrackRow => {
      const arm = event.source === null ? null : armOfSource(experiments, parseSource(event.source), event.created_at);
      return { ...event, shop_id: shopId, experiment_id: arm?.experimentId ?? null, arm: arm?.index ?? null };
    });
  }

  return {
    /** The events of a request: the body's `events` when it has them, else the query string's one event. */
    eventsOf(query: TrackParams, body: unknown, now: number): TrackEvent[] {
      const list = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).events : undefined;
      if (list === undefined) return [trackEventOf(query, now)];
      if (!Array.isArray(list)) throw new InvalidInputError('events', 'Parameter events must be an array of events.');
      if (list.length === 0 || list.length > MAX_TRACK_EVENTS)
        throw new InvalidInputError('events', `Parameter events must hold 1 to ${MAX_TRACK_EVENTS} events, got ${list.length}.`);
      return list.map((raw, i) => {
        const where = `events[${i}]`;
        if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new InvalidInputError(where, `${where} must be an object of event fields.`);
        try {
          return trackEventOf(readParams(trackParams, raw as Record<string, unknown>), now, `${where}.`);
        } catch (error) {
          if (error instanceof InvalidInputError && !error.param.startsWith(where)) {
            const named = error.message.replace(`Parameter ${error.param} `, `Parameter ${where}.${error.param} `);
            throw new InvalidInputError(`${where}.${error.param}`, named === error.message ? `${where}: ${error.message}` : named);
          }
          throw error;
        }
      });
    },

    /** Resolves once every event is committed; a failed commit is a 503, never a false "Received". */
    async track(shopId: number, events: readonly TrackEvent[]): Promise<number> {
      const rows = rowsOf(shopId, events);
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
