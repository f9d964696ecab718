import type SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { rawReader } from './load-reads.js';

/** A product handle's views and adds summed over the days asked. */
export interface EventTotal {
  handle: string;
  views: number;
  adds: number;
}

/**
 * Reads a shop's views and adds per handle since a day, summed by the database. A shop browsed every
 * day has a row a day for each product it shows (4,600 for 150 products over a month): made into
 * objects and added up here, they were six times the CPU of the rest of its load.
 */
export type EventTotalsReader = (shopId: number, sinceDay: number) => Promise<EventTotal[]>;

export function eventTotalsReader(db: Kysely<Database>, sqlite?: SQLite.Database): EventTotalsReader {
  return sqlite ? sqliteTotals(db, sqlite) : kyselyTotals(db);
}

const TOTALS = `select handle, sum(views), sum(adds) from event_counts
  where shop_id = ? and day >= ? group by handle`;

type TotalRow = [handle: string, views: number, adds: number];

/** SQLite: the rows as arrays (`rawReader`). */
function sqliteTotals(db: Kysely<Database>, sqlite: SQLite.Database): EventTotalsReader {
  const read = rawReader<[number, number], TotalRow>(db, sqlite, TOTALS);
  return async (shopId, sinceDay) => {
    const rows = await read(shopId, sinceDay);
    const totals = new Array<EventTotal>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const [handle, views, adds] = rows[i]!;
      totals[i] = { handle, views, adds };
    }
    return totals;
  };
}

/** PostgreSQL (and SQLite opened without its handle): the query through Kysely. */
function kyselyTotals(db: Kysely<Database>): EventTotalsReader {
  return async (shopId, sinceDay) => {
    const rows = await db
      .selectFrom('event_counts')
      .select(['handle', sql<string | number>`sum(views)`.as('views'), sql<string | number>`sum(adds)`.as('adds')])
      .where('shop_id', '=', shopId)
      .where('day', '>=', sinceDay)
      .groupBy('handle')
      .execute();
    // PostgreSQL sums bigints as numeric, which its driver hands over as text.
    return rows.map((r) => ({ handle: r.handle, views: Number(r.views), adds: Number(r.adds) }));
  };
}
