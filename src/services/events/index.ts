import { UnavailableError } from '../../domain/errors.js';
import type { IntakeEvent, StoredEvent, StoreEvent } from '../../domain/events.js';
import type { CatalogIndex } from '../../indexes/catalog-index.js';
import { nextTurn } from '../../indexes/turns.js';
import type { ViewedIndex } from '../../indexes/viewed-index.js';
import type { GroupCommitter } from '../../jobs/group-commit.js';
import type { EventFilter, EventStore } from '../../store/kysely/events.js';

/** An event as written; `uncounted` when its product handle is unknown (kept, counted for no product). */
export type EventRow = IntakeEvent;

/**
 * A handle the catalog does not know is stored (a sync may lag) but counts for no product. A shop not in
 * memory is not loaded for it: the store checks the handle against the shop's products when it commits.
 */
function handleCheck(catalog: CatalogIndex, shopId: number, handle: string | null): Partial<IntakeEvent> {
  if (handle === null) return {};
  const resident = catalog.get(shopId);
  if (!resident) return { unchecked: true };
  return resident.byHandle.has(handle) ? {} : { uncounted: true };
}

/** The analytics intake and the viewed-products read-back (docs/api.md, "Events"). */
export function createEventsService(deps: {
  store: EventStore;
  catalog: CatalogIndex;
  viewed: ViewedIndex;
  committer: GroupCommitter<EventRow, boolean>;
}) {
  const { store, catalog, viewed, committer } = deps;

  return {
    /** Resolves only once the event is committed; a failed commit is a 503, never a false "Received". */
    async ingest(shopId: number, event: StoreEvent): Promise<void> {
      const check = handleCheck(catalog, shopId, event.handle);
      let stored: boolean | undefined;
      try {
        stored = await committer.submit({ ...event, shop_id: shopId, ...check });
      } catch {
        throw new UnavailableError('The event could not be stored just now; nothing was recorded. Retry shortly.');
      }
      // An event an erasure covers (sent late, dated before it) is acknowledged, and not remembered either.
      if (stored !== false) viewed.record(shopId, event);
    },

    list(shopId: number, filter: EventFilter & { limit: number }): Promise<StoredEvent[]> {
      return store.listEvents(shopId, filter);
    },

    /**
     * The same events in pages of `pageSize`, read as they are asked for: an inspection of 100,000
     * events holds the event loop for one page at a time, not for all of them (a second and 24 MB).
     */
    async *pages(shopId: number, filter: EventFilter & { limit: number }, pageSize = 2000) {
      let left = filter.limit;
      let beforeId: number | undefined;
      while (left > 0) {
        const page = await store.listEvents(shopId, {
          ...filter,
          limit: Math.min(left, pageSize),
          ...(beforeId === undefined ? {} : { beforeId }),
        });
        if (page.length > 0) yield page;
        if (page.length < Math.min(left, pageSize)) return;
        left -= page.length;
        beforeId = page.at(-1)!.id;
        await nextTurn(); // the other shops' requests go between two pages
      }
    },

    /**
     * Bulk load of past events (the demo seed), straight to the store in one transaction: smart sort
     * and the insights see the views at once, not on the next minute's refresh.
     */
    async importEvents(shopId: number, events: StoreEvent[]): Promise<void> {
      await store.appendEvents(events.map((e) => ({ ...e, shop_id: shopId })));
      await catalog.reloadEventCounts(shopId);
    },
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
