import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Ruleset, RulesetDocument } from '../../domain/rules/types.js';
import { bool, json, time } from '../codec.js';
import type { Database } from '../schema.js';
import { rowReader } from './load-reads.js';
import { bumpDataVersion, nextCounter } from './shops.js';

/** A shop's rulesets (docs/rules.md); every write moves the shop's data version. */
export interface RulesetStore {
  createRuleset(shopId: number, document: RulesetDocument): Promise<Ruleset>;
  /** Replaces the document and moves its version; null when there is no such ruleset. */
  updateRuleset(shopId: number, id: number, document: RulesetDocument): Promise<Ruleset | null>;
  deleteRuleset(shopId: number, id: number): Promise<boolean>;
  getRuleset(shopId: number, id: number): Promise<Ruleset | null>;
  listRulesets(shopId: number): Promise<Ruleset[]>;
}

export interface RulesetTables {
  rulesets: RulesetRow;
}

interface RulesetRow {
  shop_id: number;
  id: number;
  name: string;
  enabled: number;
  document: string; // JSON of the RulesetDocument
  version: number;
  created_at: number;
  updated_at: number;
}

function toRuleset(row: RulesetRow): Ruleset {
  return {
    id: Number(row.id),
    ...json.fromDb<RulesetDocument>(row.document),
    version: Number(row.version),
    created_at: time.fromDb(row.created_at),
    updated_at: time.fromDb(row.updated_at),
  };
}

export function rulesetMethods(db: Kysely<Database>, sqlite?: SQLite.Database): RulesetStore {
  const listHere = sqlite
    ? rowReader<[number], RulesetRow>(db, sqlite, 'select * from rulesets where shop_id = ? order by id')
    : null;
  return {
    async createRuleset(shopId, document) {
      return db.transaction().execute(async (trx) => {
        const id = await nextCounter(trx, shopId, 'rulesets');
        const now = Date.now();
        await trx
          .insertInto('rulesets')
          .values({
            shop_id: shopId,
            id,
            name: document.name,
            enabled: bool.toDb(document.enabled),
            document: json.toDb(document),
            version: 1,
            created_at: now,
            updated_at: now,
          })
          .execute();
        await bumpDataVersion(trx, shopId);
        return toRuleset(
          await trx
            .selectFrom('rulesets')
            .selectAll()
            .where('shop_id', '=', shopId)
            .where('id', '=', id)
            .executeTakeFirstOrThrow(),
        );
      });
    },
    async updateRuleset(shopId, id, document) {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('rulesets')
          .set((eb) => ({
            name: document.name,
            enabled: bool.toDb(document.enabled),
            document: json.toDb(document),
            version: eb('version', '+', 1),
            updated_at: Date.now(),
          }))
          .where('shop_id', '=', shopId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return null;
        await bumpDataVersion(trx, shopId);
        return toRuleset(
          await trx
            .selectFrom('rulesets')
            .selectAll()
            .where('shop_id', '=', shopId)
            .where('id', '=', id)
            .executeTakeFirstOrThrow(),
        );
      });
    },
    async deleteRuleset(shopId, id) {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .deleteFrom('rulesets')
          .where('shop_id', '=', shopId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) return false;
        await bumpDataVersion(trx, shopId);
        return true;
      });
    },
    async getRuleset(shopId, id) {
      const row = await db
        .selectFrom('rulesets')
        .selectAll()
        .where('shop_id', '=', shopId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toRuleset(row) : null;
    },
    async listRulesets(shopId) {
      const rows = listHere
        ? await listHere(shopId)
        : await db.selectFrom('rulesets').selectAll().where('shop_id', '=', shopId).orderBy('id').execute();
      return rows.map(toRuleset);
    },
  };
}
