import { inSlices } from './in-slices.js';
import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { ConflictError } from '../../domain/errors.js';
import { utcDay } from '../../domain/events.js';
import type { ArmDay } from '../../domain/experiments/results.js';
import type { Arm, Experiment } from '../../domain/experiments/types.js';
import { chunks, isUniqueViolation, json, time } from '../codec.js';
import type { Database } from '../schema.js';
import { addToTotals } from './increments.js';
import { rowReader } from './load-reads.js';
import { bumpDataVersion, nextCounter } from './shops.js';

/** Experiment storage. */
export interface ExperimentStore {
  /**
   * Creates a running experiment (started now, or at `created_at` for imported history); a running one
   * on the same ruleset is a ConflictError.
   */
  createExperiment(
    shopId: number,
    experiment: { name: string; ruleset_id: number; arms: Arm[]; created_at?: number },
  ): Promise<Experiment>;
  listExperiments(shopId: number): Promise<Experiment[]>;
  /**
   * Stops a running experiment; null when there is no such experiment, the current state when it was
   * stopped already.
   */
  stopExperiment(shopId: number, id: number, winner: string | null): Promise<Experiment | null>;
  /**
   * Records visitors first served by an arm; a visitor already recorded changes nothing, and a row made
   * before the shop's latest erasure is dropped (that erasure may have been of its visitor): those are
   * returned.
   */
  recordExposures(rows: Exposure[]): Promise<Exposure[]>;
  /** Deletes these visitors' rows (`null`: the shop's), after an erasure a write of theirs raced. */
  forgetExposures(shopId: number, visitors: readonly string[] | null): Promise<void>;
  /** Every per-day row of an experiment, by arm and day. */
  experimentDays(shopId: number, experimentId: number): Promise<ExperimentDay[]>;
}

/** A day of one experiment arm's figures, as results read them. */
export type ExperimentDay = ArmDay;

/** A visitor an experiment arm served, first seen at `created_at` (epoch ms). */
export interface Exposure {
  shop_id: number;
  experiment_id: number;
  arm: number;
  visitor: string;
  created_at: number;
}

export interface ExperimentTables {
  experiments: {
    shop_id: number;
    id: number;
    name: string;
    ruleset_id: number;
    arms: string;
    status: string;
    winner: string | null;
    created_at: number;
    stopped_at: number | null;
  };
  experiment_visitors: { shop_id: number; experiment_id: number; visitor: string; arm: number; created_at: number };
  experiment_days: {
    shop_id: number;
    experiment_id: number;
    arm: number;
    day: number;
    visitors: number;
    impressions: number;
    clicks: number;
    add_to_carts: number;
    orders: number;
    revenue: number;
    revenue_sq: number;
  };
}

function toExperiment(row: Database['experiments']): Experiment {
  return {
    id: Number(row.id),
    name: row.name,
    ruleset_id: Number(row.ruleset_id),
    arms: json.fromDb<Arm[]>(row.arms),
    status: row.status as Experiment['status'],
    winner: row.winner,
    created_at: time.fromDb(row.created_at),
    stopped_at: row.stopped_at === null ? null : time.fromDb(row.stopped_at),
  };
}

/** Experiments and their per-arm figures. Creating and stopping move the shop's data version: routing changes. */
export function experimentMethods(db: Kysely<Database>, sqlite?: SQLite.Database): ExperimentStore {
  const listHere = sqlite
    ? rowReader<[number], Database['experiments']>(
        db,
        sqlite,
        'select * from experiments where shop_id = ? order by id',
      )
    : null;
  const read = async (shopId: number, id: number) => {
    const row = await db
      .selectFrom('experiments')
      .selectAll()
      .where('shop_id', '=', shopId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toExperiment(row) : null;
  };
  return {
    async createExperiment(shopId, experiment) {
      try {
        return await db.transaction().execute(async (trx) => {
          const id = await nextCounter(trx, shopId, 'experiments');
          const row = {
            shop_id: shopId,
            id,
            name: experiment.name,
            ruleset_id: experiment.ruleset_id,
            arms: json.toDb(experiment.arms),
            status: 'running',
            winner: null,
            created_at: experiment.created_at ?? Date.now(),
            stopped_at: null,
          };
          await trx.insertInto('experiments').values(row).execute();
          await bumpDataVersion(trx, shopId);
          return toExperiment(row);
        });
      } catch (error) {
        if (isUniqueViolation(error))
          throw new ConflictError(`Ruleset ${experiment.ruleset_id} already has a running experiment; stop it first.`);
        throw error;
      }
    },

    async listExperiments(shopId) {
      const rows = listHere
        ? await listHere(shopId)
        : await db.selectFrom('experiments').selectAll().where('shop_id', '=', shopId).orderBy('id').execute();
      return rows.map(toExperiment);
    },

    async stopExperiment(shopId, id, winner) {
      await db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('experiments')
          .set({ status: 'stopped', winner, stopped_at: Date.now() })
          .where('shop_id', '=', shopId)
          .where('id', '=', id)
          .where('status', '=', 'running')
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) > 0) await bumpDataVersion(trx, shopId);
        return Number(result.numUpdatedRows) > 0;
      });
      return read(shopId, id);
    },

    async forgetExposures(shopId, visitors) {
      if (visitors === null) {
        await db.deleteFrom('experiment_visitors').where('shop_id', '=', shopId).execute();
        return;
      }
      if (visitors.length === 0) return;
      for (const slice of inSlices(visitors))
        await db
          .deleteFrom('experiment_visitors')
          .where('shop_id', '=', shopId)
          .where('visitor', 'in', slice)
          .execute();
    },

    async recordExposures(given) {
      if (given.length === 0) return [];
      return db.transaction().execute(async (trx) => {
        // A node that hears of erasures only by polling (no Redis) holds rows it buffered before one for up
        // to a flush: written after it, a row of an erased visitor came back. The shop's latest erasure
        // drops every row made before it; a visitor who comes back is recorded afresh.
        const shops = [...new Set(given.map((r) => r.shop_id))];
        const latest = await trx
          .selectFrom('erasures')
          .select(['shop_id', (eb) => eb.fn.max('erased_at').as('at')])
          .where('shop_id', 'in', shops)
          .where('subject', '=', 'customer')
          .groupBy('shop_id')
          .execute();
        const erasedAt = new Map(latest.map((r) => [Number(r.shop_id), Number(r.at)]));
        const madeAfter = (r: Exposure) => r.created_at > (erasedAt.get(r.shop_id) ?? Number.NEGATIVE_INFINITY);
        const rows = given.filter(madeAfter);
        const dropped = given.filter((r) => !madeAfter(r));
        if (rows.length === 0) return dropped;
        const fresh = new Map<
          string,
          { shop_id: number; experiment_id: number; arm: number; day: number; visitors: number }
        >();
        for (const batch of chunks(rows, 5)) {
          const inserted = await trx
            .insertInto('experiment_visitors')
            .values(batch)
            .onConflict((oc) => oc.columns(['shop_id', 'experiment_id', 'visitor']).doNothing())
            .returning(['shop_id', 'experiment_id', 'arm', 'created_at'])
            .execute();
          for (const r of inserted) {
            const day = utcDay(Number(r.created_at));
            const key = `${r.shop_id}\u0000${r.experiment_id}\u0000${r.arm}\u0000${day}`;
            const count = fresh.get(key) ?? {
              shop_id: Number(r.shop_id),
              experiment_id: Number(r.experiment_id),
              arm: Number(r.arm),
              day,
              visitors: 0,
            };
            count.visitors++;
            fresh.set(key, count);
          }
        }
        await addToTotals(
          trx,
          'experiment_days',
          ['shop_id', 'experiment_id', 'arm', 'day'],
          ['visitors'],
          [...fresh.values()],
        );
        return dropped;
      });
    },

    async experimentDays(shopId, experimentId) {
      const rows = await db
        .selectFrom('experiment_days')
        .selectAll()
        .where('shop_id', '=', shopId)
        .where('experiment_id', '=', experimentId)
        .orderBy('arm')
        .orderBy('day')
        .execute();
      return rows.map((r) => ({
        arm: Number(r.arm),
        day: Number(r.day),
        visitors: Number(r.visitors),
        impressions: Number(r.impressions),
        clicks: Number(r.clicks),
        add_to_carts: Number(r.add_to_carts),
        orders: Number(r.orders),
        revenue: Number(r.revenue),
        revenue_sq: Number(r.revenue_sq),
      }));
    },
  };
}
