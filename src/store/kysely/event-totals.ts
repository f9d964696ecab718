import type SQLite from 'better-sqlite3';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../schema.js';
import { rawReader, rowReader } from './load-reads.js';
import { writeWithoutWaiting } from './no-wait.js';

/**
 * Views and adds per product handle summed over the days asked, as three lists (position i of each
 * is one handle's), in the order of the handles: a load merges them without a map or an object a handle.
 */
export interface EventTotals {
  readonly handles: readonly string[];
  readonly views: readonly number[];
  readonly adds: readonly number[];
}

/**
 * A shop's sum of the days of its window before today, as kept: `totals` null when none is kept
 * or counts of a past day were written since. `generation` is what a new sum is stored against.
 */
export interface KeptTotals {
  generation: number;
  sinceDay: number | null;
  throughDay: number | null;
  totals: EventTotals | null;
}

/** Summed views and adds, and the kept sums of past days (what a shop's load reads of its events). */
export interface EventTotalsStore {
  /** Views and adds per handle summed over the days from `sinceDay` through `throughDay` (UTC days, yyyymmdd). */
  sumEventCounts(shopId: number, sinceDay: number, throughDay?: number): Promise<EventTotals>;
  getKeptEventTotals(shopId: number): Promise<KeptTotals | null>;
  /**
   * Keeps a sum of past days made after `generation` was read (null: no row was there), only if no
   * counts of a past day were written since: false when they were, or (SQLite) when another process
   * holds the write lock. The next load sums again.
   */
  keepEventTotals(
    shopId: number,
    generation: number | null,
    sinceDay: number,
    throughDay: number,
    totals: EventTotals,
  ): Promise<boolean>;
}

const LAST_DAY = 99_991_231;

/**
 * A shop browsed every day has a row a day for each product it shows (4,600 for 150 products over
 * a month): made into objects and added up here, they were six times the CPU of the rest of its
 * load. The database sums them (about 1 ms for that shop), and the sum of the days before today is
 * kept, so a load mostly reads one row and today's counts.
 */
type KeptRow = Pick<Database['event_totals'], 'generation' | 'since_day' | 'through_day' | 'body'>;

export function eventTotalsMethods(db: Kysely<Database>, sqlite?: SQLite.Database): EventTotalsStore {
  const keptHere = sqlite
    ? rowReader<[number], KeptRow>(
        db,
        sqlite,
        'select generation, since_day, through_day, body from event_totals where shop_id = ?',
      )
    : null;
  return {
    sumEventCounts: sqlite ? sqliteTotals(db, sqlite) : kyselyTotals(db),
    async getKeptEventTotals(shopId) {
      const row: KeptRow | undefined = keptHere
        ? (await keptHere(shopId))[0]
        : await db
            .selectFrom('event_totals')
            .select(['generation', 'since_day', 'through_day', 'body'])
            .where('shop_id', '=', shopId)
            .executeTakeFirst();
      if (!row) return null;
      return {
        generation: Number(row.generation),
        sinceDay: row.since_day,
        throughDay: row.through_day,
        totals: row.body === null ? null : decode(row.body),
      };
    },
    async keepEventTotals(shopId, generation, sinceDay, throughDay, totals) {
      const write = async (connection: Kysely<Database>) => {
        const body = encode(totals);
        if (generation === null) {
          const result = await connection
            .insertInto('event_totals')
            .values({
              shop_id: shopId,
              generation: newGeneration(),
              since_day: sinceDay,
              through_day: throughDay,
              body,
            })
            .onConflict((oc) => oc.column('shop_id').doNothing())
            .executeTakeFirst();
          return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
        }
        const result = await connection
          .updateTable('event_totals')
          .set({ since_day: sinceDay, through_day: throughDay, body })
          .where('shop_id', '=', shopId)
          .where('generation', '=', generation)
          .executeTakeFirst();
        return Number(result.numUpdatedRows) > 0;
      };
      return sqlite ? writeWithoutWaiting(db, sqlite, write) : write(db);
    },
  };
}

/**
 * In the intake's transaction: these shops took counts of a past day, so what is kept of their
 * past days is stale and a sum made before now must not be stored (its generation moves).
 */
export async function pastDaysWritten(trx: Transaction<Database>, shopIds: readonly number[]): Promise<void> {
  if (shopIds.length === 0) return;
  await trx
    .insertInto('event_totals')
    .values(
      // In shop order: two nodes' batches lock the shops' rows in the same order (PostgreSQL).
      [...shopIds]
        .sort((a, b) => a - b)
        .map((shopId) => ({
          shop_id: shopId,
          generation: newGeneration(),
          since_day: null,
          through_day: null,
          body: null,
        })),
    )
    .onConflict((oc) =>
      oc.column('shop_id').doUpdateSet((eb) => ({
        generation: eb('event_totals.generation', '+', 1),
        since_day: null,
        through_day: null,
        body: null,
      })),
    )
    .execute();
}

/**
 * A new row's generation: not a fixed first value, so that a row deleted and made again (rows are
 * copies, deleting them is safe) never takes a generation a load read before the deletion, whose
 * sum may lack what was written meanwhile.
 */
const newGeneration = () => 1 + Math.floor(Math.random() * 2 ** 48);

/** Handles, views and adds as three lists: one JSON value a row. */
const encode = (totals: EventTotals) => JSON.stringify([totals.handles, totals.views, totals.adds]);

function decode(body: string): EventTotals {
  const [handles, views, adds] = JSON.parse(body) as [string[], number[], number[]];
  return { handles, views, adds };
}

/** In byte order of the handles (SQLite's own comparison): what grouping sorts them by anyway. */
const TOTALS = `select handle, sum(views), sum(adds) from event_counts
  where shop_id = ? and day >= ? and day <= ? group by handle order by handle`;

type TotalRow = [handle: string, views: number, adds: number];

/** SQLite: the rows as arrays (`rawReader`). */
function sqliteTotals(db: Kysely<Database>, sqlite: SQLite.Database): EventTotalsStore['sumEventCounts'] {
  const read = rawReader<[number, number, number], TotalRow>(db, sqlite, TOTALS);
  return async (shopId, sinceDay, throughDay = LAST_DAY) => {
    const rows = await read(shopId, sinceDay, throughDay);
    const totals = {
      handles: new Array<string>(rows.length),
      views: new Array<number>(rows.length),
      adds: [] as number[],
    };
    totals.adds.length = rows.length;
    for (let i = 0; i < rows.length; i++) {
      const [handle, views, adds] = rows[i]!;
      totals.handles[i] = handle;
      totals.views[i] = views;
      totals.adds[i] = adds;
    }
    return totals;
  };
}

/** PostgreSQL (and SQLite opened without its handle): the query through Kysely. */
function kyselyTotals(db: Kysely<Database>): EventTotalsStore['sumEventCounts'] {
  return async (shopId, sinceDay, throughDay = LAST_DAY) => {
    const rows = await db
      .selectFrom('event_counts')
      .select(['handle', sql<string | number>`sum(views)`.as('views'), sql<string | number>`sum(adds)`.as('adds')])
      .where('shop_id', '=', shopId)
      .where('day', '>=', sinceDay)
      .where('day', '<=', throughDay)
      .groupBy('handle')
      // Byte order, as SQLite's: the database's own collation may sort otherwise (the load would sort again).
      .orderBy(sql`handle collate "C"`)
      .execute();
    // PostgreSQL sums bigints as numeric, which its driver hands over as text.
    return {
      handles: rows.map((r) => r.handle),
      views: rows.map((r) => Number(r.views)),
      adds: rows.map((r) => Number(r.adds)),
    };
  };
}
