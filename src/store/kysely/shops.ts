import type SQLite from 'better-sqlite3';
import { sql, type Kysely, type Transaction } from 'kysely';
import { ConflictError, NotFoundError } from '../../domain/errors.js';
import type { ApiKeyRecord, Shop } from '../../domain/shop.js';
import { isUniqueViolation, json, time } from '../codec.js';
import type { Database } from '../schema.js';
import { rowReader } from './load-reads.js';

export type NewShop = Omit<Shop, 'id' | 'data_version' | 'created_at' | 'updated_at'>;
export type ShopPatch = Partial<
  Pick<
    Shop,
    | 'name'
    | 'timezone'
    | 'currency'
    | 'scopes'
    | 'public_url'
    | 'webhook_secret'
    | 'billing_webhook_secret'
    | 'settings'
  >
>;

/** Shops and their API keys. */
export interface ShopStore {
  /** Creates a shop with its first keys; a taken handle is a ConflictError. */
  createShop(shop: NewShop, keys: ApiKeyRecord[]): Promise<Shop>;
  getShopByHandle(handle: string): Promise<Shop | null>;
  getShopById(id: number): Promise<Shop | null>;
  listShops(): Promise<Shop[]>;
  updateShop(id: number, patch: ShopPatch): Promise<Shop>;
  listShopVersions(): Promise<{ id: number; data_version: number }[]>;

  /**
   * Adds new keys: the shop's current keys of the same kinds expire at `graceUntil`, keys already in
   * a grace period expire now, and so does the key with `endNowHash` (the one that asked).
   */
  rotateApiKeys(
    shopId: number,
    keys: ApiKeyRecord[],
    rotation: { now: number; graceUntil: number; endNowHash: string | null },
  ): Promise<void>;
  /** Ends the shop's live key with this hash now; returns how many (0 or 1). */
  revokeApiKeys(shopId: number, keyHash: string, now: number): Promise<number>;
  /** Every key of a shop, live or not, newest first (hashes only). */
  listShopKeys(shopId: number): Promise<ApiKeyRecord[]>;
  /** Keys that are current or inside their grace period. */
  listLiveApiKeys(now: number): Promise<ApiKeyRecord[]>;
  keysVersion(): Promise<string>;
}

export interface ShopTables {
  /** Named sequences per shop (shop 0 for global ones): ids, and versions other nodes poll. */
  counters: { shop_id: number; name: string; value: number };
  shops: ShopRow;
  api_keys: ApiKeyRow;
}

interface ShopRow {
  id: number;
  handle: string;
  name: string;
  timezone: string;
  currency: string;
  scopes: string; // JSON array
  signing_secret: string;
  public_url: string | null;
  webhook_secret: string | null;
  billing_webhook_secret: string | null;
  settings: string; // JSON of ShopSettings
  /** Moves on every write that changes what the shop's read model holds; nodes poll it. */
  data_version: number;
  created_at: number;
  updated_at: number;
}

interface ApiKeyRow {
  id: string; // random id, not the key
  shop_id: number;
  kind: 'public' | 'private';
  key_hash: string;
  key_prefix: string;
  created_at: number;
  /** Null while the key is current; set on rotation to the end of its grace period. */
  expires_at: number | null;
}

type Db = Kysely<Database> | Transaction<Database>;

/** Next value of a named counter (per shop; shop 0 for global ones), atomic on both databases. */
export async function nextCounter(db: Db, shopId: number, name: string): Promise<number> {
  return nextCounterBlock(db, shopId, name, 1);
}

/** Reserves `count` consecutive values of a counter; returns the last one. */
export async function nextCounterBlock(db: Db, shopId: number, name: string, count: number): Promise<number> {
  const row = await db
    .insertInto('counters')
    .values({ shop_id: shopId, name, value: count })
    .onConflict((oc) => oc.columns(['shop_id', 'name']).doUpdateSet({ value: sql`counters.value + ${count}` }))
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(row.value);
}

/**
 * Marks the shop's read model stale for every node, and deletes its load snapshot (made of the
 * data this write changes). The shop's row first: on PostgreSQL a snapshot being written holds it
 * for share, so this waits for that insert and deletes what it wrote.
 */
export async function bumpDataVersion(db: Db, shopId: number): Promise<void> {
  await db
    .updateTable('shops')
    .set({ data_version: sql`data_version + 1`, updated_at: Date.now() })
    .where('id', '=', shopId)
    .execute();
  await db.deleteFrom('shop_snapshots').where('shop_id', '=', shopId).execute();
}

function toShop(row: ShopRow): Shop {
  return {
    id: Number(row.id),
    handle: row.handle,
    name: row.name,
    timezone: row.timezone,
    currency: row.currency,
    scopes: json.fromDb<string[]>(row.scopes),
    signing_secret: row.signing_secret,
    public_url: row.public_url,
    webhook_secret: row.webhook_secret,
    billing_webhook_secret: row.billing_webhook_secret,
    settings: json.fromDb<Shop['settings']>(row.settings ?? '{}'),
    data_version: Number(row.data_version),
    created_at: time.fromDb(row.created_at),
    updated_at: time.fromDb(row.updated_at),
  };
}

function toKey(row: Database['api_keys']): ApiKeyRecord {
  return {
    ...row,
    shop_id: Number(row.shop_id),
    created_at: Number(row.created_at),
    expires_at: row.expires_at === null ? null : Number(row.expires_at),
  };
}

export function shopMethods(db: Kysely<Database>, sqlite?: SQLite.Database): ShopStore {
  const byIdHere = sqlite ? rowReader<[number], ShopRow>(db, sqlite, 'select * from shops where id = ?') : null;
  return {
    async createShop(shop: NewShop, keys: ApiKeyRecord[]) {
      try {
        return await db.transaction().execute(async (trx) => {
          const id = await nextCounter(trx, 0, 'shops');
          const now = Date.now();
          await trx
            .insertInto('shops')
            .values({
              id,
              handle: shop.handle,
              name: shop.name,
              timezone: shop.timezone,
              currency: shop.currency,
              scopes: json.toDb(shop.scopes),
              signing_secret: shop.signing_secret,
              public_url: shop.public_url,
              webhook_secret: shop.webhook_secret,
              billing_webhook_secret: shop.billing_webhook_secret,
              settings: json.toDb(shop.settings),
              data_version: 1,
              created_at: now,
              updated_at: now,
            })
            .execute();
          await insertKeys(
            trx,
            keys.map((k) => ({ ...k, shop_id: id })),
          );
          const row = await trx.selectFrom('shops').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
          return toShop(row);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new ConflictError(`Shop handle "${shop.handle}" is taken.`);
        throw error;
      }
    },
    async getShopByHandle(handle) {
      const row = await db.selectFrom('shops').selectAll().where('handle', '=', handle).executeTakeFirst();
      return row ? toShop(row) : null;
    },
    async getShopById(id) {
      const row = byIdHere
        ? (await byIdHere(id))[0]
        : await db.selectFrom('shops').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toShop(row) : null;
    },
    async listShops() {
      const rows = await db.selectFrom('shops').selectAll().orderBy('id').execute();
      return rows.map(toShop);
    },
    async updateShop(id, patch: ShopPatch) {
      const values: Partial<ShopRow> = { updated_at: Date.now() };
      if (patch.name !== undefined) values.name = patch.name;
      if (patch.timezone !== undefined) values.timezone = patch.timezone;
      if (patch.currency !== undefined) values.currency = patch.currency;
      if (patch.scopes !== undefined) values.scopes = json.toDb(patch.scopes);
      if (patch.public_url !== undefined) values.public_url = patch.public_url;
      if (patch.webhook_secret !== undefined) values.webhook_secret = patch.webhook_secret;
      if (patch.billing_webhook_secret !== undefined) values.billing_webhook_secret = patch.billing_webhook_secret;
      if (patch.settings !== undefined) values.settings = json.toDb(patch.settings);
      return db.transaction().execute(async (trx) => {
        const result = await trx.updateTable('shops').set(values).where('id', '=', id).executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) throw new NotFoundError(`Shop ${id} not found.`);
        // Timezone, currency and scopes change answers, so the read model must notice.
        await bumpDataVersion(trx, id);
        return toShop(await trx.selectFrom('shops').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
      });
    },
    async listShopVersions() {
      const rows = await db.selectFrom('shops').select(['id', 'data_version']).execute();
      return rows.map((r) => ({ id: Number(r.id), data_version: Number(r.data_version) }));
    },

    async rotateApiKeys(shopId, keys, rotation) {
      await db.transaction().execute(async (trx) => {
        const kinds = [...new Set(keys.map((k) => k.kind))];
        const ofShop = trx.updateTable('api_keys').where('shop_id', '=', shopId).where('kind', 'in', kinds);
        // Keys already in a grace period end now: a rotation never leaves more than one older generation alive.
        await ofShop.set({ expires_at: rotation.now }).where('expires_at', '>', rotation.now).execute();
        await ofShop.set({ expires_at: rotation.graceUntil }).where('expires_at', 'is', null).execute();
        if (rotation.endNowHash) {
          await trx
            .updateTable('api_keys')
            .set({ expires_at: rotation.now })
            .where('shop_id', '=', shopId)
            .where('key_hash', '=', rotation.endNowHash)
            .execute();
        }
        await insertKeys(trx, keys);
      });
    },
    async revokeApiKeys(shopId, keyHash, now) {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('api_keys')
          .set({ expires_at: now })
          .where('shop_id', '=', shopId)
          .where('key_hash', '=', keyHash)
          .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
          .executeTakeFirst();
        const revoked = Number(result.numUpdatedRows);
        if (revoked > 0) await nextCounter(trx, 0, 'keys');
        return revoked;
      });
    },
    async listShopKeys(shopId) {
      const rows = await db
        .selectFrom('api_keys')
        .selectAll()
        .where('shop_id', '=', shopId)
        .orderBy('created_at', 'desc')
        .execute();
      return rows.map(toKey);
    },
    async listLiveApiKeys(now) {
      const rows = await db
        .selectFrom('api_keys')
        .selectAll()
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
        .execute();
      return rows.map(toKey);
    },
    async keysVersion() {
      const row = await db
        .selectFrom('counters')
        .select('value')
        .where('shop_id', '=', 0)
        .where('name', '=', 'keys')
        .executeTakeFirst();
      return String(row?.value ?? 0);
    },
  };
}

async function insertKeys(trx: Transaction<Database>, keys: ApiKeyRecord[]): Promise<void> {
  if (keys.length === 0) return;
  await trx.insertInto('api_keys').values(keys).execute();
  await nextCounter(trx, 0, 'keys');
}
