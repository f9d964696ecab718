import type SQLite from 'better-sqlite3';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { countEvents, utcDay, type IntakeEvent, type StoreEvent, type StoredEvent } from '../../domain/events.js';
import type { Database } from '../schema.js';
import { withoutErased } from './erased-rows.js';
import { checkedHandles } from './checked-handles.js';
import { eventTotalsMethods, pastDaysWritten, type EventTotalsStore } from './event-totals.js';
import { RowStatements } from './row-statements.js';
import { nextCounterBlock } from './shops.js';

/** Storefront behaviour events and their per-day counts per product handle. */
export interface EventStore extends EventTotalsStore {
  /** Stores events of any shops in one transaction, with their per-day counts: all or nothing. */
  /** Whether each event was stored (false: an erasure covers it), in the order given. */
  appendEvents(events: IntakeEvent[]): Promise<boolean[]>;
  /** Newest first; filtered by session or customer when given. */
  /** Events newest first, at most `limit`; with `beforeId`, those older than that event (the next page). */
  listEvents(shopId: number, filter: EventFilter & { limit: number; beforeId?: number }): Promise<StoredEvent[]>;
  /** Handles of the latest product views of a session or customer, newest first, repeats included. */
  latestViewedHandles(shopId: number, filter: EventFilter, scan: number): Promise<string[]>;
  /** The latest product views (newest first, at most `limit`): what the model reads of co-viewing. */
  listRecentViews(
    shopId: number,
    limit: number,
  ): Promise<{ uuid: string | null; customer_id: number | null; handle: string; created_at: number }[]>;
  /** How many events the shop has taken: moves with every stored event, so a model can tell it is current. */
  eventCount(shopId: number): Promise<number>;
  /** The stored counts, a row per day and handle, from `sinceDay` (a UTC day as yyyymmdd). */
  listEventCounts(
    shopId: number,
    sinceDay: number,
  ): Promise<{ day: number; handle: string; views: number; adds: number; removes: number }[]>;
  /**
   * Events per verb in fixed periods of `periodMs` (aligned on the epoch; a whole number of
   * minutes), created at or after `since` (epoch ms): `start` is the period's first instant.
   */
  countEventsByPeriod(
    shopId: number,
    since: number,
    periodMs: number,
  ): Promise<{ start: number; verb: StoreEvent['verb']; count: number }[]>;
}

export interface EventFilter {
  uuid?: string | null;
  customerId?: number | null;
}

export interface EventTables {
  events: EventRow;
  event_counts: { shop_id: number; day: number; handle: string; views: number; adds: number; removes: number };
  event_totals: {
    shop_id: number;
    generation: number;
    since_day: number | null;
    through_day: number | null;
    body: string | null;
  };
}

interface EventRow {
  shop_id: number;
  id: number;
  uuid: string | null;
  customer_id: number | null;
  subject: string;
  verb: string;
  noun: string;
  handle: string | null;
  subject_email: string | null;
  theme_id: string | null;
  created_at: number;
}

/** The columns of a stored event, in the order the batch statements bind them. */
const EVENT_COLUMNS = [
  'shop_id',
  'id',
  'uuid',
  'customer_id',
  'subject',
  'verb',
  'noun',
  'handle',
  'subject_email',
  'theme_id',
  'created_at',
] as const;
const COUNT_COLUMNS = ['shop_id', 'day', 'handle', 'views', 'adds', 'removes'] as const;

function filtered<O>(query: SelectQueryBuilder<Database, 'events', O>, shopId: number, filter: EventFilter) {
  let q = query.where('shop_id', '=', shopId);
  if (filter.uuid) q = q.where('uuid', '=', filter.uuid);
  if (filter.customerId) q = q.where('customer_id', '=', filter.customerId);
  return q;
}

type CountRow = ReturnType<typeof countEvents>[number];

/**
 * Counts of a day before this one change what shops keep of their past days (event-totals.ts).
 * So do counts of the last minutes of today: a load that already counts today as a past day (its
 * clock a little ahead, or a read just after midnight) may be summing them.
 */
const SETTLED_MARGIN_MS = 5 * 60_000;

export function eventMethods(db: Kysely<Database>, sqlite?: SQLite.Database): EventStore {
  const insertEvents = new RowStatements<StoredEvent>(db, EVENT_COLUMNS, (d, rows) =>
    d.insertInto('events').values(rows),
  );
  // Each day's counts per handle are added to what is stored (one row per shop, day and handle).
  const addCounts = new RowStatements<CountRow>(db, COUNT_COLUMNS, (d, rows) =>
    d
      .insertInto('event_counts')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['shop_id', 'day', 'handle']).doUpdateSet((eb) => ({
          views: eb('event_counts.views', '+', eb.ref('excluded.views')),
          adds: eb('event_counts.adds', '+', eb.ref('excluded.adds')),
          removes: eb('event_counts.removes', '+', eb.ref('excluded.removes')),
        })),
      ),
  );
  return {
    ...eventTotalsMethods(db, sqlite),
    async appendEvents(events) {
      if (events.length === 0) return [];
      const stored = new Set<IntakeEvent>();
      await db.transaction().execute(async (trx) => {
        const byShop = new Map<number, typeof events>();
        for (const e of events) {
          const list = byShop.get(e.shop_id);
          if (list) list.push(e);
          else byShop.set(e.shop_id, [e]);
        }
        // In shop order: two nodes' batches take the shops' counters in the same order (PostgreSQL).
        for (const [shopId, list] of [...byShop].sort((a, b) => a[0] - b[0])) {
          const last = await nextCounterBlock(trx, shopId, 'events', list.length);
          const first = last - list.length + 1;
          const source = new Map<StoredEvent, IntakeEvent>();
          const rows = list.map(
            (e, i): StoredEvent => ({
              shop_id: shopId,
              id: first + i,
              uuid: e.uuid,
              customer_id: e.customer_id,
              subject: e.subject,
              verb: e.verb,
              noun: e.noun,
              handle: e.handle,
              subject_email: e.subject_email,
              theme_id: e.theme_id,
              created_at: e.created_at,
            }),
          );
          for (const [i, row] of rows.entries()) source.set(row, list[i]!);
          const kept = await withoutErased(trx, rows);
          for (const row of kept) stored.add(source.get(row)!);
          await insertEvents.run(kept, trx);
        }
        const counts = countEvents(await checkedHandles(trx, events));
        await addCounts.run(counts, trx);
        const settled = utcDay(Date.now() + SETTLED_MARGIN_MS);
        await pastDaysWritten(trx, [...new Set(counts.filter((c) => c.day < settled).map((c) => c.shop_id))]);
      });
      return events.map((e) => stored.has(e));
    },

    async listEvents(shopId, filter) {
      let query = filtered(db.selectFrom('events').selectAll(), shopId, filter);
      if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
      const rows = await query.orderBy('id', 'desc').limit(filter.limit).execute();
      return rows.map(
        (r): StoredEvent => ({
          id: Number(r.id),
          shop_id: Number(r.shop_id),
          uuid: r.uuid,
          customer_id: r.customer_id === null ? null : Number(r.customer_id),
          subject: r.subject as 'user',
          verb: r.verb as StoredEvent['verb'],
          noun: r.noun as 'product',
          handle: r.handle,
          subject_email: r.subject_email,
          theme_id: r.theme_id,
          created_at: Number(r.created_at),
        }),
      );
    },

    async latestViewedHandles(shopId, filter, scan) {
      const rows = await filtered(db.selectFrom('events').select(['handle']), shopId, filter)
        .where('verb', '=', 'viewed')
        .where('handle', 'is not', null)
        .orderBy('id', 'desc')
        .limit(scan)
        .execute();
      return rows.map((r) => r.handle!);
    },

    async listRecentViews(shopId, limit) {
      const rows = await db
        .selectFrom('events')
        .select(['uuid', 'customer_id', 'handle', 'created_at'])
        .where('shop_id', '=', shopId)
        .where('verb', '=', 'viewed')
        .where('handle', 'is not', null)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        uuid: r.uuid,
        customer_id: r.customer_id === null ? null : Number(r.customer_id),
        handle: r.handle!,
        created_at: Number(r.created_at),
      }));
    },

    async eventCount(shopId) {
      // Event ids come from this counter, one per stored event.
      const row = await db
        .selectFrom('counters')
        .select('value')
        .where('shop_id', '=', shopId)
        .where('name', '=', 'events')
        .executeTakeFirst();
      return row ? Number(row.value) : 0;
    },

    async listEventCounts(shopId, sinceDay) {
      const rows = await db
        .selectFrom('event_counts')
        .select(['day', 'handle', 'views', 'adds', 'removes'])
        .where('shop_id', '=', shopId)
        .where('day', '>=', sinceDay)
        .execute();
      return rows.map((r) => ({
        day: Number(r.day),
        handle: r.handle,
        views: Number(r.views),
        adds: Number(r.adds),
        removes: Number(r.removes),
      }));
    },

    async countEventsByPeriod(shopId, since, periodMs) {
      if (!Number.isSafeInteger(periodMs) || periodMs < 60_000 || periodMs % 60_000 !== 0)
        throw new RangeError(`periodMs must be a whole number of minutes, got ${periodMs}.`);
      // Integer arithmetic both databases share; the period is a checked
      // literal, so the grouped and selected expressions are the same text.
      const start = sql<number>`created_at - created_at % ${sql.lit(periodMs)}`;
      const rows = await db
        .selectFrom('events')
        .select([start.as('start'), 'verb', (eb) => eb.fn.countAll().as('count')])
        .where('shop_id', '=', shopId)
        .where('created_at', '>=', since)
        .groupBy([start, 'verb'])
        .orderBy('start')
        .orderBy('verb')
        .execute();
      return rows.map((r) => ({ start: Number(r.start), verb: r.verb as StoredEvent['verb'], count: Number(r.count) }));
    },
  };
}
