import type { Kysely } from 'kysely';
import type { TrackRow } from '../../domain/attribution/track.js';
import { utcDay } from '../../domain/events.js';
import { visitorKey } from '../../domain/experiments/assign.js';
import { chunks } from '../codec.js';
import type { Database } from '../schema.js';

type CountedKey = Database['track_counted'];

const KEY_COLUMNS = ['shop_id', 'day', 'visitor', 'source', 'product_id', 'type'] as const;
const idOf = (k: CountedKey) => [k.shop_id, k.day, k.visitor, k.source, k.product_id, k.type].join('\u0000');

/**
 * The tracked rows that count (docs/attribution.md, "Tracking"): the first of each (visitor, source,
 * product, type, day), in this batch and ever; and an experiment arm kept only where the experiment
 * served that arm to that visitor (its visitor record). Runs inside the writing transaction.
 */
export async function countableRows(trx: Kysely<Database>, rows: readonly TrackRow[]): Promise<TrackRow[]> {
  const candidates = new Map<string, TrackRow & { visitor: string }>();
  for (const row of rows) {
    const visitor = visitorKey(row.uuid, row.customer_id);
    if (visitor === null) continue;
    const key = {
      shop_id: row.shop_id,
      day: utcDay(row.created_at),
      visitor,
      source: row.source ?? '',
      product_id: row.product_id ?? 0,
      type: row.type,
    };
    const id = idOf(key);
    if (!candidates.has(id)) candidates.set(id, { ...row, visitor });
  }
  const fresh = new Set<string>();
  const keys = [...candidates.values()].map((r) => ({
    shop_id: r.shop_id,
    day: utcDay(r.created_at),
    visitor: r.visitor,
    source: r.source ?? '',
    product_id: r.product_id ?? 0,
    type: r.type,
  }));
  for (const batch of chunks(keys, KEY_COLUMNS.length)) {
    const inserted = await trx
      .insertInto('track_counted')
      .values(batch)
      .onConflict((oc) => oc.columns([...KEY_COLUMNS]).doNothing())
      .returning([...KEY_COLUMNS])
      .execute();
    for (const r of inserted)
      fresh.add(idOf({ ...r, shop_id: Number(r.shop_id), day: Number(r.day), product_id: Number(r.product_id) }));
  }
  const counted = [...candidates].filter(([id]) => fresh.has(id)).map(([, row]) => row);
  const served = await servedArms(trx, counted);
  return counted.map(({ visitor, ...row }) =>
    row.experiment_id === null || served.get(`${row.shop_id}\u0000${row.experiment_id}\u0000${visitor}`) === row.arm
      ? row
      : { ...row, experiment_id: null, arm: null },
  );
}

/** Deletes the once-per-day records of days before `day` (events are stamped on arrival: none can match them). */
export async function forgetCountedBefore(db: Kysely<Database>, day: number): Promise<number> {
  const result = await db.deleteFrom('track_counted').where('day', '<', day).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The arm each experiment served each visitor of these rows, by "shop, experiment, visitor". */
async function servedArms(
  trx: Kysely<Database>,
  rows: readonly (TrackRow & { visitor: string })[],
): Promise<Map<string, number>> {
  const wanted = new Map<string, { shop: number; experiment: number; visitors: Set<string> }>();
  for (const row of rows) {
    if (row.experiment_id === null) continue;
    const id = `${row.shop_id}\u0000${row.experiment_id}`;
    const entry = wanted.get(id) ?? { shop: row.shop_id, experiment: row.experiment_id, visitors: new Set<string>() };
    entry.visitors.add(row.visitor);
    wanted.set(id, entry);
  }
  const out = new Map<string, number>();
  for (const { shop, experiment, visitors } of wanted.values()) {
    for (const batch of chunks([...visitors], 1, 500)) {
      const found = await trx
        .selectFrom('experiment_visitors')
        .select(['visitor', 'arm'])
        .where('shop_id', '=', shop)
        .where('experiment_id', '=', experiment)
        .where('visitor', 'in', batch)
        .execute();
      for (const r of found) out.set(`${shop}\u0000${experiment}\u0000${r.visitor}`, Number(r.arm));
    }
  }
  return out;
}
