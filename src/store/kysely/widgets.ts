import type { Kysely } from 'kysely';
import type { Widget, WidgetInput } from '../../domain/widgets/widget.js';
import { json, time } from '../codec.js';
import type { Database } from '../schema.js';
import { bumpDataVersion, nextCounter } from './shops.js';

/** Storage of storefront widgets (docs/widget.md, "Widgets as data"). Every write moves the shop's data version. */
export interface WidgetStore {
  createWidget(shopId: number, input: WidgetInput): Promise<Widget>;
  /** Replaces the design and moves its version; null when there is no such widget. */
  updateWidget(shopId: number, id: number, input: WidgetInput): Promise<Widget | null>;
  deleteWidget(shopId: number, id: number): Promise<boolean>;
  getWidget(shopId: number, id: number): Promise<Widget | null>;
  /** The shop's widgets, oldest first. */
  listWidgets(shopId: number): Promise<Widget[]>;
}

export interface WidgetTables {
  widgets: WidgetRow;
}

interface WidgetRow {
  shop_id: number;
  id: number;
  document: string;
  version: number;
  created_at: number;
  updated_at: number;
}

function toWidget(row: WidgetRow): Widget {
  return {
    id: Number(row.id),
    ...json.fromDb<WidgetInput>(row.document),
    version: Number(row.version),
    created_at: time.fromDb(row.created_at),
    updated_at: time.fromDb(row.updated_at),
  };
}

/** Widgets are stored as one JSON document each: the storefront reads them whole. */
export function widgetMethods(db: Kysely<Database>): WidgetStore {
  const one = (trx: Kysely<Database>, shopId: number, id: number) =>
    trx.selectFrom('widgets').selectAll().where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
  return {
    async createWidget(shopId, input) {
      return db.transaction().execute(async (trx) => {
        const id = await nextCounter(trx, shopId, 'widgets');
        const now = Date.now();
        await trx
          .insertInto('widgets')
          .values({ shop_id: shopId, id, document: json.toDb(input), version: 1, created_at: now, updated_at: now })
          .execute();
        await bumpDataVersion(trx, shopId);
        return toWidget((await one(trx, shopId, id))!);
      });
    },
    async updateWidget(shopId, id, input) {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('widgets')
          .set((eb) => ({ document: json.toDb(input), version: eb('version', '+', 1), updated_at: Date.now() }))
          .where('shop_id', '=', shopId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return null;
        await bumpDataVersion(trx, shopId);
        return toWidget((await one(trx, shopId, id))!);
      });
    },
    async deleteWidget(shopId, id) {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .deleteFrom('widgets')
          .where('shop_id', '=', shopId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) return false;
        await bumpDataVersion(trx, shopId);
        return true;
      });
    },
    async getWidget(shopId, id) {
      const row = await one(db, shopId, id);
      return row ? toWidget(row) : null;
    },
    async listWidgets(shopId) {
      return (await db.selectFrom('widgets').selectAll().where('shop_id', '=', shopId).orderBy('id').execute()).map(
        toWidget,
      );
    },
  };
}
